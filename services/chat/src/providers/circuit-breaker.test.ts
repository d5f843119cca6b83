import { circuitStates, readMetrics } from '@app/kit';
import { type ChatProvider, type CompletionChunk, type CompletionResult, ProviderError } from './chat-provider';
import { CircuitBreakerProvider } from './circuit-breaker';
import { OpenAiProviderError } from './openai-chat.provider';

class FlakyProvider implements ChatProvider {
  readonly kind = 'openai-compatible';
  readonly model = 'flaky';
  readonly isDemo = false;
  readonly contextTokens = 1000;
  readonly maxReplyTokens = 100;
  calls = 0;
  failWith: ProviderError | null = new ProviderError('UNAVAILABLE', 'down');

  async *stream(): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    this.calls++;
    if (this.failWith) throw this.failWith;
    yield { text: 'ok' };
    return { text: 'ok', promptTokens: 1, completionTokens: 1, finishReason: 'stop', model: this.model };
  }
}

async function run(provider: ChatProvider): Promise<string> {
  const stream = provider.stream({ messages: [] });
  let step = await stream.next();
  while (!step.done) step = await stream.next();
  return step.value.text;
}

describe('CircuitBreakerProvider', () => {
  it('opens after consecutive outages, fails fast while open, and closes after a good trial call', async () => {
    let now = 0;
    const inner = new FlakyProvider();
    const breaker = new CircuitBreakerProvider(inner, { failureThreshold: 3, cooldownMs: 30_000, clock: () => now });
    for (let i = 0; i < 3; i++) await expect(run(breaker)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(breaker.state).toBe('open');
    await expect(run(breaker)).rejects.toThrow('unavailable right now');
    expect(inner.calls).toBe(3);

    now = 30_000;
    expect(breaker.state).toBe('half-open');
    await expect(run(breaker)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(inner.calls).toBe(4);
    expect(breaker.state).toBe('open');

    now = 60_000;
    inner.failWith = null;
    await expect(run(breaker)).resolves.toBe('ok');
    expect(breaker.state).toBe('closed');
  });

  it('does not count request errors or stops as outages', async () => {
    const inner = new FlakyProvider();
    const breaker = new CircuitBreakerProvider(inner, { failureThreshold: 2, cooldownMs: 1000 });
    inner.failWith = new ProviderError('VALIDATION_FAILED', 'context too long');
    for (let i = 0; i < 5; i++) await expect(run(breaker)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    inner.failWith = new ProviderError('CANCELLED', 'stopped');
    for (let i = 0; i < 5; i++) await expect(run(breaker)).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(breaker.state).toBe('closed');
    expect(inner.calls).toBe(10);
  });

  it("counts the provider's failures by kind for operators, not the member's stops, and reports its circuit by name", async () => {
    const inner = new FlakyProvider();
    const breaker = new CircuitBreakerProvider(inner, { name: 'probe-chat-provider', failureThreshold: 5, cooldownMs: 30_000 });
    const refusedKey = new OpenAiProviderError('UNAVAILABLE', 'The AI provider rejected the credentials');
    refusedKey.upstreamKind = 'auth';
    for (const failure of [refusedKey, new ProviderError('TIMEOUT', 'slow'), new ProviderError('CANCELLED', 'stopped')]) {
      inner.failWith = failure;
      await expect(run(breaker)).rejects.toBe(failure);
    }
    const body = (await readMetrics()).body;
    expect(body).toContain('provider_errors_total{provider="probe-chat-provider",kind="auth"} 1');
    expect(body).toContain('provider_errors_total{provider="probe-chat-provider",kind="timeout"} 1');
    expect(body).not.toContain('provider_errors_total{provider="probe-chat-provider",kind="cancelled"}');
    expect(circuitStates(['probe-chat-provider', 'nothing-of-that-name'])).toEqual([{ name: 'probe-chat-provider', state: 'closed' }]);
  });
});
