import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventDef, EventEnvelope } from '@app/schema';
import 'reflect-metadata';
import { DataSource, type EntityManager, type MixedList, type QueryRunner } from 'typeorm';
import type { z } from 'zod';
import { buildEnvelope } from '../bus/bus';
import type { Infra } from '../config';
import { logger } from '../logger';
import { createPgliteDriver } from './pglite-pool';

/**
 * How long a query waits for a connection, new or from the full pool, before failing as unavailable (503):
 * without it, a server that stopped answering holds every request until the bus gives up (504).
 */
export const DATABASE_CONNECT_TIMEOUT_MS = 5_000;

export interface DatabaseOptions {
  /** The PostgreSQL schema the service owns; its tables live nowhere else. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function>;
}

const sqlSession: unique symbol = Symbol('SqlSession');

/**
 * Where a repository runs its SQL: the transaction it was made in, or the pool (each statement committing on
 * its own). Only a unit of work hands one out: the brand keeps a `Database` from passing for one.
 */
export interface SqlSession {
  readonly [sqlSession]: true;
  /** Rows of a SELECT, or of an INSERT/UPDATE/DELETE … RETURNING. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** How many rows an INSERT/UPDATE/DELETE changed. */
  execute(sql: string, params?: unknown[]): Promise<number>;
}

/** A transaction as its work sees it: SQL, events that commit with it, and work for after the commit. */
export interface Transaction extends SqlSession {
  /** Records a domain event in the outbox; it commits with the transaction and is relayed after the commit. */
  emit<E extends EventDef>(event: E, data: z.input<E['data']>, actorId: string | null): Promise<EventEnvelope>;
  /** Runs once the outermost transaction has committed (never on rollback). */
  afterCommit(callback: () => void): void;
}

interface OpenTransaction {
  database: Database;
  runner: QueryRunner;
  ended: boolean;
  emitted: boolean;
  afterCommit: (() => void)[];
}

/** The transaction running in the current async context, so no call made inside it can run outside it. */
const currentTransaction = new AsyncLocalStorage<OpenTransaction>();

/**
 * A service's database: real PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite under
 * DATA_DIR/pg. Migrations run on open in both modes. There is no connection to borrow: SQL runs through
 * `run`, `transaction` or `query`, and any of them called while a transaction is open in the same async
 * context joins that transaction (in both engines: no deadlock on PGlite's single connection, no escape
 * on PostgreSQL's pool).
 */
export class Database {
  private eventsCommitted: () => void = () => undefined;

  private constructor(
    private readonly dataSource: DataSource,
    readonly schema: string,
  ) {}

  static async open(infra: Infra, options: DatabaseOptions): Promise<Database> {
    const common = {
      type: 'postgres' as const,
      schema: options.schema,
      entities: options.entities,
      migrations: options.migrations,
      migrationsTableName: `${options.schema}_migrations`,
      migrationsTransactionMode: 'each' as const,
      // The same options on both engines keep generated migrations identical (PGlite has no uuid-ossp).
      installExtensions: false,
      uuidExtension: 'pgcrypto' as const,
      logging: false,
    };
    const dataSource = infra.databaseUrl
      ? new DataSource({
          ...common,
          url: infra.databaseUrl,
          poolSize: 10,
          applicationName: options.schema,
          connectTimeoutMS: DATABASE_CONNECT_TIMEOUT_MS,
        })
      : new DataSource({ ...common, driver: createPgliteDriver(infra.embeddedDatabase()), poolSize: 1 });
    await dataSource.initialize();
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    await dataSource.runMigrations();
    return new Database(dataSource, options.schema);
  }

  /** Runs `work` in one transaction; a transaction already open in this async context is joined instead. */
  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const open = this.openTransaction();
    if (open) return work(this.transactionView(open));
    const started: { open?: OpenTransaction } = {};
    let result: T;
    try {
      result = await this.dataSource.transaction((manager: EntityManager) => {
        const open: OpenTransaction = { database: this, runner: manager.queryRunner!, ended: false, emitted: false, afterCommit: [] };
        started.open = open;
        return currentTransaction.run(open, () => work(this.transactionView(open)));
      });
    } finally {
      if (started.open) started.open.ended = true;
    }
    if (started.open?.emitted) this.eventsCommitted();
    for (const callback of started.open?.afterCommit ?? []) {
      try {
        callback();
      } catch (error) {
        logger.error({ err: error, schema: this.schema }, 'work after a commit failed');
      }
    }
    return result;
  }

  /** Runs `work` on the pool, each statement committing on its own, or inside the transaction open in this async context. */
  run<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
    const open = this.openTransaction();
    return work(open ? this.transactionView(open) : this.poolSession);
  }

  /** One statement on the pool (or in the open transaction): for tools, tests and relays. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> {
    return this.poolSession.query<T>(sql, params);
  }

  execute(sql: string, params?: unknown[]): Promise<number> {
    return this.poolSession.execute(sql, params);
  }

  /** The outbox relay asks to hear of every commit that recorded events, to relay them at once. */
  onEventsCommitted(relay: () => void): void {
    this.eventsCommitted = relay;
  }

  async isReady(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }

  private openTransaction(): OpenTransaction | null {
    const open = currentTransaction.getStore();
    // A transaction of another database, or one that has ended (work left running after it), is not joined.
    return open && open.database === this && !open.ended ? open : null;
  }

  private readonly poolSession: SqlSession = {
    [sqlSession]: true,
    query: async <T>(sql: string, params?: unknown[]) => (await this.runStatement(sql, params)).records as T[],
    execute: async (sql: string, params?: unknown[]) => (await this.runStatement(sql, params)).affected ?? 0,
  };

  private async runStatement(sql: string, params?: unknown[]) {
    const open = this.openTransaction();
    if (open) return open.runner.query(sql, params, true);
    const runner = this.dataSource.createQueryRunner();
    try {
      return await runner.query(sql, params, true);
    } finally {
      await runner.release();
    }
  }

  private transactionView(open: OpenTransaction): Transaction {
    const run = (sql: string, params?: unknown[]) => {
      if (open.ended) throw new Error('This transaction has ended; start a new one instead of keeping its session');
      return open.runner.query(sql, params, true);
    };
    return {
      [sqlSession]: true,
      query: async <T>(sql: string, params?: unknown[]) => (await run(sql, params)).records as T[],
      execute: async (sql: string, params?: unknown[]) => (await run(sql, params)).affected ?? 0,
      emit: async (event, data, actorId) => {
        const envelope = buildEnvelope(event, data, actorId);
        await run(`INSERT INTO "${this.schema}"."outbox" ("id", "envelope") VALUES ($1, $2)`, [envelope.id, JSON.stringify(envelope)]);
        open.emitted = true;
        return envelope;
      },
      afterCommit: (callback) => {
        open.afterCommit.push(callback);
      },
    };
  }
}

/**
 * A service's repositories bound to one unit of work: `run` hands them a pool session (each statement
 * commits on its own), `transaction` the transaction they run in. There is no other way to get a session,
 * so a repository cannot run outside its unit.
 */
export class UnitOfWork<R> {
  constructor(
    readonly db: Database,
    private readonly repositories: (session: SqlSession) => R,
  ) {}

  run<T>(work: (repositories: R) => Promise<T>): Promise<T> {
    return this.db.run((session) => work(this.repositories(session)));
  }

  transaction<T>(work: (repositories: R, tx: Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(this.repositories(tx), tx));
  }
}
