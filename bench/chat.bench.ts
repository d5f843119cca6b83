/**
 * `npm run bench:chat`: what the platform adds to a streamed reply, and how fast a long conversation opens.
 *
 * 1. Chunk latency: a local OpenAI-compatible server (services/chat/test/fake-openai-server.ts) streams a reply;
 *    each chunk's send time is recorded. Baseline: the chat service's OpenAI adapter reading that server directly.
 *    Platform: the same chunks as a GraphQL subscriber receives them (adapter → chat service → bus → gateway →
 *    graphql-ws). Figures are p50/p99 of (received − sent) in ms, and the platform's added p50.
 * 2. Long conversation: a 5,000-message conversation (seeded with SQL, one branch); server time of the first page
 *    (`messages(last: 30)`) through GraphQL and of the branch walk it runs, against the newest 30 rows by `seq` read
 *    straight from the database (what a conversation without branches would need).
 *
 * Both run in the embedded mode (PGlite + in-process bus) and, when DATABASE_URL and NATS_URL are set (or
 * BENCH_DISTRIBUTED=1), on PostgreSQL + NATS JetStream. The platform runs in this process so one clock times
 * send and receipt. Settings: BENCH_CHUNKS (300), BENCH_CHUNK_DELAY_MS (5), BENCH_PAGE_REQUESTS (200).
 */
import { randomUUID } from 'node:crypto';
import { startEmbedded } from '@app/embedded';
import type { InfraConfig, SqlSession } from '@app/kit';
import { Client } from 'pg';
import { ConversationsRepository } from '../services/chat/src/conversations/conversations.repository';
import { OpenAiChatProvider } from '../services/chat/src/providers/openai-chat.provider';
import { type FakeOpenAi, startFakeOpenAi, wallClock } from '../services/chat/test/fake-openai-server';
import { TestClient, registration } from '../gateway/test/http-client';

const CHUNKS = Number(process.env.BENCH_CHUNKS ?? 300);
const CHUNK_DELAY_MS = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 5);
const PAGE_REQUESTS = Number(process.env.BENCH_PAGE_REQUESTS ?? 200);
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

function scenario(fake: FakeOpenAi): void {
  fake.setScenario({ kind: 'stream', chunks: Array.from({ length: CHUNKS }, (_, i) => `tok${i} `), delayMs: CHUNK_DELAY_MS });
}

/** The adapter reading the fake server directly: the provider's own latency, without the platform. */
async function baselineChunkLatency(fake: FakeOpenAi): Promise<number[]> {
  const provider = new OpenAiChatProvider({ baseUrl: fake.url, model: 'fake-model' });
  const latencies: number[] = [];
  const stream = provider.stream({ messages: [{ role: 'user', content: 'go' }] });
  for (let step = await stream.next(); !step.done; step = await stream.next()) {
    if (step.value.sentAt !== undefined) latencies.push(wallClock() - step.value.sentAt);
  }
  return latencies;
}

