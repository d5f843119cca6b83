import type { EventEnvelope } from '@app/schema';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import type { Bus } from '../bus';
import { DEFAULT_OUTBOX_RETENTION_HOURS, outboxEnvironment } from '../env/kit.environment';
import { logger } from '../logger';
import type { Database } from './database';

const RELAY_INTERVAL_MS = 2_000;
const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 5_000;

export interface OutboxOptions {
  /** Relayed rows older than this are deleted: the event stream holds the events, the outbox only bridges the commit. */
  retentionMs?: number;
  /** How often rows a crash left unrelayed are looked for (commits relay their own at once). */
  relayIntervalMs?: number;
}

/** OUTBOX_RETENTION_HOURS (24): how long relayed outbox rows are kept, for inspection, before they are deleted. */
export const readOutboxOptions = (env: NodeJS.ProcessEnv): OutboxOptions => ({
  retentionMs: outboxEnvironment.parse(env).OUTBOX_RETENTION_HOURS * 3_600_000,
});

/**
 * Transactional outbox relay: `Transaction.emit` writes events in the same transaction as the state they
 * describe; this relays them to the bus after each commit that wrote any (and every few seconds, for
 * what a crash left), so a crash between the two never loses an event. The kit runs one per service.
 */
export class Outbox {
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly retentionMs: number;
  private readonly relayIntervalMs: number;

  private readonly schema: string;

  constructor(
    private readonly db: Database,
    private readonly bus: Bus,
    options: OutboxOptions = {},
  ) {
    this.schema = db.schema;
    this.retentionMs = options.retentionMs ?? DEFAULT_OUTBOX_RETENTION_HOURS * 3_600_000;
    this.relayIntervalMs = options.relayIntervalMs ?? RELAY_INTERVAL_MS;
  }

  /** Publishes everything not yet relayed, oldest first. */
  flush(): Promise<void> {
    this.flushing ??= this.relay().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  start(): { unsubscribe(): Promise<void> } {
    this.db.onEventsCommitted(() => void this.flush());
    this.timer = setInterval(() => void this.flush(), this.relayIntervalMs);
    this.timer.unref();
    this.pruneTimer = setInterval(() => void this.prune().catch(this.pruneFailed), PRUNE_INTERVAL_MS);
    this.pruneTimer.unref();
    void this.flush();
    void this.prune().catch(this.pruneFailed);
    return {
      unsubscribe: async () => {
        if (this.timer) clearInterval(this.timer);
        if (this.pruneTimer) clearInterval(this.pruneTimer);
        await this.flushing;
      },
    };
  }

  /** Deletes relayed rows past the retention, in batches so no statement holds many locks; returns how many. Unrelayed rows are never deleted. */
  async prune(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.db.execute(
        `DELETE FROM "${this.schema}"."outbox" WHERE "seq" IN (
           SELECT "seq" FROM "${this.schema}"."outbox"
           WHERE "published_at" < now() - $1::bigint * interval '1 millisecond' ORDER BY "seq" LIMIT ${PRUNE_BATCH})`,
        [this.retentionMs],
      );
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  }

  private readonly pruneFailed = (error: unknown) => logger.warn({ err: error, schema: this.schema }, 'outbox prune failed; will retry');

  private async relay(): Promise<void> {
    try {
      const rows = await this.db.query<{ id: string; envelope: EventEnvelope | string }>(
        `SELECT "id", "envelope" FROM "${this.schema}"."outbox" WHERE "published_at" IS NULL ORDER BY "seq" LIMIT 500`,
      );
      for (const row of rows) {
        const envelope = typeof row.envelope === 'string' ? (JSON.parse(row.envelope) as EventEnvelope) : row.envelope;
        await this.bus.publishEnvelope(envelope);
        await this.db.execute(`UPDATE "${this.schema}"."outbox" SET "published_at" = now() WHERE "id" = $1`, [row.id]);
      }
    } catch (error) {
      logger.warn({ err: error, schema: this.schema }, 'outbox relay failed; will retry');
    }
  }
}

/** The outbox table, created by each service's first migration. */
export async function createOutboxTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(
    `CREATE TABLE "${schema}"."outbox" ("seq" BIGSERIAL PRIMARY KEY, "id" uuid NOT NULL UNIQUE, "envelope" jsonb NOT NULL, "created_at" timestamptz NOT NULL DEFAULT now(), "published_at" timestamptz)`,
  );
  await queryRunner.query(`CREATE INDEX "outbox_unpublished" ON "${schema}"."outbox" ("seq") WHERE "published_at" IS NULL`);
}

export type { MigrationInterface };
