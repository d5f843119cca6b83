import { connectBus, readInfraConfig } from '@app/kit';
import { createGateway } from './gateway';

/** The gateway as its own process (distributed mode): it holds no data, only a bus connection. */
async function main(): Promise<void> {
  const bus = await connectBus(readInfraConfig(), 'gateway');
  const gateway = await createGateway({ bus });
  await gateway.listen();
  const shutdown = async () => {
    await gateway.close();
    await bus.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

void main();
