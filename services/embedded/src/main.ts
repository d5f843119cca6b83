// First: tracing must patch http, express and pg before anything loads them.
import '@app/kit/tracing-entry/platform';
import { exitWhenBusIsLost, logger, stopTracing } from '@app/kit';
import { startEmbedded } from './index';

async function main(): Promise<void> {
  // A first run on a creator's own computer looks for their AI servers; a production deployment says what it uses.
  const platform = await startEmbedded({ probeLocalServers: process.env['NODE_ENV'] !== 'production' });
  exitWhenBusIsLost(platform.bus, 'embedded');
  console.log(`\n  Ready: ${platform.url}\n`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await platform.stop();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}

main().catch((error: unknown) => {
  logger.fatal({ err: error }, `failed to start: ${(error as Error).message}`);
  process.exit(1);
});
