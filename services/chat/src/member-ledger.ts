import type { Bus, PendingCharges } from '@app/kit';
import { AppError, identityRpc } from '@app/schema';
import type { RefundPort } from './generation/generation';

const NOT_STARTED = 'Chat reply not started';

/** The chat service's calls to the identity service's token ledger and free-plan quotas. */
export class MemberLedger implements RefundPort {
  constructor(
    private readonly bus: Bus,
    private readonly pending: PendingCharges,
  ) {}

  /**
   * 1 token and one use of the monthly chat quota for a reply about to be recorded; the key makes retries charge once.
   * The charge stays pending until `settleReply` runs in the transaction that records the reply, and is refunded if not.
   */
  chargeReply(userId: string, debitKey: string): Promise<void> {
    return this.pending.charge({ userId, debitKey, refundReason: NOT_STARTED }, () =>
      this.bus.request(
        identityRpc.debitTokens,
        { userId, amount: 1, reason: 'Chat reply', idempotencyKey: debitKey, quota: 'chat' },
        { userId },
      ),
    );
  }

  /** Inside the transaction that records the reply: the reply now owns its charge (its failure refunds it). */
  settleReply(debitKey: string): Promise<void> {
    return this.pending.settle(debitKey);
  }

  /** The reply was never recorded: its charge goes back (now, or from the sweeper if identity cannot answer). */
  abandonReply(userId: string, debitKey: string): Promise<void> {
    return this.pending.abandon({ userId, debitKey, refundReason: NOT_STARTED });
  }

  /** Reverses a turn's charge exactly once (identity ignores repeats); the engine's refund port. */
  async refund(userId: string, debitKey: string, reason: string): Promise<boolean> {
    const result = await this.bus.request(identityRpc.refundTokens, { userId, debitIdempotencyKey: debitKey, reason }, { userId });
    return result.refunded;
  }

  /** Refuses early when the member has no character creation left this month; consumeCharacterQuota still decides. */
  async assertCharacterQuotaLeft(userId: string): Promise<void> {
    const { quotas } = await this.bus.request(identityRpc.getQuotas, { userId }, { userId });
    const usage = quotas.find((quota) => quota.kind === 'character');
    if (usage && usage.used >= usage.limit) {
      throw new AppError('QUOTA_EXCEEDED', `You have used all ${usage.limit} character creations of the Free plan this month.`);
    }
  }

  consumeCharacterQuota(userId: string, key: string): Promise<unknown> {
    return this.bus.request(identityRpc.consumeQuota, { userId, kind: 'character', idempotencyKey: key }, { userId });
  }
}
