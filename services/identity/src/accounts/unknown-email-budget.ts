import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

const BUDGET_KEY = 'unknown-email';

/**
 * How many sign-ins for unregistered e-mails this instance checks against the decoy hash per minute, all addresses
 * together. Kept in memory: it protects this instance's hashing capacity, and a shared counter would put a database
 * write on the very path a flood hammers.
 */
export class UnknownEmailBudget {
  private readonly limiter: RateLimiterMemory | null;

  constructor(perMinute: number) {
    this.limiter = perMinute > 0 ? new RateLimiterMemory({ points: perMinute, duration: 60 }) : null;
  }

  /** True when one more decoy check fits in the current minute (and counts it). */
  async tryTake(): Promise<boolean> {
    if (!this.limiter) return false;
    try {
      await this.limiter.consume(BUDGET_KEY);
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }
}
