import { type Subscription, logger } from '@app/kit';
import { quotaPeriod } from './quota-period';
import type { TokensService } from './tokens.service';

const BATCH = 200;
/** setTimeout holds at most ~24.8 days; waking daily also catches a clock that jumped. */
const MAX_WAIT_MS = 24 * 3_600_000;
/** After a failed batch (database down), try again this much later. */
const RETRY_MS = 60_000;

/**
 * Gives every member this month's free allowance (decision 036): at start, then at each UTC month's start, so a balance
 * shows the new tokens without waiting for a first charge (debits apply the allowance themselves too). Several instances
 * may sweep at once: each top-up locks the member's row and is keyed once per month.
 */
export function startAllowanceSweep(tokens: TokensService, clock: () => Date): Subscription {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let stopped = false;

  const sweep = async () => {
    let total = 0;
    // A member whose top-up fails (deleted meanwhile, say) is skipped until the next run instead of being retried forever.
    const failed = new Set<string>();
    while (!stopped) {
      const members = (await tokens.membersAwaitingAllowance(BATCH + failed.size)).filter((id) => !failed.has(id));
      if (members.length === 0) break;
      for (const userId of members) {
        if (stopped) break;
        try {
          await tokens.topUp(userId);
          total += 1;
        } catch (error) {
          failed.add(userId);
          logger.warn({ err: error, userId }, 'monthly allowance not applied');
        }
      }
    }
    if (total > 0) logger.info({ members: total }, 'monthly free allowance applied');
  };

  const arm = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(run, delayMs);
    timer.unref();
  };
  function run() {
    running = sweep()
      .then(() => arm(Math.min(quotaPeriod(clock()).end.getTime() - clock().getTime() + 1_000, MAX_WAIT_MS)))
      .catch((error: unknown) => {
        logger.warn({ err: error }, 'monthly allowance sweep failed; will retry');
        arm(RETRY_MS);
      })
      .finally(() => {
        running = null;
      });
  }
  run();

  return {
    unsubscribe: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
