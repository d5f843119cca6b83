import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { type Extension, PGlite } from '@electric-sql/pglite';
import { Mutex } from '../mutex';

// The contrib typings are ESM-only while the package ships a CommonJS build of each extension.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

interface PgLikeResult {
  rows: unknown[];
  rowCount: number;
  command: string;
}

interface SharedPglite {
  db: Promise<PGlite>;
  /** PGlite has one connection: overlapping transactions would corrupt each other, so every lease is exclusive. */
  lock: Mutex;
  users: number;
}

const instances = new Map<string, SharedPglite>();

/** One PGlite per data directory per process (a second process or instance on it loses writes). */
function acquireInstance(dataDir: string): SharedPglite {
  let shared = instances.get(dataDir);
  if (!shared) {
    if (!dataDir.startsWith('memory://')) fs.mkdirSync(dataDir, { recursive: true });
    // pg_trgm backs the indexed substring search of the media gallery, as on PostgreSQL.
    shared = { db: PGlite.create(dataDir, { extensions: { pg_trgm } }), lock: new Mutex(), users: 0 };
    instances.set(dataDir, shared);
  }
  shared.users++;
  return shared;
}

async function releaseInstance(dataDir: string): Promise<void> {
  const shared = instances.get(dataDir);
  if (!shared) return;
  shared.users--;
  if (shared.users > 0) return;
  instances.delete(dataDir);
  await (await shared.db).close();
}

async function runQuery(db: PGlite, sql: string, params?: unknown[]): Promise<PgLikeResult> {
  const command = sql.trimStart().split(/\s/, 1)[0]!.toUpperCase();
  if (params && params.length > 0) {
    const result = await db.query(sql, params);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length, command };
  }
  // Parameterless strings may hold several statements (migrations); pg returns the last result.
  const results = await db.exec(sql);
  const last = results[results.length - 1];
  return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0, command };
}

/**
 * A `pg`-compatible driver module for TypeORM over a shared in-process PGlite. Each connection lease
 * holds the instance's lock until released, which serialises transactions.
 */
export function createPgliteDriver(dataDir: string): { Pool: new () => EventEmitter } {
  class Client extends EventEmitter {
    constructor(private readonly db: PGlite) {
      super();
    }
    query(sql: string, params?: unknown[]): Promise<PgLikeResult> {
      return runQuery(this.db, sql, params);
    }
  }

  class Pool extends EventEmitter {
    private readonly shared = acquireInstance(dataDir);
    private ended = false;

    connect(callback: (error: Error | null, client: Client | null, release: (error?: Error) => void) => void): void {
      void this.shared.lock.acquire().then(async (release) => {
        try {
          callback(null, new Client(await this.shared.db), () => release());
        } catch (error) {
          release();
          callback(error as Error, null, () => undefined);
        }
      });
    }

    query(sql: string, params?: unknown[]): Promise<PgLikeResult> {
      return this.shared.lock.run(async () => runQuery(await this.shared.db, sql, params));
    }

    end(callback?: (error?: Error) => void): void {
      if (this.ended) return callback?.();
      this.ended = true;
      releaseInstance(dataDir).then(
        () => callback?.(),
        (error: Error) => callback?.(error),
      );
    }
  }

  return { Pool };
}
