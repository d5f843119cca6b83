/**
 * `npm run bench:media`: how fast the gallery opens and searches at 100,000 images, and what storing an image costs.
 *
 * 1. Gallery: 100,000 images (BENCH_IMAGES) seeded with SQL, 60% public, prompts drawn from a 40-word vocabulary.
 *    Server time of `publicImages(first: 24)` (first page), of a prompt search that matches often and of one that
 *    matches rarely, each through GraphQL over HTTP, against the same page's SQL read straight from the database
 *    (the baseline). Figures are p50/p99 over BENCH_REQUESTS requests. Aim: under 20 ms p50 on PostgreSQL.
 * 2. Renditions: time to turn one provider picture into the stored original + WebP ladder + ThumbHash, for the
 *    demo renderer's 1024x1024 and 1792x1024 pictures, against decoding and re-encoding the PNG alone (baseline).
 *
 * Embedded mode (PGlite + in-process bus) always; PostgreSQL + NATS JetStream when DATABASE_URL and NATS_URL are
 * set (or BENCH_DISTRIBUTED=1).
 */
import { randomUUID } from 'node:crypto';
import { startEmbedded } from '@app/embedded';
import { type Bus, type InfraConfig, connectBus } from '@app/kit';
import { mediaRpc } from '@app/schema';
import { Client } from 'pg';
import sharp from 'sharp';
import { TestClient, registration } from '../gateway/test/http-client';
import { likePattern } from '../services/media/src/images/images.repository';
import { processImage } from '../services/media/src/images/renditions';
import { DemoRendererProvider } from '../services/media/src/providers/demo-renderer.provider';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const RENDITIONS = Number(process.env.BENCH_RENDITIONS ?? 8);
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';
const WORDS = [
  'neon',
  'forest',
  'castle',
  'ocean',
  'dragon',
  'city',
  'sunset',
  'portrait',
  'garden',
  'robot',
  'desert',
  'galaxy',
  'harbour',
  'mountain',
  'river',
  'lantern',
  'temple',
  'storm',
  'meadow',
  'glacier',
  'market',
  'library',
  'violin',
  'tiger',
  'orchid',
  'canyon',
  'festival',
  'train',
  'bridge',
  'island',
  'aurora',
  'cathedral',
  'fox',
  'whale',
  'carnival',
  'balloon',
  'volcano',
  'cottage',
  'comet',
  'reef',
];

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;
const row = (label: string, samples: number[], baseline?: number[]) =>
  `  ${label.padEnd(44)} p50 ${ms(percentile(samples, 50)).padStart(10)}  p99 ${ms(percentile(samples, 99)).padStart(10)}` +
  (baseline ? `  (${(percentile(samples, 50) / percentile(baseline, 50)).toFixed(1)}x the SQL alone)` : '');

async function time(run: () => Promise<unknown>, count = REQUESTS): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count + 20; i++) {
    const started = performance.now();
    await run();
    if (i >= 20) samples.push(performance.now() - started);
  }
  return samples;
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown>;

