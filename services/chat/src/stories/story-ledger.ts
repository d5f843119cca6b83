import type { Bus, PendingCharges } from '@app/kit';
import { identityRpc } from '@app/schema';

const NOT_STARTED = 'Story passage not started';

/** What a passage costs: 1 token, and for a story's first opening one use of the free plan's monthly `story` quota. */
export interface PassageCharge {
  countsAsStory: boolean;
}

/** The stories' calls to the identity service's token ledger (refunds of failed passages go through the engine). */
export class StoryLedger {
  constructor(
    private readonly bus: Bus,
    private readonly pending: PendingCharges,
  ) {}

  /**
   * Charges a passage about to be recorded; the key makes retries charge once. The charge stays pending until `settle`
   * runs in the transaction that records the passage, and is refunded if not (identity's refund returns the quota use too).
   */
  charge(userId: string, debitKey: string, { countsAsStory }: PassageCharge): Promise<void> {
    return this.pending.charge({ userId, debitKey, refundReason: NOT_STARTED }, () =>
      this.bus.request(
        identityRpc.debitTokens,
        { userId, amount: 1, reason: 'Story passage', idempotencyKey: debitKey, ...(countsAsStory ? { quota: 'story' as const } : {}) },
        { userId },
      ),
    );
  }

  /** Inside the transaction that records the passage: the passage now owns its charge (its failure refunds it). */
  settle(debitKey: string): Promise<void> {
    return this.pending.settle(debitKey);
  }

  /** The passage was never recorded: its charge goes back (now, or from the sweeper if identity cannot answer). */
  abandon(userId: string, debitKey: string): Promise<void> {
    return this.pending.abandon({ userId, debitKey, refundReason: NOT_STARTED });
  }
}

/** The ledger as the stories' rules use it (unit tests give a fake). */
export type StoryCharges = Pick<StoryLedger, 'charge' | 'settle' | 'abandon'>;
