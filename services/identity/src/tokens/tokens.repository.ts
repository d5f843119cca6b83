import type { QuotaKind } from '@app/schema';
import type { SqlSession, Transaction } from '@app/kit';

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

/** All token and quota SQL, run in the unit of work it was made for (the ledger's changes need a transaction). */
export class TokensRepository {
  constructor(private readonly session: SqlSession) {}

  /** Locks the member's row so concurrent debits for one member queue up; returns the balance. */
  async lockBalance(userId: string, _within: Transaction): Promise<number | null> {
    const rows = await this.session.query<{ token_balance: number }>(
      `SELECT "token_balance" FROM "identity"."users" WHERE "id" = $1 FOR UPDATE`,
      [userId],
    );
    return rows[0]?.token_balance ?? null;
  }

  async findUserIdByEmail(email: string): Promise<string | null> {
    const rows = await this.session.query<{ id: string }>(`SELECT "id" FROM "identity"."users" WHERE "email" = $1`, [email]);
    return rows[0]?.id ?? null;
  }

  async findEntry(idempotencyKey: string): Promise<LedgerRow | null> {
    const rows = await this.session.query<LedgerRow>(`SELECT * FROM "identity"."token_ledger" WHERE "idempotency_key" = $1`, [
      idempotencyKey,
    ]);
    return rows[0] ?? null;
  }

  /** The conditional update: the balance changes only if it stays at or above zero. */
  async applyDelta(userId: string, delta: number): Promise<number | null> {
    const rows = await this.session.query<{ token_balance: number }>(
      `UPDATE "identity"."users" SET "token_balance" = "token_balance" + $2 WHERE "id" = $1 AND "token_balance" + $2 >= 0 RETURNING "token_balance"`,
      [userId, delta],
    );
    return rows[0]?.token_balance ?? null;
  }

  async insertEntry(entry: {
    userId: string;
    kind: LedgerRow['kind'];
    delta: number;
    balanceAfter: number;
    reason: string;
    idempotencyKey: string;
    at: Date;
    /** A repeated key is ignored instead of failing (a refund marker written twice). */
    ignoreRepeat?: boolean;
  }): Promise<void> {
    await this.session.execute(
      `INSERT INTO "identity"."token_ledger" ("user_id", "kind", "delta", "balance_after", "reason", "idempotency_key", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7)${entry.ignoreRepeat ? ' ON CONFLICT ("idempotency_key") DO NOTHING' : ''}`,
      [entry.userId, entry.kind, entry.delta, entry.balanceAfter, entry.reason, entry.idempotencyKey, entry.at],
    );
  }

  /** Members with no ledger entry under `<prefix><member id><suffix>` (e.g. this month's allowance), oldest first. */
  async findMembersWithoutEntry(prefix: string, suffix: string, limit: number): Promise<string[]> {
    const rows = await this.session.query<{ id: string }>(
      `SELECT "u"."id" FROM "identity"."users" "u"
       WHERE NOT EXISTS (SELECT 1 FROM "identity"."token_ledger" "l" WHERE "l"."idempotency_key" = $1 || "u"."id"::text || $2)
       ORDER BY "u"."created_at", "u"."id" LIMIT $3`,
      [prefix, suffix, limit],
    );
    return rows.map((row) => row.id);
  }

  async markRefunded(idempotencyKey: string): Promise<void> {
    await this.session.execute(`UPDATE "identity"."token_ledger" SET "refunded" = true WHERE "idempotency_key" = $1`, [idempotencyKey]);
  }

  async countQuotaUses(userId: string, kind: QuotaKind, periodStart: string): Promise<number> {
    const rows = await this.session.query<{ used: number }>(
      `SELECT count(*)::int AS "used" FROM "identity"."quota_uses" WHERE "user_id" = $1 AND "kind" = $2 AND "period_start" = $3 AND NOT "refunded"`,
      [userId, kind, periodStart],
    );
    return rows[0]?.used ?? 0;
  }

  async countAllQuotaUses(userId: string, periodStart: string): Promise<Map<string, number>> {
    const rows = await this.session.query<{ kind: string; used: number }>(
      `SELECT "kind", count(*)::int AS "used" FROM "identity"."quota_uses" WHERE "user_id" = $1 AND "period_start" = $2 AND NOT "refunded" GROUP BY "kind"`,
      [userId, periodStart],
    );
    return new Map(rows.map((row) => [row.kind, row.used]));
  }

  /** Records one quota use; false when this idempotency key was already counted. */
  async insertQuotaUse(use: { idempotencyKey: string; userId: string; kind: QuotaKind; periodStart: string; at: Date }): Promise<boolean> {
    const rows = await this.session.query(
      `INSERT INTO "identity"."quota_uses" ("idempotency_key", "user_id", "kind", "period_start", "created_at") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("idempotency_key") DO NOTHING RETURNING "idempotency_key"`,
      [use.idempotencyKey, use.userId, use.kind, use.periodStart, use.at],
    );
    return rows.length > 0;
  }

  async hasQuotaUse(idempotencyKey: string): Promise<boolean> {
    const rows = await this.session.query(`SELECT 1 FROM "identity"."quota_uses" WHERE "idempotency_key" = $1`, [idempotencyKey]);
    return rows.length > 0;
  }

  async refundQuotaUse(idempotencyKey: string): Promise<void> {
    await this.session.execute(`UPDATE "identity"."quota_uses" SET "refunded" = true WHERE "idempotency_key" = $1`, [idempotencyKey]);
  }
}
