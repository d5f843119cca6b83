export interface CircuitBreakerOptions {
  /** Consecutive outage failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one trial call through. */
  cooldownMs: number;
  clock?: () => number;
}

/** How a call went: the provider answered, it looked down (time-out, 5xx, unreachable), or it failed otherwise. */
export type CallOutcome = 'success' | 'outage' | 'other';

/**
 * Stops hammering a dead upstream: after `failureThreshold` outages in a row, calls are refused for
 * `cooldownMs`; then one trial call decides whether to close the circuit again.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;
  private readonly clock: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.clock = options.clock ?? Date.now;
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === null) return 'closed';
    return this.clock() - this.openedAt >= this.options.cooldownMs ? 'half-open' : 'open';
  }

  /** 'refused' while open (or while the half-open trial runs); 'trial' for the one call that tests a half-open circuit. */
  admit(): 'call' | 'trial' | 'refused' {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.trialInFlight)) return 'refused';
    if (state === 'half-open') {
      this.trialInFlight = true;
      return 'trial';
    }
    return 'call';
  }

  record(admission: 'call' | 'trial', outcome: CallOutcome): void {
    const trial = admission === 'trial';
    if (trial) this.trialInFlight = false;
    if (outcome === 'outage') {
      this.failures++;
      if (trial || this.failures >= this.options.failureThreshold) this.openedAt = this.clock();
    } else if (outcome === 'success' || trial) {
      // An answer of any kind (even a refused request) shows the upstream is alive.
      this.failures = 0;
      this.openedAt = null;
    }
  }
}
