import { CircuitBreaker, type CircuitBreakerOptions, recordProviderError, upstreamKindOf } from '@app/kit';
import { type ImageProvider, ImageProviderError, type ImageRequest, type ImageResult } from './image-provider';

/** Failures that say the provider itself is down (not the prompt, the member or a cancel). */
const OUTAGE_CODES = new Set(['UNAVAILABLE', 'TIMEOUT']);
/** Ends that are not the provider's failure: the member's cancel, or a prompt the provider's own rules refused. */
const NOT_PROVIDER_ERRORS = new Set(['CANCELLED', 'CONTENT_REJECTED']);
/** How operators see this provider in discovery and metrics unless the options name it otherwise. */
export const IMAGE_PROVIDER_CIRCUIT = 'image-provider';

/** An image provider behind a circuit breaker: while open, jobs fail at once (UNAVAILABLE, refunded) instead of waiting on a dead server. */
export class CircuitBreakerImageProvider implements ImageProvider {
  private readonly breaker: CircuitBreaker;

  constructor(
    private readonly inner: ImageProvider,
    options: CircuitBreakerOptions,
  ) {
    this.breaker = new CircuitBreaker({ name: IMAGE_PROVIDER_CIRCUIT, ...options });
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
  get advanced() {
    return this.inner.advanced;
  }
  /** Not behind the breaker: the list is cached by the provider and asking costs no generation. */
  samplers(): Promise<string[]> {
    return this.inner.samplers();
  }
  get state() {
    return this.breaker.state;
  }

  async generate(request: ImageRequest): Promise<ImageResult> {
    const admission = this.breaker.admit();
    if (admission === 'refused')
      throw new ImageProviderError('UNAVAILABLE', 'The image provider is unavailable right now. Please try again in a minute.');
    try {
      const result = await this.inner.generate(request);
      this.breaker.record(admission, 'success');
      return result;
    } catch (error) {
      this.breaker.record(admission, error instanceof ImageProviderError && OUTAGE_CODES.has(error.code) ? 'outage' : 'other');
      if (!(error instanceof ImageProviderError && NOT_PROVIDER_ERRORS.has(error.code))) {
        recordProviderError(this.breaker.name!, upstreamKindOf(error));
      }
      throw error;
    }
  }
}
