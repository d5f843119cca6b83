import { CircuitBreaker, type CircuitBreakerOptions, recordProviderError, upstreamKindOf } from '@app/kit';
import { type ChatProvider, type CompletionChunk, type CompletionRequest, type CompletionResult, ProviderError } from './chat-provider';

export type { CircuitBreakerOptions } from '@app/kit';

/** Failures that say the provider itself is down (not the request, the member or a stop). */
const OUTAGE_CODES = new Set(['UNAVAILABLE', 'TIMEOUT']);
/** Ends that are not the provider's failure: the member's stop, or a reply the content rules ended. */
const NOT_PROVIDER_ERRORS = new Set(['CANCELLED', 'CONTENT_REJECTED']);
/** How operators see this provider in discovery and metrics unless the options name it otherwise. */
export const CHAT_PROVIDER_CIRCUIT = 'chat-provider';

/** A chat provider behind a circuit breaker: while open, replies fail at once (UNAVAILABLE, refunded as usual). */
export class CircuitBreakerProvider implements ChatProvider {
  private readonly breaker: CircuitBreaker;
  /** The inner provider's, where it has one; listing models is not a reply, so the breaker neither gates nor counts it. */
  readonly listModels?: () => Promise<string[]>;

  constructor(
    private readonly inner: ChatProvider,
    options: CircuitBreakerOptions,
  ) {
    this.breaker = new CircuitBreaker({ name: CHAT_PROVIDER_CIRCUIT, ...options });
    const listModels = inner.listModels;
    if (listModels) this.listModels = () => listModels.call(inner);
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

  get origin() {
    return this.inner.origin;
  }

  get state(): 'closed' | 'open' | 'half-open' {
    return this.breaker.state;
  }

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const admission = this.breaker.admit();
    if (admission === 'refused') {
      throw new ProviderError('UNAVAILABLE', 'The AI provider is unavailable right now. Please try again in a minute.');
    }
    try {
      const result = yield* this.inner.stream(request);
      this.breaker.record(admission, 'success');
      return result;
    } catch (error) {
      this.breaker.record(admission, error instanceof ProviderError && OUTAGE_CODES.has(error.code) ? 'outage' : 'other');
      if (!(error instanceof ProviderError && NOT_PROVIDER_ERRORS.has(error.code))) {
        recordProviderError(this.breaker.name!, upstreamKindOf(error));
      }
      throw error;
    }
  }
}
