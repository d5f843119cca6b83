import { type Bus, type Transaction, logger } from '@app/kit';
import { AppError } from '@app/schema';
import {
  FREE_MONTHLY_TOKEN_ALLOWANCE,
  FREE_PLAN_MONTHLY_QUOTAS,
  type PlanStatus,
  QUOTA_KINDS,
  type QuotaKind,
  type QuotaUsage,
  type TokenChange,
  identityEvents,
  tokensLiveSubject,
} from '@app/schema';
import type { IdentityRepositories, IdentityStore } from '../identity.store';
import { quotaPeriod } from './quota-period';
import type { TokensRepository } from './tokens.repository';

const refundKey = (debitKey: string) => `refund:${debitKey}`;
/** One allowance entry per member per month: the key makes the top-up exactly-once, whoever applies it first. */
const allowanceKey = (userId: string, periodStartDate: string) => `allowance:${userId}:${periodStartDate.slice(0, 7)}`;
export const ALLOWANCE_REASON = 'Monthly free allowance';

/** The token ledger and free-plan quotas: balances change only here, only through ledger entries. */
export class TokensService {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: () => Date,
    private readonly bus: Bus,
    /** Tokens a free member's balance is topped up to each month (decision 036); 0 turns the allowance off. */
    private readonly monthlyAllowance: number = FREE_MONTHLY_TOKEN_ALLOWANCE,
  ) {}

  /**
   * Tops the balance up to the monthly allowance, once per member per UTC month (decision 036), inside the caller's
   * transaction and after its row lock. A balance already at or above the allowance gets a zero entry: the month is
   * still marked as granted, so tokens spent later that month are not topped up again.
   */
  async topUpWithin({ tokens }: IdentityRepositories, tx: Transaction, userId: string, balance: number, now: Date): Promise<number> {
    if (this.monthlyAllowance <= 0) return balance;
    const key = allowanceKey(userId, quotaPeriod(now).startDate);
    if (await tokens.findEntry(key)) return balance;
    const amount = Math.max(0, this.monthlyAllowance - balance);
    const after = amount > 0 ? (await tokens.applyDelta(userId, amount))! : balance;
    await tokens.insertEntry({
      userId,
      kind: 'grant',
      delta: amount,
      balanceAfter: after,
      reason: ALLOWANCE_REASON,
      idempotencyKey: key,
      at: now,
    });
    if (amount > 0) await this.recordChange(tx, this.change(userId, after, amount, ALLOWANCE_REASON, now));
    return after;
  }

  /** Applies this month's allowance to one member in its own transaction (the sweep, a plan read); answers the balance. */
  async topUp(userId: string): Promise<number> {
    return this.store.transaction(async (repositories, tx) => {
      const balance = await repositories.tokens.lockBalance(userId, tx);
      if (balance === null) throw new AppError('NOT_FOUND', 'Member not found');
      return this.topUpWithin(repositories, tx, userId, balance, this.clock());
    });
  }

  /** Members who have not had this month's allowance yet, a batch at a time (the sweep at each month's start). */
  async membersAwaitingAllowance(limit: number): Promise<string[]> {
    if (this.monthlyAllowance <= 0) return [];
    const period = quotaPeriod(this.clock());
    return this.store.run(({ tokens }) => tokens.findMembersWithoutEntry('allowance:', `:${period.startDate.slice(0, 7)}`, limit));
  }

  /** The Plans screen's figures: the plan, the allowance, the balance after this month's top-up, when it renews, the quotas used. */
  async getPlan(userId: string): Promise<PlanStatus> {
    const balance = await this.topUp(userId);
    const quotas = await this.getQuotas(userId);
    return {
      plan: 'free',
      monthlyTokenAllowance: this.monthlyAllowance,
      balance,
      renewsAt: quotaPeriod(this.clock()).end.toISOString(),
      quotas,
    };
  }

  /** Adds tokens inside an open transaction (sign-up grant, operator grant). */
  async grantWithin(
    { tokens }: IdentityRepositories,
    tx: Transaction,
    userId: string,
    amount: number,
    reason: string,
    idempotencyKey: string,
  ): Promise<TokenChange> {
    const now = this.clock();
    const locked = await tokens.lockBalance(userId, tx);
    if (locked === null) throw new AppError('NOT_FOUND', 'Member not found');
    const existing = await tokens.findEntry(idempotencyKey);
    if (existing) return this.change(userId, locked, 0, existing.reason, now);
    const balance = (await tokens.applyDelta(userId, amount))!;
    await tokens.insertEntry({
      userId,
      kind: 'grant',
      delta: amount,
      balanceAfter: balance,
      reason,
      idempotencyKey,
      at: now,
    });
    return this.recordChange(tx, this.change(userId, balance, amount, reason, now));
  }

  async grantByEmail(email: string, amount: number, reason: string, idempotencyKey: string): Promise<TokenChange> {
    return this.store.transaction(async (repositories, tx) => {
      const userId = await repositories.tokens.findUserIdByEmail(email);
      if (!userId) throw new AppError('NOT_FOUND', 'No member with that e-mail');
      return this.grantWithin(repositories, tx, userId, amount, reason, idempotencyKey);
    });
  }

  async debit(input: { userId: string; amount: number; reason: string; idempotencyKey: string; quota?: QuotaKind }): Promise<TokenChange> {
    return this.store.transaction(async (repositories, tx) => {
      const { tokens } = repositories;
      const now = this.clock();
      const locked = await tokens.lockBalance(input.userId, tx);
      if (locked === null) throw new AppError('NOT_FOUND', 'Member not found');
      const existing = await tokens.findEntry(input.idempotencyKey);
      if (existing) {
        if (existing.kind !== 'debit' || existing.user_id !== input.userId) throw new AppError('CONFLICT', 'Idempotency key already used');
        return this.change(input.userId, locked, 0, existing.reason, now);
      }
      // The month's allowance arrives before its first charge, even when the sweep at the period's start has not reached this member yet.
      const balance = await this.topUpWithin(repositories, tx, input.userId, locked, now);
      // The caller gave up on this charge and refunded it before it arrived (its answer was lost): never take it now.
      if (await tokens.findEntry(refundKey(input.idempotencyKey))) throw new AppError('CONFLICT', 'This charge was already cancelled.');
      if (input.quota) await this.assertQuotaLeft(tokens, input.userId, input.quota, now);
      const after = await tokens.applyDelta(input.userId, -input.amount);
      if (after === null) {
        const renewsAt = quotaPeriod(now).end.toISOString();
        throw new AppError(
          'INSUFFICIENT_TOKENS',
          `You need ${input.amount} token${input.amount === 1 ? '' : 's'} for this; your balance is ${balance}. Your free tokens are topped up on ${renewsAt.slice(0, 10)}.`,
          { renewsAt },
        );
      }
      await tokens.insertEntry({
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
        await tokens.insertQuotaUse({
          idempotencyKey: input.idempotencyKey,
          userId: input.userId,
          kind: input.quota,
          periodStart: period.startDate,
          at: now,
        });
      }
      return this.recordChange(tx, this.change(input.userId, after, -input.amount, input.reason, now));
    });
  }

  async refund(input: { userId: string; debitIdempotencyKey: string; reason: string }): Promise<TokenChange & { refunded: boolean }> {
    return this.store.transaction(async ({ tokens }, tx) => {
      const now = this.clock();
      const balance = await tokens.lockBalance(input.userId, tx);
      if (balance === null) throw new AppError('NOT_FOUND', 'Member not found');
      const debit = await tokens.findEntry(input.debitIdempotencyKey);
      if (!debit) {
        // A refund can overtake its debit (the debit's answer was lost, the caller refunded at once): leave a marker
        // so that debit is refused if it still arrives.
        await tokens.insertEntry({
          userId: input.userId,
          kind: 'refund',
          delta: 0,
          balanceAfter: balance,
          reason: input.reason,
          idempotencyKey: refundKey(input.debitIdempotencyKey),
          at: now,
          ignoreRepeat: true,
        });
        return { ...this.change(input.userId, balance, 0, input.reason, now), refunded: false };
      }
      if (debit.kind !== 'debit' || debit.user_id !== input.userId || debit.refunded) {
        return { ...this.change(input.userId, balance, 0, input.reason, now), refunded: false };
      }
      const amount = -debit.delta;
      const after = (await tokens.applyDelta(input.userId, amount))!;
      await tokens.markRefunded(input.debitIdempotencyKey);
      await tokens.refundQuotaUse(input.debitIdempotencyKey);
      await tokens.insertEntry({
        userId: input.userId,
        kind: 'refund',
        delta: amount,
        balanceAfter: after,
        reason: input.reason,
        idempotencyKey: refundKey(input.debitIdempotencyKey),
        at: now,
      });
      return { ...(await this.recordChange(tx, this.change(input.userId, after, amount, input.reason, now))), refunded: true };
    });
  }

  /** Counts one use of a quota that has no token cost; repeating an idempotency key counts once. */
  async consumeQuota(input: { userId: string; kind: QuotaKind; idempotencyKey: string }): Promise<QuotaUsage> {
    return this.store.transaction(async ({ tokens }, tx) => {
      const now = this.clock();
      if ((await tokens.lockBalance(input.userId, tx)) === null) throw new AppError('NOT_FOUND', 'Member not found');
      const period = quotaPeriod(now);
      if (!(await tokens.hasQuotaUse(input.idempotencyKey))) {
        await this.assertQuotaLeft(tokens, input.userId, input.kind, now);
        await tokens.insertQuotaUse({ ...input, periodStart: period.startDate, at: now });
      }
      const used = await tokens.countQuotaUses(input.userId, input.kind, period.startDate);
      return this.usage(input.kind, used, period);
    });
  }

  async getQuotas(userId: string): Promise<QuotaUsage[]> {
    const period = quotaPeriod(this.clock());
    const used = await this.store.run(({ tokens }) => tokens.countAllQuotaUses(userId, period.startDate));
    return QUOTA_KINDS.map((kind) => this.usage(kind, used.get(kind) ?? 0, period));
  }

  private async assertQuotaLeft(tokens: TokensRepository, userId: string, kind: QuotaKind, now: Date): Promise<void> {
    const used = await tokens.countQuotaUses(userId, kind, quotaPeriod(now).startDate);
    if (used >= FREE_PLAN_MONTHLY_QUOTAS[kind]) throw quotaExceeded(kind, quotaPeriod(now).end.toISOString());
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

  /** The change is an event of the ledger, and once committed a live update for the member's open screens. */
  private async recordChange(tx: Transaction, change: TokenChange): Promise<TokenChange> {
    await tx.emit(identityEvents.tokensChanged, change, change.userId);
    tx.afterCommit(() => {
      this.bus
        .publishLive(tokensLiveSubject(change.userId), change)
        .catch((error: unknown) => logger.warn({ err: error, userId: change.userId }, 'balance change not sent live'));
    });
    return change;
  }
}

const QUOTA_LABELS: Record<QuotaKind, string> = {
  image: 'image generations',
  chat: 'chat messages',
  character: 'character creations',
  story: 'story generations',
};

function quotaExceeded(kind: QuotaKind, renewsAt: string): AppError {
  return new AppError(
    'QUOTA_EXCEEDED',
    `You have used all ${FREE_PLAN_MONTHLY_QUOTAS[kind]} ${QUOTA_LABELS[kind]} of the Free plan this month.`,
    { renewsAt, quota: kind },
  );
}
