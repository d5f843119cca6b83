// First: tracing must patch http, express and pg before anything loads them.
import '@app/kit/tracing-entry/gateway';
import {
  BusTransport,
  Infra,
  assertValidEnvironment,
  exitWhenBusIsLost,
  infraEnvironment,
  listenEnvironment,
  loggingEnvironment,
  metricsEnvironment,
  natsCredentialsEnvironment,
  logger,
  openObjectStorage,
  stopTracing,
  storageEnvironment,
  tracingEnvironment,
} from '@app/kit';
import { createGateway } from './gateway';
import { gatewayEnvironment, publicWebEnvironment } from './gateway.environment';

/** The gateway as its own process (distributed mode): it holds no data, only a bus connection as the gateway principal. */
async function main(): Promise<void> {
  // Every variable the gateway reads is checked before anything starts, each invalid one named.
  assertValidEnvironment(process.env, [
    infraEnvironment,
    natsCredentialsEnvironment,
    loggingEnvironment,
    tracingEnvironment,
    listenEnvironment,
    storageEnvironment,
    gatewayEnvironment,
    publicWebEnvironment,
    metricsEnvironment,
  ]);
  const infra = Infra.fromEnvironment();
  logger.info(infra.describe(), 'infrastructure');
  const transport = BusTransport.open(infra);
  const bus = await transport.connect('gateway');
  exitWhenBusIsLost(bus, 'gateway');
  const gateway = await createGateway({ bus, storage: openObjectStorage(infra), databaseUrl: infra.databaseUrl });
  await gateway.listen();
  const shutdown = async () => {
    await gateway.close();
    await bus.close();
    await transport.close();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, `the gateway could not start: ${(error as Error).message}`);
  process.exit(1);
});
