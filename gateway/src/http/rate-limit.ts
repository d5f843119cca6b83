import { AppError } from '@app/schema';

/**
 * At most `limit` events per key in any `windowMs` (a sliding log). Per gateway instance: with N gateways an
 * address gets up to N × limit, which still bounds what one address can cost.
 */
export class SlidingWindowLimiter {
  private readonly events = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly message: string,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Counts one event for `key`, or throws RATE_LIMITED (with Retry-After) when the window is full. */
  take(key: string): void {
    const now = this.clock();
    this.sweep(now);
    const recent = (this.events.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (recent.length >= this.limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
      this.events.set(key, recent);
      throw new AppError('RATE_LIMITED', this.message, { retryAfterSeconds });
    }
    recent.push(now);
    this.events.set(key, recent);
  }

  /** Forgets keys with nothing in the window, so memory follows the active addresses only. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.windowMs) return;
    this.lastSweep = now;
    for (const [key, times] of this.events) if (times[times.length - 1]! <= now - this.windowMs) this.events.delete(key);
  }
}
