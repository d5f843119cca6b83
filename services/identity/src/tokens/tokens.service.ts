import { type Database, type Outbox } from '@app/kit';
import { AppError } from '@app/schema';
import { FREE_PLAN_MONTHLY_QUOTAS, QUOTA_KINDS, type QuotaKind, type QuotaUsage, type TokenChange, identityEvents } from '@app/schema';
import type { EntityManager } from 'typeorm';
import { quotaPeriod } from './quota-period';
import { TokensRepository } from './tokens.repository';

/** The token ledger and free-plan quotas: balances change only here, only through ledger entries. */
export class TokensService {
  private readonly repository = new TokensRepository();

  constructor(
    private readonly db: Database,
    private readonly outbox: Outbox,
    private readonly clock: () => Date,
  ) {}

  /** Adds tokens inside an open transaction (sign-up grant, operator grant). */
  async grantWithin(manager: EntityManager, userId: string, amount: number, reason: string, idempotencyKey: string): Promise<TokenChange> {
    const now = this.clock();
    const locked = await this.repository.lockBalance(manager, userId);
    if (locked === null) throw new AppError('NOT_FOUND', 'Member not found');
    const existing = await this.repository.findEntry(manager, idempotencyKey);
    if (existing) return this.change(userId, locked, 0, existing.reason, now);
    const balance = (await this.repository.applyDelta(manager, userId, amount))!;
    await this.repository.insertEntry(manager, {
      userId,
      kind: 'grant',
      delta: amount,
      balanceAfter: balance,
      reason,
      idempotencyKey,
      at: now,
    });
    return this.recordChange(manager, this.change(userId, balance, amount, reason, now));
  }

  async grantByEmail(email: string, amount: number, reason: string, idempotencyKey: string): Promise<TokenChange> {
    const result = await this.db.transaction(async (manager) => {
      const userId = await this.repository.findUserIdByEmail(manager, email);
      if (!userId) throw new AppError('NOT_FOUND', 'No member with that e-mail');
      return this.grantWithin(manager, userId, amount, reason, idempotencyKey);
    });
    void this.outbox.flush();
    return result;
  }

  async debit(input: { userId: string; amount: number; reason: string; idempotencyKey: string; quota?: QuotaKind }): Promise<TokenChange> {
    const result = await this.db.transaction(async (manager) => {
      const now = this.clock();
      const balance = await this.repository.lockBalance(manager, input.userId);
      if (balance === null) throw new AppError('NOT_FOUND', 'Member not found');
      const existing = await this.repository.findEntry(manager, input.idempotencyKey);
      if (existing) {
        if (existing.kind !== 'debit' || existing.user_id !== input.userId) throw new AppError('CONFLICT', 'Idempotency key already used');
        return this.change(input.userId, balance, 0, existing.reason, now);
      }
      if (input.quota) await this.assertQuotaLeft(manager, input.userId, input.quota, now);
      const after = await this.repository.applyDelta(manager, input.userId, -input.amount);
      if (after === null) {
        throw new AppError(
          'INSUFFICIENT_TOKENS',
          `You need ${input.amount} token${input.amount === 1 ? '' : 's'} for this; your balance is ${balance}.`,
        );
      }
      await this.repository.insertEntry(manager, {
        userId: input.userId,
        kind: 'debit',
        delta: -input.amount,
        balanceAfter: after,
        reason: input.reason,
        idempotencyKey: input.idempotencyKey,
        at: now,
      });
      if (input.quota) {
        const period = quotaPeriod(now);
        await this.repository.insertQuotaUse(manager, {
          idempotencyKey: input.idempotencyKey,
          userId: input.userId,
          kind: input.quota,
          periodStart: period.startDate,
          at: now,
        });
      }
      return this.recordChange(manager, this.change(input.userId, after, -input.amount, input.reason, now));
    });
    void this.outbox.flush();
    return result;
  }

