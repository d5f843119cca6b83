/**
 * A child process of bench/me.bench.ts. It serves the baseline: a bare `node:http` route that answers the `me`
 * query with the same database read the identity service does (session joined to its member, by token hash),
 * with no gateway, GraphQL or bus in between. Roles (BENCH_ROLE):
 * - `embedded`: also starts the whole embedded platform (in-memory PGlite) and reads the identity service's own
 *   database, since PGlite can only be opened by one process;
 * - `postgres`: reads BENCH_DATABASE_URL (the database the distributed identity process uses) through a `pg` Pool
 *   of the identity service's size.
 * It reports `{ type: 'ready', baselineUrl, gatewayUrl? }` over IPC and stops on SIGTERM or when the bench goes.
 */
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EmbeddedPlatform } from '@app/embedded';
import { Pool } from 'pg';

export interface ReadyMessage {
  type: 'ready';
  baselineUrl: string;
  gatewayUrl?: string;
}

interface SessionRow {
  session_id: string;
  last_seen_at: Date | string;
  expires_at: Date | string;
  id: string;
  email: string;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  created_at: Date | string;
  token_balance: number;
}

type Query = (sql: string, params: unknown[]) => Promise<SessionRow[]>;

/** The identity service's session lookup, column for column. */
const SESSION_SQL = `SELECT s."id" AS "session_id", s."last_seen_at", s."expires_at",
  u."id", u."email", u."password_hash", u."first_name", u."last_name", u."profile_image_url", u."created_at", u."token_balance"
  FROM "identity"."sessions" s JOIN "identity"."users" u ON u."id" = s."user_id" WHERE s."token_hash" = $1`;

function readSessionCookie(header: string | undefined): string | null {
  for (const part of header?.split(';') ?? []) {
    const index = part.indexOf('=');
    if (index > 0 && part.slice(0, index).trim() === 'sid') return decodeURIComponent(part.slice(index + 1).trim());
  }
  return null;
}

/** The bytes the gateway sends for `{ me { id email firstName lastName profileImageUrl createdAt tokens } }` (Apollo ends with a newline). */
function meBody(row: SessionRow | undefined): string {
  const live = row && new Date(row.expires_at).getTime() > Date.now();
  const me = live
    ? {
        id: row.id,
        email: row.email,
        firstName: row.first_name,
        lastName: row.last_name,
        profileImageUrl: row.profile_image_url,
        createdAt: new Date(row.created_at).toISOString(),
        tokens: row.token_balance,
      }
    : null;
  return `${JSON.stringify({ data: { me } })}\n`;
}

function startBaseline(query: Query): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const token = readSessionCookie(req.headers.cookie);
      const rows = token ? query(SESSION_SQL, [createHash('sha256').update(token).digest('hex')]) : Promise.resolve([]);
      rows.then(
        (found) => {
          const body = meBody(found[0]);
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        },
        (error: unknown) => {
          console.error('baseline query failed:', error);
          res.writeHead(500).end();
        },
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function main(): Promise<void> {
  const role = process.env.BENCH_ROLE;
  let platform: EmbeddedPlatform | null = null;
  let pool: Pool | null = null;
  let query: Query;
  if (role === 'embedded') {
    // Loaded here, not at the top: the `postgres` role must not pull in the platform.
    const { startEmbedded } = await import('@app/embedded');
    platform = await startEmbedded({
      infra: { dataDir: `memory://me-bench-${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0, host: '127.0.0.1' },
    });
    const identity = platform.services.find((service) => service.name === 'identity');
    if (!identity) throw new Error('the embedded platform runs no identity service');
    query = (sql, params) => identity.db.query<SessionRow>(sql, params);
  } else if (role === 'postgres') {
    const connectionString = process.env.BENCH_DATABASE_URL;
    if (!connectionString) throw new Error('BENCH_DATABASE_URL is required for the postgres role');
    const openPool = new Pool({ connectionString, max: 10, application_name: 'me-bench-baseline' });
    pool = openPool;
    query = async (sql, params) => (await openPool.query<SessionRow>(sql, params)).rows;
  } else {
    throw new Error(`BENCH_ROLE must be "embedded" or "postgres", got "${role}"`);
  }
  const baseline = await startBaseline(query);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    baseline.closeAllConnections();
    await new Promise<void>((resolve) => baseline.close(() => resolve()));
    await platform?.stop();
    await pool?.end();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());

  const ready: ReadyMessage = { type: 'ready', baselineUrl: urlOf(baseline), gatewayUrl: platform?.url };
  process.send?.(ready);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