async function seed(query: Query): Promise<void> {
  const started = performance.now();
  await query(`SELECT setseed(0.42)`);
  const words = `ARRAY[${WORDS.map((word) => `'${word}'`).join(', ')}]`;
  for (let offset = 0; offset < IMAGES; offset += 20_000) {
    const count = Math.min(20_000, IMAGES - offset);
    await query(
      `INSERT INTO "media"."images" ("id", "user_id", "prompt", "model", "provider", "is_demo", "size", "quality", "style", "width", "height",
         "placeholder", "renditions", "byte_size", "is_public", "likes", "created_at")
       SELECT gen_random_uuid(), ('00000000-0000-4000-8000-' || lpad(((i % 1000))::text, 12, '0'))::uuid,
         initcap((${words})[1 + floor(random() * ${WORDS.length})::int] || ' ' || (${words})[1 + floor(random() * ${WORDS.length})::int]
           || ' at ' || (${words})[1 + floor(random() * ${WORDS.length})::int]) || ', study ' || i,
         'dall-e-3', 'openai-images', false, '1024x1024', 'standard', 'vivid', 1024, 1024, 'IXgBNw6LZ4axaIdQioiHeId4uPqYqo8J',
         '[{"width":256,"height":256,"format":"webp"},{"width":512,"height":512,"format":"webp"},{"width":1024,"height":1024,"format":"webp"}]',
         700000, random() < 0.6, floor(random() * random() * 200)::int, now() - i * interval '37 seconds'
       FROM generate_series($1::int, $2::int) AS i`,
      [offset + 1, offset + count],
    );
  }
  await query(`ANALYZE "media"."images"`);
  console.log(`seeded ${IMAGES.toLocaleString('en')} images in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

async function gallery(url: string, query: Query, bus: Bus | null): Promise<void> {
  const client = new TestClient(url);
  await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
  const viewer = ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
  const fields =
    'nodes { id imageUrl prompt model isPublic likes likedByMe createdAt settings { size quality style } width height placeholder srcSet user { firstName lastName } } pageInfo { hasNextPage endCursor }';
  const graphql = (search: string | null) => async () => {
    const response = await client.fetch('/graphql', {
      method: 'POST',
      json: { query: `query($search: String) { publicImages(first: 24, search: $search) { ${fields} } }`, variables: { search } },
    });
    const result = (await response.json()) as { data?: { publicImages: { nodes: unknown[] } }; errors?: unknown };
    if (!result.data) throw new Error(`query failed: ${JSON.stringify(result.errors)}`);
  };
  // The page's own SQL, as the media repository runs it, for the baseline.
  const direct = (search: string | null) => () =>
    query(
      `SELECT i.*, i."created_at"::text AS "cursor_at",
         EXISTS (SELECT 1 FROM "media"."image_likes" l WHERE l."image_id" = i."id" AND l."user_id" = $1) AS "liked_by_me"
       FROM "media"."images" i WHERE i."is_public" ${search ? `AND i."prompt" ILIKE $2` : ''}
       ORDER BY i."created_at" DESC, i."id" DESC LIMIT 25`,
      search ? [viewer, likePattern(search)] : [viewer],
    );
  const cases: [string, string | null][] = [
    ['first page (newest public)', null],
    ['search, common ("DRAGON")', 'DRAGON'],
    ['search, rare ("Fox At Comet, study 4242")', 'Fox At Comet, study 4242'],
  ];
  for (const [label, search] of cases) {
    const sql = await time(direct(search));
    const rpc = bus ? await time(() => bus.request(mediaRpc.listPublicImages, { userId: viewer, first: 24, search })) : null;
    const api = await time(graphql(search));
    console.log(`${label}`);
    console.log(row('baseline: the page SQL, direct', sql));
    if (rpc) console.log(row('media service call (NATS RPC)', rpc, sql));
    const aim = percentile(api, 50) < 20 ? 'PASS' : 'MISS';
    console.log(`${row('GraphQL publicImages(first: 24)', api, sql)}  aim < 20 ms p50: ${aim}`);
  }
}

async function renditions(): Promise<void> {
  const demo = new DemoRendererProvider(0);
  console.log(`\n## renditions (${RENDITIONS} pictures per size)`);
  for (const size of ['1024x1024', '1792x1024'] as const) {
    const { image } = await demo.generate({ prompt: `bench ${size}`, settings: { size, quality: 'standard', style: 'vivid' } });
    const baseline = await time(() => sharp(image).png({ compressionLevel: 6 }).toBuffer(), RENDITIONS);
    const full = await time(() => processImage(image), RENDITIONS);
    console.log(size);
    console.log(row('baseline: decode + re-encode the PNG', baseline));
    console.log(
      `  ${'original + WebP 256/512/1024 + ThumbHash'.padEnd(44)} p50 ${ms(percentile(full, 50)).padStart(10)}  p99 ${ms(percentile(full, 99)).padStart(10)}  (${(percentile(full, 50) / percentile(baseline, 50)).toFixed(1)}x the re-encode alone)`,
    );
  }
}

async function runMode(name: string, infra: InfraConfig): Promise<void> {
  console.log(`\n## ${name}`);
  let bus: Bus | null = null;
  const platform = await startEmbedded({ infra, gateway: { port: 0 }, env: { SIGNUPS_PER_IP_PER_HOUR: '100000', LOG_LEVEL: 'warn' } });
  try {
    const media = platform.services.find((service) => service.name === 'media')!;
    const query: Query = (sql, params) => media.db.query(sql, params);
    await seed(query);
    // The in-process bus is private to the platform; over NATS the bench can call the media service itself.
    if (infra.natsUrl) bus = await connectBus(platform.infra, 'bench');
    await gallery(platform.url, query, bus);
  } finally {
    await bus?.close();
    await platform.stop();
  }
}

async function main(): Promise<void> {
  process.env.LOG_LEVEL ??= 'warn';
  await runMode('embedded (PGlite + in-process bus)', { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null });
  const distributed =
    process.env.BENCH_DISTRIBUTED === '1' || (process.env.BENCH_DISTRIBUTED !== '0' && process.env.DATABASE_URL && process.env.NATS_URL);
  if (distributed) {
    const base = new URL(process.env.DATABASE_URL || DEFAULT_DATABASE_URL);
    const name = `bench_media_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const admin = new Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    try {
      const url = new URL(base.toString());
      url.pathname = `/${name}`;
      await runMode('distributed components (PostgreSQL + NATS JetStream)', {
        dataDir: `memory://${randomUUID()}`,
        databaseUrl: url.toString(),
        natsUrl: process.env.NATS_URL || DEFAULT_NATS_URL,
      });
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  } else {
    console.log('\n(distributed mode skipped: set DATABASE_URL and NATS_URL, or BENCH_DISTRIBUTED=1)');
  }
  await renditions();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
