import type { CircuitState } from './bus/bus';

export interface CircuitBreakerOptions {
  /** What it guards, as operators see it in discovery and `provider_circuit_state` (`chat-provider`); unnamed breakers are not listed. */
  name?: string;
  /** Consecutive outage failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one trial call through. */
  cooldownMs: number;
  clock?: () => number;
}

/** How a call went: the provider answered, it looked down (time-out, 5xx, unreachable), or it failed otherwise. */
export type CallOutcome = 'success' | 'outage' | 'other';

/** This process's named breakers; a breaker no one holds any more drops out. */
const namedBreakers = new Set<WeakRef<CircuitBreaker>>();

/**
 * The states of this process's breakers with these names, worst first when a name is shared (the content policy's
 * moderation model has a breaker in each service of an embedded process). Names without a breaker are left out.
 */
export function circuitStates(names: readonly string[]): { name: string; state: CircuitState }[] {
  const worst = new Map<string, CircuitState>();
  for (const ref of namedBreakers) {
    const breaker = ref.deref();
    if (!breaker) {
      namedBreakers.delete(ref);
      continue;
    }
    const name = breaker.name!;
    if (!names.includes(name)) continue;
    const known = worst.get(name);
    const state = breaker.state;
    if (!known || SEVERITY[state] > SEVERITY[known]) worst.set(name, state);
  }
  return names.flatMap((name) => (worst.has(name) ? [{ name, state: worst.get(name)! }] : []));
}

const SEVERITY: Record<CircuitState, number> = { closed: 0, 'half-open': 1, open: 2 };

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
    if (options.name) namedBreakers.add(new WeakRef(this));
  }

  get name(): string | undefined {
    return this.options.name;
  }

  get state(): CircuitState {
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
