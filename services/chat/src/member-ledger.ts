import type { Bus } from '@app/kit';
import { identityRpc } from '@app/schema';

/** The chat service's calls to the identity service's token ledger and free-plan quotas. */
export class MemberLedger {
  constructor(private readonly bus: Bus) {}

  /** 1 token and one use of the monthly chat quota per assistant reply; the key makes retries charge once. */
  chargeReply(userId: string, debitKey: string): Promise<unknown> {
    return this.bus.request(
      identityRpc.debitTokens,
      { userId, amount: 1, reason: 'Chat reply', idempotencyKey: debitKey, quota: 'chat' },
      { userId },
    );
  }

  /** Reverses a reply's charge exactly once (identity ignores repeats). */
  async refundReply(userId: string, debitKey: string): Promise<boolean> {
    const result = await this.bus.request(
      identityRpc.refundTokens,
      { userId, debitIdempotencyKey: debitKey, reason: 'Chat reply failed' },
      { userId },
    );
    return result.refunded;
  }

  consumeCharacterQuota(userId: string, key: string): Promise<unknown> {
    return this.bus.request(identityRpc.consumeQuota, { userId, kind: 'character', idempotencyKey: key }, { userId });
  }
}
