import type { QuotaKind } from '@app/schema';
import type { EntityManager } from 'typeorm';

export interface LedgerRow {
  id: string;
  user_id: string;
  kind: 'grant' | 'debit' | 'refund';
  delta: number;
  balance_after: number;
  reason: string;
  refunded: boolean;
  created_at: Date;
}

/** All token and quota SQL; every method runs inside the caller's transaction. */
export class TokensRepository {
  /** Locks the member's row so concurrent debits for one member queue up; returns the balance. */
  async lockBalance(manager: EntityManager, userId: string): Promise<number | null> {
    const rows: { token_balance: number }[] = await manager.query(
      `SELECT "token_balance" FROM "identity"."users" WHERE "id" = $1 FOR UPDATE`,
      [userId],
    );
    return rows[0]?.token_balance ?? null;
  }

  async findUserIdByEmail(manager: EntityManager, email: string): Promise<string | null> {
    const rows: { id: string }[] = await manager.query(`SELECT "id" FROM "identity"."users" WHERE "email" = $1`, [email]);
    return rows[0]?.id ?? null;
  }

  async findEntry(manager: EntityManager, idempotencyKey: string): Promise<LedgerRow | null> {
    const rows: LedgerRow[] = await manager.query(`SELECT * FROM "identity"."token_ledger" WHERE "idempotency_key" = $1`, [idempotencyKey]);
    return rows[0] ?? null;
  }

  /** The conditional update: the balance changes only if it stays at or above zero. */
  async applyDelta(manager: EntityManager, userId: string, delta: number): Promise<number | null> {
    // TypeORM answers UPDATE with [rows, affectedCount].
    const [rows]: [{ token_balance: number }[], number] = await manager.query(
      `UPDATE "identity"."users" SET "token_balance" = "token_balance" + $2 WHERE "id" = $1 AND "token_balance" + $2 >= 0 RETURNING "token_balance"`,
      [userId, delta],
    );
    return rows[0]?.token_balance ?? null;
  }

  async insertEntry(
    manager: EntityManager,
    entry: {
      userId: string;
      kind: LedgerRow['kind'];
      delta: number;
      balanceAfter: number;
      reason: string;
      idempotencyKey: string;
      at: Date;
    },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO "identity"."token_ledger" ("user_id", "kind", "delta", "balance_after", "reason", "idempotency_key", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [entry.userId, entry.kind, entry.delta, entry.balanceAfter, entry.reason, entry.idempotencyKey, entry.at],
    );
  }

  async markRefunded(manager: EntityManager, idempotencyKey: string): Promise<void> {
    await manager.query(`UPDATE "identity"."token_ledger" SET "refunded" = true WHERE "idempotency_key" = $1`, [idempotencyKey]);
  }

  async countQuotaUses(manager: EntityManager, userId: string, kind: QuotaKind, periodStart: string): Promise<number> {
    const rows: { used: number }[] = await manager.query(
      `SELECT count(*)::int AS "used" FROM "identity"."quota_uses" WHERE "user_id" = $1 AND "kind" = $2 AND "period_start" = $3 AND NOT "refunded"`,
      [userId, kind, periodStart],
    );
    return rows[0]?.used ?? 0;
  }

  async countAllQuotaUses(manager: EntityManager, userId: string, periodStart: string): Promise<Map<string, number>> {
    const rows: { kind: string; used: number }[] = await manager.query(
      `SELECT "kind", count(*)::int AS "used" FROM "identity"."quota_uses" WHERE "user_id" = $1 AND "period_start" = $2 AND NOT "refunded" GROUP BY "kind"`,
      [userId, periodStart],
    );
    return new Map(rows.map((row) => [row.kind, row.used]));
  }

  /** Records one quota use; false when this idempotency key was already counted. */
  async insertQuotaUse(
    manager: EntityManager,
    use: { idempotencyKey: string; userId: string; kind: QuotaKind; periodStart: string; at: Date },
  ): Promise<boolean> {
    const rows = await manager.query(
      `INSERT INTO "identity"."quota_uses" ("idempotency_key", "user_id", "kind", "period_start", "created_at") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("idempotency_key") DO NOTHING RETURNING "idempotency_key"`,
      [use.idempotencyKey, use.userId, use.kind, use.periodStart, use.at],
    );
    return rows.length > 0;
  }

  async hasQuotaUse(manager: EntityManager, idempotencyKey: string): Promise<boolean> {
    const rows = await manager.query(`SELECT 1 FROM "identity"."quota_uses" WHERE "idempotency_key" = $1`, [idempotencyKey]);
    return rows.length > 0;
  }

  async refundQuotaUse(manager: EntityManager, idempotencyKey: string): Promise<void> {
    await manager.query(`UPDATE "identity"."quota_uses" SET "refunded" = true WHERE "idempotency_key" = $1`, [idempotencyKey]);
  }
}