  async refund(input: { userId: string; debitIdempotencyKey: string; reason: string }): Promise<TokenChange & { refunded: boolean }> {
    const result = await this.db.transaction(async (manager) => {
      const now = this.clock();
      const balance = await this.repository.lockBalance(manager, input.userId);
      if (balance === null) throw new AppError('NOT_FOUND', 'Member not found');
      const debit = await this.repository.findEntry(manager, input.debitIdempotencyKey);
      if (!debit || debit.kind !== 'debit' || debit.user_id !== input.userId || debit.refunded) {
        return { ...this.change(input.userId, balance, 0, input.reason, now), refunded: false };
      }
      const amount = -debit.delta;
      const after = (await this.repository.applyDelta(manager, input.userId, amount))!;
      await this.repository.markRefunded(manager, input.debitIdempotencyKey);
      await this.repository.refundQuotaUse(manager, input.debitIdempotencyKey);
      await this.repository.insertEntry(manager, {
        userId: input.userId,
        kind: 'refund',
        delta: amount,
        balanceAfter: after,
        reason: input.reason,
        idempotencyKey: `refund:${input.debitIdempotencyKey}`,
        at: now,
      });
      return { ...(await this.recordChange(manager, this.change(input.userId, after, amount, input.reason, now))), refunded: true };
    });
    void this.outbox.flush();
    return result;
  }

  /** Counts one use of a quota that has no token cost; repeating an idempotency key counts once. */
  async consumeQuota(input: { userId: string; kind: QuotaKind; idempotencyKey: string }): Promise<QuotaUsage> {
    return this.db.transaction(async (manager) => {
      const now = this.clock();
      if ((await this.repository.lockBalance(manager, input.userId)) === null) throw new AppError('NOT_FOUND', 'Member not found');
      const period = quotaPeriod(now);
      if (!(await this.repository.hasQuotaUse(manager, input.idempotencyKey))) {
        await this.assertQuotaLeft(manager, input.userId, input.kind, now);
        await this.repository.insertQuotaUse(manager, { ...input, periodStart: period.startDate, at: now });
      }
      const used = await this.repository.countQuotaUses(manager, input.userId, input.kind, period.startDate);
      return this.usage(input.kind, used, period);
    });
  }

  async getQuotas(userId: string): Promise<QuotaUsage[]> {
    const period = quotaPeriod(this.clock());
    const used = await this.repository.countAllQuotaUses(this.db.manager, userId, period.startDate);
    return QUOTA_KINDS.map((kind) => this.usage(kind, used.get(kind) ?? 0, period));
  }

  private async assertQuotaLeft(manager: EntityManager, userId: string, kind: QuotaKind, now: Date): Promise<void> {
    const used = await this.repository.countQuotaUses(manager, userId, kind, quotaPeriod(now).startDate);
    if (used >= FREE_PLAN_MONTHLY_QUOTAS[kind]) throw quotaExceeded(kind);
  }

  private usage(kind: QuotaKind, used: number, period: { start: Date; end: Date }): QuotaUsage {
    return {
      kind,
      used,
      limit: FREE_PLAN_MONTHLY_QUOTAS[kind],
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
    };
  }

  private change(userId: string, balance: number, delta: number, reason: string, at: Date): TokenChange {
    return { userId, balance, delta, reason, occurredAt: at.toISOString() };
  }

  private async recordChange(manager: EntityManager, change: TokenChange): Promise<TokenChange> {
    await this.outbox.add(manager, identityEvents.tokensChanged, change, change.userId);
    return change;
  }
}

const QUOTA_LABELS: Record<QuotaKind, string> = {
  image: 'image generations',
  chat: 'chat messages',
  character: 'character creations',
  story: 'story generations',
};

function quotaExceeded(kind: QuotaKind): AppError {
  return new AppError(
    'QUOTA_EXCEEDED',
    `You have used all ${FREE_PLAN_MONTHLY_QUOTAS[kind]} ${QUOTA_LABELS[kind]} of the Free plan this month.`,
  );
}
