import { AppError, identityRpc } from '@app/schema';
import type { QueryRunner } from 'typeorm';
import type { Bus } from '../bus';
import { logger } from '../logger';
import type { Database } from './database';

/** Refusals after which identity surely did not debit: the intent is dropped, nothing to refund. */
const DEFINITE_REFUSALS = new Set([
  'INSUFFICIENT_TOKENS',
  'QUOTA_EXCEEDED',
  'NOT_FOUND',
  'CONFLICT',
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
]);

export interface PendingChargesOptions {
  /** How long a charge may stay unsettled before the sweeper refunds it; longer than any debit request can take. */
  graceMs?: number;
  sweepIntervalMs?: number;
}

/** A debit's key, whom it charges, and the ledger reason its refund would carry. */
export interface ChargeIntent {
  userId: string;
  debitKey: string;
  refundReason: string;
}

/**
 * Charges for work that does not exist yet (a chat reply, an image job). The intent is written before identity is
 * asked; the transaction that records the work settles it. An intent left unsettled (the debit's answer was lost,
 * the process died, the work's transaction failed) is refunded — at once when possible, else by the sweeper — and
 * identity remembers a refund that came first, so a late debit with that key is refused.
 */
export class PendingCharges {
  private timer: NodeJS.Timeout | null = null;
  private readonly graceMs: number;
  private readonly sweepIntervalMs: number;

  constructor(
    private readonly db: Database,
    private readonly bus: Bus,
    options: PendingChargesOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 60_000;
    this.sweepIntervalMs = options.sweepIntervalMs ?? 15_000;
  }

  private get table(): string {
    return `"${this.db.schema}"."pending_charges"`;
  }

  /** Records the intent, then runs the debit; a debit whose outcome is unknown is refunded before the error goes on. */
  async charge(intent: ChargeIntent, debit: () => Promise<unknown>): Promise<void> {
    await this.db.execute(`INSERT INTO ${this.table} ("debit_key", "user_id", "refund_reason") VALUES ($1, $2, $3)`, [
      intent.debitKey,
      intent.userId,
      intent.refundReason,
    ]);
    try {
      await debit();
    } catch (error) {
      if (error instanceof AppError && DEFINITE_REFUSALS.has(error.code)) {
        await this.forget(intent.debitKey).catch((cleanup: unknown) => this.leftForSweeper(cleanup, intent));
      } else {
        await this.abandon(intent);
      }
      throw error;
    }
  }

  /** Call inside the transaction that records the paid-for work: from then on that work owns the charge. */
  async settle(debitKey: string): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.table} WHERE "debit_key" = $1`, [debitKey]);
  }

  /** The work was never recorded: refund now, or leave the intent for the sweeper when identity cannot answer. */
  async abandon(intent: ChargeIntent): Promise<void> {
    try {
      await this.refund(intent);
    } catch (error) {
      this.leftForSweeper(error, intent);
    }
  }

  start(): { unsubscribe(): Promise<void> } {
    this.timer = setInterval(() => void this.sweep(), this.sweepIntervalMs);
    this.timer.unref();
    return {
      unsubscribe: async () => {
        if (this.timer) clearInterval(this.timer);
      },
    };
  }

  /** Refunds intents older than the grace period; returns how many were refunded. */
  async sweep(): Promise<number> {
    let refunded = 0;
    try {
      const rows = await this.db.query<{ debit_key: string; user_id: string; refund_reason: string }>(
        `SELECT "debit_key", "user_id", "refund_reason" FROM ${this.table}
         WHERE "created_at" <= now() - $1::bigint * interval '1 millisecond' ORDER BY "created_at" LIMIT 100`,
        [this.graceMs],
      );
      for (const row of rows) {
        await this.refund({ userId: row.user_id, debitKey: row.debit_key, refundReason: row.refund_reason });
        refunded++;
      }
    } catch (error) {
      logger.warn({ err: error, schema: this.db.schema }, 'refunding unsettled charges failed; will retry');
    }
    return refunded;
  }

  private async refund(intent: ChargeIntent): Promise<void> {
    await this.bus.request(
      identityRpc.refundTokens,
      { userId: intent.userId, debitIdempotencyKey: intent.debitKey, reason: intent.refundReason },
      { userId: intent.userId },
    );
    await this.forget(intent.debitKey);
  }

  private async forget(debitKey: string): Promise<void> {
    await this.db.execute(`DELETE FROM ${this.table} WHERE "debit_key" = $1`, [debitKey]);
  }

  private leftForSweeper(error: unknown, intent: ChargeIntent): void {
    logger.warn({ err: error, debitKey: intent.debitKey }, 'charge not settled; the sweeper refunds it');
  }
}

/** The table of unsettled charges, created by a migration of each service that charges for work. */
export async function createPendingChargesTable(queryRunner: QueryRunner, schema: string): Promise<void> {
  await queryRunner.query(
    `CREATE TABLE "${schema}"."pending_charges" ("debit_key" text PRIMARY KEY, "user_id" uuid NOT NULL, "refund_reason" text NOT NULL, "created_at" timestamptz NOT NULL DEFAULT now())`,
  );
  await queryRunner.query(`CREATE INDEX "pending_charges_age" ON "${schema}"."pending_charges" ("created_at")`);
}