async function platformChunkLatency(url: string, fake: FakeOpenAi): Promise<number[]> {
  const client = new TestClient(url);
  await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
  const conversation = (await (await client.fetch('/api/conversations', { method: 'POST', json: { title: 'bench' } })).json()) as {
    id: string;
  };
  const ws = client.subscriptions();
  const received: { offset: number; at: number }[] = [];
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  ws.subscribe<{ conversationUpdates: { type: string; offset: number | null; typing: boolean | null } }>(
    { query: `subscription { conversationUpdates(conversationId: "${conversation.id}") { type offset typing } }` },
    {
      next: ({ data }) => {
        const update = data!.conversationUpdates;
        if (update.type === 'DELTA') received.push({ offset: update.offset!, at: wallClock() });
        if (update.type === 'TYPING' && update.typing === false) finished();
      },
      error: () => finished(),
      complete: () => finished(),
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  fake.clearRequests();
  await client.graphql('mutation($id: ID!) { sendMessage(conversationId: $id, content: "go") { userMessage { id } } }', {
    id: conversation.id,
  });
  await done;
  await ws.dispose();
  const sent = fake.lastRequest()!.sent;
  // Each provider chunk becomes one delta, in order; match them by position.
  return received.map((delta, i) => delta.at - sent[i]!.sentAt);
}

/** Seeds a 5,000-message conversation and times its first page through GraphQL and straight from the database. */
async function longConversation(url: string, query: (sql: string, params: unknown[]) => Promise<unknown>) {
  const client = new TestClient(url);
  await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
  const owner = ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
  const id = ((await (await client.fetch('/api/conversations', { method: 'POST', json: { title: 'long' } })).json()) as { id: string }).id;
  // One branch: each message follows the one before it, and the conversation shows it to its end.
  await query(
    `WITH seeded AS (SELECT i, gen_random_uuid() AS id FROM generate_series(1, 5000) AS i)
     INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status", "parent_id")
     SELECT s.id, $1, $2, CASE WHEN s.i % 2 = 0 THEN 'user' ELSE 'assistant' END, repeat('words ', 40) || s.i, 'complete',
       lag(s.id) OVER (ORDER BY s.i)
     FROM seeded s ORDER BY s.i`,
    [id, owner],
  );
  await query(
    `UPDATE "chat"."conversations" SET "active_leaf_id" = (SELECT "id" FROM "chat"."messages" WHERE "conversation_id" = $1 ORDER BY "seq" DESC LIMIT 1)
     WHERE "id" = $1`,
    [id],
  );
  const body = {
    query: `query($id: ID!) { messages(conversationId: $id, last: 30) { nodes { id role content createdAt } } }`,
    variables: { id },
  };
  const time = async (run: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < PAGE_REQUESTS + 20; i++) {
      const started = performance.now();
      await run();
      if (i >= 20) samples.push(performance.now() - started);
    }
    return samples;
  };
  const graphql = await time(async () => {
    const response = await client.fetch('/graphql', { method: 'POST', json: body });
    const result = (await response.json()) as { data?: { messages: { nodes: unknown[] } } };
    if (result.data?.messages.nodes.length !== 30) throw new Error('unexpected page');
  });
  const direct = await time(() =>
    query(`SELECT "id", "role", "content", "created_at" FROM "chat"."messages" WHERE "conversation_id" = $1 ORDER BY "seq" DESC LIMIT 31`, [
      id,
    ]),
  );
  // The branch shown, walked from its end through the parent index (what the messages query reads since decision 039).
  const branch = await time(() =>
    new ConversationsRepository({ query, execute: async () => 0 } as unknown as SqlSession).page(id, 30, null),
  );
  return { graphql, direct, branch };
}

async function runMode(name: string, infra: InfraConfig, fake: FakeOpenAi): Promise<void> {
  const platform = await startEmbedded({
    infra,
    gateway: { port: 0 },
    env: { SIGNUPS_PER_IP_PER_HOUR: '100000', CHAT_API_BASE_URL: fake.url, CHAT_MODEL: 'fake-model', LOG_LEVEL: 'warn' },
  });
  try {
    scenario(fake);
    const baseline = await baselineChunkLatency(fake);
    const platformLatency = await platformChunkLatency(platform.url, fake);
    const chat = platform.services.find((service) => service.name === 'chat')!;
    const page = await longConversation(platform.url, (sql, params) => chat.db.query(sql, params));
    const [b50, b99, p50, p99] = [
      percentile(baseline, 50),
      percentile(baseline, 99),
      percentile(platformLatency, 50),
      percentile(platformLatency, 99),
    ];
    console.log(`\n## ${name}`);
    console.log(`chunk latency (${platformLatency.length} chunks, provider send → receipt)`);
    console.log(`  baseline: adapter reads the provider      p50 ${ms(b50)}  p99 ${ms(b99)}`);
    console.log(`  platform: GraphQL subscriber receives it  p50 ${ms(p50)}  p99 ${ms(p99)}`);
    console.log(
      `  added by the platform                     p50 ${ms(p50 - b50)}  p99 ${ms(p99 - b99)}  (aim: < 5 ms p50) ${p50 - b50 < 5 ? 'PASS' : 'MISS'}`,
    );
    const [g50, g99, d50, d99] = [
      percentile(page.graphql, 50),
      percentile(page.graphql, 99),
      percentile(page.direct, 50),
      percentile(page.direct, 99),
    ];
    const [w50, w99] = [percentile(page.branch, 50), percentile(page.branch, 99)];
    console.log(`first page of a 5,000-message conversation (${PAGE_REQUESTS} requests)`);
    console.log(`  baseline: newest 30 by seq, direct SQL    p50 ${ms(d50)}  p99 ${ms(d99)}`);
    console.log(`  the branch walk (parent links), direct    p50 ${ms(w50)}  p99 ${ms(w99)}  (${(w50 / d50).toFixed(1)}x the baseline)`);
    console.log(`  GraphQL messages(last: 30)                p50 ${ms(g50)}  p99 ${ms(g99)}  (${(g50 / d50).toFixed(1)}x the baseline)`);
  } finally {
    await platform.stop();
  }
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= 'warn';
  const fake = await startFakeOpenAi();
  try {
    await runMode('embedded (PGlite + in-process bus)', { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null }, fake);
    const distributed =
      process.env.BENCH_DISTRIBUTED === '1' || (process.env.BENCH_DISTRIBUTED !== '0' && process.env.DATABASE_URL && process.env.NATS_URL);
    if (distributed) {
      const base = new URL(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
      const name = `bench_chat_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const admin = new Client({ connectionString: base.toString() });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      try {
        const url = new URL(base.toString());
        url.pathname = `/${name}`;
        await runMode(
          'distributed components (PostgreSQL + NATS JetStream)',
          { dataDir: `memory://${randomUUID()}`, databaseUrl: url.toString(), natsUrl: process.env.NATS_URL || DEFAULT_NATS_URL },
          fake,
        );
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await admin.end();
      }
    } else {
      console.log('\n(distributed mode skipped: set DATABASE_URL and NATS_URL, or BENCH_DISTRIBUTED=1)');
    }
  } finally {
    await fake.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
