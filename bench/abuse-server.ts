/**
 * A child process of bench/abuse.bench.ts: the whole product on its embedded defaults (in-memory PGlite,
 * in-process bus, demo providers), so the attacks and the probes in the bench process do not share its CPU.
 * Reports `{ type: 'ready', gatewayUrl }` over IPC and stops on SIGTERM or when the bench goes.
 */
import { randomUUID } from 'node:crypto';
import { startEmbedded } from '@app/embedded';

async function main(): Promise<void> {
  const platform = await startEmbedded({
    infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
    gateway: { port: 0 },
    // The bench signs up its probe member from loopback; every other setting is the product's default.
    env: { ...process.env, SIGNUPS_PER_IP_PER_HOUR: '1000' },
  });
  const stop = async () => {
    await platform.stop();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.send?.({ type: 'ready', gatewayUrl: platform.url });
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
