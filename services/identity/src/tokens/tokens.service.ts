import { type Bus, type Transaction, logger } from '@app/kit';
import { AppError } from '@app/schema';
import {
  FREE_PLAN_MONTHLY_QUOTAS,
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

/** The token ledger and free-plan quotas: balances change only here, only through ledger entries. */
export class TokensService {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: () => Date,
    private readonly bus: Bus,
  ) {}

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
    return this.store.transaction(async ({ tokens }, tx) => {
      const now = this.clock();
      const balance = await tokens.lockBalance(input.userId, tx);
      if (balance === null) throw new AppError('NOT_FOUND', 'Member not found');
      const existing = await tokens.findEntry(input.idempotencyKey);
      if (existing) {
        if (existing.kind !== 'debit' || existing.user_id !== input.userId) throw new AppError('CONFLICT', 'Idempotency key already used');
        return this.change(input.userId, balance, 0, existing.reason, now);
      }
      // The caller gave up on this charge and refunded it before it arrived (its answer was lost): never take it now.
      if (await tokens.findEntry(refundKey(input.idempotencyKey))) throw new AppError('CONFLICT', 'This charge was already cancelled.');
      if (input.quota) await this.assertQuotaLeft(tokens, input.userId, input.quota, now);
      const after = await tokens.applyDelta(input.userId, -input.amount);
      if (after === null) {
        throw new AppError(
          'INSUFFICIENT_TOKENS',
          `You need ${input.amount} token${input.amount === 1 ? '' : 's'} for this; your balance is ${balance}.`,
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

function quotaExceeded(kind: QuotaKind): AppError {
  return new AppError(
    'QUOTA_EXCEEDED',
    `You have used all ${FREE_PLAN_MONTHLY_QUOTAS[kind]} ${QUOTA_LABELS[kind]} of the Free plan this month.`,
  );
}
