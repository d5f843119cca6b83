import type { EventDef, EventEnvelope } from '@app/schema';
import type { EntityManager, MigrationInterface, QueryRunner } from 'typeorm';
import type { z } from 'zod';
import { type Bus, buildEnvelope } from '../bus';
import { readInt } from '../config';
import { logger } from '../logger';
import { affectedCount } from './query-result';
import type { Database } from './database';

const RELAY_INTERVAL_MS = 2_000;
const PRUNE_INTERVAL_MS = 10 * 60_000;
const PRUNE_BATCH = 5_000;
const DEFAULT_RETENTION_HOURS = 24;

export interface OutboxOptions {
  /** Relayed rows older than this are deleted: the event stream holds the events, the outbox only bridges the commit. */
  retentionMs?: number;
}

/** OUTBOX_RETENTION_HOURS (24): how long relayed outbox rows are kept, for inspection, before they are deleted. */
export const readOutboxOptions = (env: NodeJS.ProcessEnv): OutboxOptions => ({
  retentionMs: readInt(env, 'OUTBOX_RETENTION_HOURS', DEFAULT_RETENTION_HOURS) * 3_600_000,
});

/**
 * Transactional outbox: events are written in the same transaction as the state they describe and
 * relayed to the bus after commit, so a crash between the two never loses an event.
 */
export class Outbox {
  private timer: NodeJS.Timeout | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly retentionMs: number;

  constructor(
    private readonly db: Database,
    private readonly bus: Bus,
    private readonly schema: string,
    options: OutboxOptions = {},
  ) {
    this.retentionMs = options.retentionMs ?? DEFAULT_RETENTION_HOURS * 3_600_000;
  }

  /** Records an event inside the caller's transaction. */
  async add<E extends EventDef>(
    manager: EntityManager,
    event: E,
    data: z.input<E['data']>,
    actorId: string | null,
  ): Promise<EventEnvelope> {
    const envelope = buildEnvelope(event, data, actorId);
    await manager.query(`INSERT INTO "${this.schema}"."outbox" ("id", "envelope") VALUES ($1, $2)`, [
      envelope.id,
      JSON.stringify(envelope),
    ]);
    return envelope;
  }

  /** Publishes everything not yet relayed, oldest first. */
  flush(): Promise<void> {
    this.flushing ??= this.relay().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  start(): { unsubscribe(): Promise<void> } {
    this.timer = setInterval(() => void this.flush(), RELAY_INTERVAL_MS);
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
      const deleted = affectedCount(
        await this.db.manager.query(
          `DELETE FROM "${this.schema}"."outbox" WHERE "seq" IN (
             SELECT "seq" FROM "${this.schema}"."outbox"
             WHERE "published_at" < now() - $1::bigint * interval '1 millisecond' ORDER BY "seq" LIMIT ${PRUNE_BATCH})`,
          [this.retentionMs],
        ),
      );
      total += deleted;
      if (deleted < PRUNE_BATCH) return total;
    }
  }

  private readonly pruneFailed = (error: unknown) => logger.warn({ err: error, schema: this.schema }, 'outbox prune failed; will retry');

  private async relay(): Promise<void> {
    try {
      const rows: { id: string; envelope: EventEnvelope | string }[] = await this.db.manager.query(
        `SELECT "id", "envelope" FROM "${this.schema}"."outbox" WHERE "published_at" IS NULL ORDER BY "seq" LIMIT 500`,
      );
      for (const row of rows) {
        const envelope = typeof row.envelope === 'string' ? (JSON.parse(row.envelope) as EventEnvelope) : row.envelope;
        await this.bus.publishEnvelope(envelope);
        await this.db.manager.query(`UPDATE "${this.schema}"."outbox" SET "published_at" = now() WHERE "id" = $1`, [row.id]);
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
