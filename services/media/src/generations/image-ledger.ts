import type { Bus } from '@app/kit';
import { identityRpc } from '@app/schema';

/** The media service's calls to identity's token ledger: 1 token and one use of the monthly image quota per job. */
export class ImageLedger {
  constructor(private readonly bus: Bus) {}

  /** The job's key makes a repeated charge count once. */
  charge(userId: string, debitKey: string): Promise<unknown> {
    return this.bus.request(
      identityRpc.debitTokens,
      { userId, amount: 1, reason: 'Image generation', idempotencyKey: debitKey, quota: 'image' },
      { userId },
    );
  }

  /** Reverses the charge exactly once (identity ignores repeats). */
  async refund(userId: string, debitKey: string, reason: string): Promise<void> {
    await this.bus.request(identityRpc.refundTokens, { userId, debitIdempotencyKey: debitKey, reason }, { userId });
  }
}
