import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { type Extension, PGlite } from '@electric-sql/pglite';
import { Mutex } from '../mutex';
import { traceEmbeddedQuery } from '../tracing/spans';

// The contrib typings are ESM-only while the package ships a CommonJS build of each extension.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { pg_trgm } = require('@electric-sql/pglite/contrib/pg_trgm') as { pg_trgm: Extension };

interface PgLikeResult {
  rows: unknown[];
  rowCount: number;
  command: string;
}

/** One PGlite shared by the services of a process (held by its Infra), closed when the last of them closes. */
export interface SharedPglite {
  db: Promise<PGlite>;
  /** PGlite has one connection: overlapping transactions would corrupt each other, so every lease is exclusive. */
  lock: Mutex;
  users: number;
  closed: boolean;
}

/** `location` is a directory or `memory://<name>`. */
export function openSharedPglite(location: string): SharedPglite {
  if (!location.startsWith('memory://')) fs.mkdirSync(location, { recursive: true });
  // pg_trgm backs the indexed substring search of the media gallery, as on PostgreSQL.
  return { db: PGlite.create(location, { extensions: { pg_trgm } }), lock: new Mutex(), users: 0, closed: false };
}

async function releaseInstance(shared: SharedPglite): Promise<void> {
  shared.users--;
  if (shared.users > 0 || shared.closed) return;
  shared.closed = true;
  await (await shared.db).close();
}

async function runQuery(db: PGlite, sql: string, params?: unknown[]): Promise<PgLikeResult> {
  const command = sql.trimStart().split(/\s/, 1)[0]!.toUpperCase();
  return traceEmbeddedQuery(sql, command, () => execute(db, sql, command, params));
}

async function execute(db: PGlite, sql: string, command: string, params?: unknown[]): Promise<PgLikeResult> {
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
export function createPgliteDriver(shared: SharedPglite): { Pool: new () => EventEmitter } {
  class Client extends EventEmitter {
    constructor(private readonly db: PGlite) {
      super();
    }
    query(sql: string, params?: unknown[]): Promise<PgLikeResult> {
      return runQuery(this.db, sql, params);
    }
  }

  class Pool extends EventEmitter {
    private readonly shared = shared;
    private ended = false;

    constructor() {
      super();
      shared.users++;
    }

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
      releaseInstance(this.shared).then(
        () => callback?.(),
        (error: Error) => callback?.(error),
      );
    }
  }

  return { Pool };
}
