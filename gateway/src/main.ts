import { BusTransport, exitWhenBusIsLost, logger, readInfraConfig } from '@app/kit';
import { createGateway } from './gateway';

/** The gateway as its own process (distributed mode): it holds no data, only a bus connection as the gateway principal. */
async function main(): Promise<void> {
  const transport = BusTransport.open(readInfraConfig());
  const bus = await transport.connect('gateway');
  exitWhenBusIsLost(bus, 'gateway');
  const gateway = await createGateway({ bus });
  await gateway.listen();
  const shutdown = async () => {
    await gateway.close();
    await bus.close();
    await transport.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, `the gateway could not start: ${(error as Error).message}`);
  process.exit(1);
});
