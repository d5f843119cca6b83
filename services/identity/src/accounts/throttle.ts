import { AppError } from '@app/schema';
import type { IdentityStore } from '../identity.store';

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

/** Fixed-window counters in the database, so every identity instance sees the same count. */
export class Throttle {
  constructor(
    private readonly store: IdentityStore,
    private readonly clock: () => Date,
  ) {}

  /** Throws RATE_LIMITED (with retryAfterSeconds) when `key` has reached its limit in the current window. */
  async assertAllowed(key: string, rule: ThrottleRule, message: string): Promise<void> {
    const now = this.clock();
    const row = await this.store.run(({ throttle }) => throttle.find(key));
    if (!row) return;
    const windowEnds = new Date(row.window_started_at).getTime() + rule.windowMs;
    if (windowEnds > now.getTime() && row.hits >= rule.limit) {
      throw new AppError('RATE_LIMITED', message, { retryAfterSeconds: Math.ceil((windowEnds - now.getTime()) / 1000) });
    }
  }

  async hit(key: string, rule: ThrottleRule): Promise<void> {
    const now = this.clock();
    await this.store.run(({ throttle }) => throttle.hit(key, now, new Date(now.getTime() - rule.windowMs)));
  }

  async clear(key: string): Promise<void> {
    await this.store.run(({ throttle }) => throttle.clear(key));
  }
}
