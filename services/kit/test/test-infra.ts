import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Infra } from '../src/config';

/**
 * The infrastructure integration tests run against: always the embedded defaults, and real
 * PostgreSQL + NATS JetStream when DATABASE_URL / NATS_URL are set (CI sets them and REQUIRE_INTEGRATION,
 * so there a missing server fails the run instead of skipping).
 */
export interface TestTarget {
  name: string;
  /** A fresh, isolated Infra (its own database); call `cleanup` when done. */
  create(): Promise<{ infra: Infra; cleanup(): Promise<void> }>;
}

const required = process.env.REQUIRE_INTEGRATION === '1';

export function hasPostgres(): boolean {
  if (!process.env.DATABASE_URL && required) throw new Error('REQUIRE_INTEGRATION=1 but DATABASE_URL is not set');
  return Boolean(process.env.DATABASE_URL);
}

export function hasNats(): boolean {
  if (!process.env.NATS_URL && required) throw new Error('REQUIRE_INTEGRATION=1 but NATS_URL is not set');
  return Boolean(process.env.NATS_URL);
}

/** Creates an empty database on the DATABASE_URL server so test files never see each other's rows. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const admin = new Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new Client({ connectionString: base.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

export const embeddedTarget: TestTarget = {
  name: 'embedded (PGlite + in-process bus)',
  create: async () => ({
    infra: Infra.from({ dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null }),
    cleanup: async () => undefined,
  }),
};

export const distributedTarget: TestTarget = {
  name: 'distributed (PostgreSQL + NATS JetStream)',
  create: async () => {
    const database = await createTestDatabase();
    return {
      infra: Infra.from({ dataDir: `memory://${randomUUID()}`, databaseUrl: database.url, natsUrl: process.env.NATS_URL! }),
      cleanup: () => database.drop(),
    };
  },
};

/** Every target available here; `describe.each(testTargets())` runs a suite once per target. */
export function testTargets(): TestTarget[] {
  const targets = [embeddedTarget];
  const postgres = hasPostgres();
  const nats = hasNats();
  if (postgres && nats) targets.push(distributedTarget);
  else console.warn('Skipping the distributed target: set DATABASE_URL and NATS_URL to run it.');
  return targets;
}

/** Polls until `check` passes or the time runs out (for eventually-consistent outcomes such as events). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Whether a promise has settled yet, readable at any moment (to show that something finished while it did not). */
export function track(promise: Promise<unknown>): { settled: boolean } {
  const state = { settled: false };
  promise.then(
    () => (state.settled = true),
    () => (state.settled = true),
  );
  return state;
}
