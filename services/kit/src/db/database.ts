import path from 'node:path';
import 'reflect-metadata';
import { DataSource, type EntityManager, type MixedList } from 'typeorm';
import type { InfraConfig } from '../config';
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

/**
 * A service's database: real PostgreSQL when DATABASE_URL is set, otherwise the embedded PGlite under
 * DATA_DIR/pg. Migrations run on open in both modes.
 */
export class Database {
  private constructor(readonly dataSource: DataSource) {}

  static async open(infra: InfraConfig, options: DatabaseOptions): Promise<Database> {
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
      : new DataSource({ ...common, driver: createPgliteDriver(embeddedDatabaseDir(infra)), poolSize: 1 });
    await dataSource.initialize();
    await dataSource.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    await dataSource.runMigrations();
    return new Database(dataSource);
  }

  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** Runs `work` in one transaction; use only the manager it is given inside (the embedded engine has one connection). */
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
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
}

export function embeddedDatabaseDir(infra: InfraConfig): string {
  return infra.dataDir.startsWith('memory://') ? infra.dataDir : path.join(infra.dataDir, 'pg');
}
