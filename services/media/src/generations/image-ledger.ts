import type { Bus, PendingCharges } from '@app/kit';
import { identityRpc } from '@app/schema';

const NOT_STARTED = 'Image generation not started';

/** The media service's calls to identity's token ledger: 1 token and one use of the monthly image quota per job. */
export class ImageLedger {
  constructor(
    private readonly bus: Bus,
    private readonly pending: PendingCharges,
  ) {}

  /**
   * Charges a job about to be queued; the job's key makes a repeated charge count once. The charge stays pending
   * until `settle` runs in the transaction that queues the job, and is refunded if that never happens.
   */
  charge(userId: string, debitKey: string): Promise<void> {
    return this.pending.charge({ userId, debitKey, refundReason: NOT_STARTED }, () =>
      this.bus.request(
        identityRpc.debitTokens,
        { userId, amount: 1, reason: 'Image generation', idempotencyKey: debitKey, quota: 'image' },
        { userId },
      ),
    );
  }

  /** Inside the transaction that queues the job: the job now owns its charge. */
  settle(debitKey: string): Promise<void> {
    return this.pending.settle(debitKey);
  }

  /** The job was never queued: its charge goes back (now, or from the sweeper if identity cannot answer). */
  abandon(userId: string, debitKey: string): Promise<void> {
    return this.pending.abandon({ userId, debitKey, refundReason: NOT_STARTED });
  }

  /** Reverses the charge exactly once (identity ignores repeats). */
  async refund(userId: string, debitKey: string, reason: string): Promise<void> {
    await this.bus.request(identityRpc.refundTokens, { userId, debitIdempotencyKey: debitKey, reason }, { userId });
  }
}
