import { type ChatProvider, type CompletionChunk, type CompletionRequest, type CompletionResult, ProviderError } from './chat-provider';

/** Failures that say the provider itself is down (not the request, the member or a stop). */
const OUTAGE_CODES = new Set(['UNAVAILABLE', 'TIMEOUT']);

export interface CircuitBreakerOptions {
  /** Consecutive outage failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before letting one trial call through. */
  cooldownMs: number;
  clock?: () => number;
}

/**
 * Stops hammering a dead provider: after `failureThreshold` outages in a row, replies fail at once
 * (UNAVAILABLE, refunded as usual) for `cooldownMs`; then one trial call decides whether to close it again.
 */
export class CircuitBreakerProvider implements ChatProvider {
  private failures = 0;
  private openedAt: number | null = null;
  private trialInFlight = false;
  private readonly clock: () => number;

  constructor(
    private readonly inner: ChatProvider,
    private readonly options: CircuitBreakerOptions,
  ) {
    this.clock = options.clock ?? Date.now;
  }

  get kind() {
    return this.inner.kind;
  }
  get model() {
    return this.inner.model;
  }
  get isDemo() {
    return this.inner.isDemo;
  }
  get contextTokens() {
    return this.inner.contextTokens;
  }
  get maxReplyTokens() {
    return this.inner.maxReplyTokens;
  }

  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === null) return 'closed';
    return this.clock() - this.openedAt >= this.options.cooldownMs ? 'half-open' : 'open';
  }

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const state = this.state;
    if (state === 'open' || (state === 'half-open' && this.trialInFlight)) {
      throw new ProviderError('UNAVAILABLE', 'The AI provider is unavailable right now. Please try again in a minute.');
    }
    const trial = state === 'half-open';
    if (trial) this.trialInFlight = true;
    try {
      const result = yield* this.inner.stream(request);
      this.failures = 0;
      this.openedAt = null;
      return result;
    } catch (error) {
      if (error instanceof ProviderError && OUTAGE_CODES.has(error.code)) {
        this.failures++;
        if (trial || this.failures >= this.options.failureThreshold) this.openedAt = this.clock();
      } else if (trial) {
        // The provider answered (e.g. a stop or a bad request): it is alive.
        this.failures = 0;
        this.openedAt = null;
      }
      throw error;
    } finally {
      if (trial) this.trialInFlight = false;
    }
  }
}
