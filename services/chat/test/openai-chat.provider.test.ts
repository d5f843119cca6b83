import { type CompletionRequest, type CompletionResult, ProviderError } from '../src/providers/chat-provider';
import {
  OpenAiChatProvider,
  type OpenAiChatOptions,
  OpenAiProviderError,
  readOpenAiChatConfig,
} from '../src/providers/openai-chat.provider';
import { type FakeOpenAi, type FakeRequestOutcome, fakeErrors, startFakeOpenAi, wallClock } from './fake-openai-server';

jest.setTimeout(10_000);

const API_KEY = 'sk-test-SECRET-abcdef0123456789';
const MESSAGES: CompletionRequest['messages'] = [
  { role: 'system', content: 'You are Mira, a friendly pirate.' },
  { role: 'user', content: 'Ahoy! Where are we sailing?' },
];

let fake: FakeOpenAi;
beforeAll(async () => {
  fake = await startFakeOpenAi({ model: 'fake-model-2025' });
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.clearRequests();
  fake.setScenario({ kind: 'stream' });
});

const makeProvider = (options: Partial<OpenAiChatOptions> = {}) =>
  new OpenAiChatProvider({
    baseUrl: fake.url,
    apiKey: API_KEY,
    model: 'configured-model',
    temperature: 0.7,
    maxReplyTokens: 300,
    contextTokens: 4096,
    connectTimeoutMs: 2_000,
    idleTimeoutMs: 2_000,
    totalTimeoutMs: 5_000,
    ...options,
  });

interface Run {
  chunks: { text: string; receivedAt: number }[];
  result: CompletionResult | null;
  error: ProviderError | null;
}

/** Drains a provider stream, recording chunks with arrival times, the result or the error. */
async function run(
  provider: OpenAiChatProvider,
  request: Partial<CompletionRequest> = {},
  onChunk?: (text: string, index: number) => void,
): Promise<Run> {
  const outcome: Run = { chunks: [], result: null, error: null };
  const stream = provider.stream({ messages: MESSAGES, ...request });
  try {
    for (;;) {
      const next = await stream.next();
      if (next.done) {
        outcome.result = next.value;
        break;
      }
      outcome.chunks.push({ text: next.value.text, receivedAt: wallClock() });
      onChunk?.(next.value.text, outcome.chunks.length - 1);
    }
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    const failure = error as ProviderError;
    // The key must never leak into an error, whatever the provider said.
    expect(failure.message).not.toContain(API_KEY);
    expect(failure.message).not.toContain('SECRET');
    expect(JSON.stringify({ ...failure, message: failure.message })).not.toContain(API_KEY);
    outcome.error = failure;
  }
  return outcome;
}

const textOf = (outcome: Run) => outcome.chunks.map((chunk) => chunk.text).join('');

async function closedWithin(outcome: Promise<FakeRequestOutcome>, ms: number): Promise<FakeRequestOutcome | 'still-open'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'still-open'>((resolve) => (timer = setTimeout(() => resolve('still-open'), ms)));
  try {
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('OpenAiChatProvider streaming', () => {
  it('yields the reply incrementally, in order, and returns usage, finish reason and model', async () => {
    const reply = 'Ahoy there, matey! We sail for the Isle of Fog at dawn, so ready the sails.';
    fake.setScenario({ kind: 'stream', reply, delayMs: 25 });
    let sentWhenFirstArrived = -1;
    const outcome = await run(makeProvider(), {}, (_text, index) => {
      if (index === 0) sentWhenFirstArrived = fake.lastRequest()!.sent.length;
    });

    expect(outcome.error).toBeNull();
    const sent = fake.lastRequest()!.sent;
    expect(sent.length).toBeGreaterThan(5);
    expect(outcome.chunks.map((chunk) => chunk.text)).toEqual(sent.map((piece) => piece.text));
    expect(textOf(outcome)).toBe(reply);
    // Incremental: the first piece reached the caller before the server had even sent the last one.
    expect(sentWhenFirstArrived).toBeLessThan(sent.length);
    expect(outcome.chunks[0].receivedAt).toBeLessThan(sent[sent.length - 1].sentAt);

    expect(outcome.result).toEqual({
      text: reply,
      promptTokens: expect.any(Number),
      completionTokens: Math.ceil(reply.length / 4),
      finishReason: 'stop',
      model: 'fake-model-2025',
    });
    expect(outcome.result!.promptTokens).toBeGreaterThan(0);
  });

  it('sends the OpenAI request body and headers, with the key as a Bearer token', async () => {
    const provider = makeProvider({ extraHeaders: { 'HTTP-Referer': 'https://example.test', 'X-Title': 'Creator Platform' } });
    await run(provider);
    const request = fake.lastRequest()!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toEqual({
      model: 'configured-model',
      messages: MESSAGES,
      stream: true,
      temperature: 0.7,
      max_tokens: 300,
      stream_options: { include_usage: true },
    });
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers.accept).toBe('text/event-stream');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['http-referer']).toBe('https://example.test');
    expect(request.headers['x-title']).toBe('Creator Platform');
  });

  it('lets a request override max tokens and temperature, and tolerates a trailing slash in the base URL', async () => {
    await run(makeProvider({ baseUrl: `${fake.url}/` }), { maxTokens: 64, temperature: 0 });
    const request = fake.lastRequest()!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.body).toMatchObject({ max_tokens: 64, temperature: 0 });
  });

  it('sends no Authorization header when no key is configured (Ollama, llama.cpp)', async () => {
    const outcome = await run(makeProvider({ apiKey: null }));
    expect(outcome.error).toBeNull();
    expect(fake.lastRequest()!.headers.authorization).toBeUndefined();
    await run(makeProvider({ apiKey: '   ' }));
    expect(fake.lastRequest()!.headers.authorization).toBeUndefined();
  });

  it('echoes through a reply computed from the request', async () => {
    fake.setScenario({ kind: 'stream', reply: (body) => `You said ${body.messages?.length} things` });
    const outcome = await run(makeProvider());
    expect(outcome.result!.text).toBe('You said 2 things');
  });

  it('reports null token counts when the server sends no usage, and falls back to the configured model', async () => {
    fake.setScenario({ kind: 'stream', reply: 'Short.', usage: 'none', model: null });
    const outcome = await run(makeProvider());
    expect(outcome.result).toEqual({
      text: 'Short.',
      promptTokens: null,
      completionTokens: null,
      finishReason: 'stop',
      model: 'configured-model',
    });
  });

  it('reports the finish reason the server gave (length)', async () => {
    fake.setScenario({ kind: 'stream', reply: 'Cut off mid', finishReason: 'length' });
    expect((await run(makeProvider())).result).toMatchObject({ text: 'Cut off mid', finishReason: 'length' });
  });

  it('accepts a stream that ends after finish_reason without [DONE]', async () => {
    fake.setScenario({ kind: 'stream', reply: 'Done anyway.', sendDone: false });
    const outcome = await run(makeProvider());
    expect(outcome.error).toBeNull();
    expect(outcome.result).toMatchObject({ text: 'Done anyway.', finishReason: 'stop' });
  });

  it('reassembles multi-byte UTF-8 characters split across network writes', async () => {
    const reply = 'Ça va? 世界 🎉 naïve — Ωmega ✓ 안녕';
    fake.setScenario({ kind: 'stream', reply, chunkChars: 5, usage: 'none', splitAwkwardly: true, sliceDelayMs: 1 });
    const outcome = await run(makeProvider());
    expect(outcome.error).toBeNull();
    expect(textOf(outcome)).toBe(reply);
    expect(outcome.result!.text).toBe(reply);
    expect(textOf(outcome)).not.toContain('\uFFFD');
  });

  it('parses \\r\\n line endings and skips keep-alive comments', async () => {
    fake.setScenario({
      kind: 'stream',
      reply: 'Windows line endings work too.',
      lineEnding: '\r\n',
      keepAlive: true,
      writeSliceBytes: 64,
      splitAwkwardly: true,
      sliceDelayMs: 1,
    });
    const outcome = await run(makeProvider());
    expect(outcome.error).toBeNull();
    expect(outcome.result).toMatchObject({ text: 'Windows line endings work too.', finishReason: 'stop' });
  });

  it('ignores reasoning_content and empty deltas', async () => {
    fake.setScenario({ kind: 'stream', reply: 'The answer is 42.', reasoning: 'Let me think about this carefully first.' });
    const outcome = await run(makeProvider());
    expect(outcome.chunks.every((chunk) => chunk.text.length > 0)).toBe(true);
    expect(outcome.result!.text).toBe('The answer is 42.');
  });

  it('reads a whole JSON completion when the server ignores stream: true', async () => {
    fake.setScenario({ kind: 'json', reply: 'All at once.', usage: { prompt_tokens: 12, completion_tokens: 4 }, finishReason: 'stop' });
    const outcome = await run(makeProvider());
    expect(outcome.chunks.map((chunk) => chunk.text)).toEqual(['All at once.']);
    expect(outcome.result).toEqual({
      text: 'All at once.',
      promptTokens: 12,
      completionTokens: 4,
      finishReason: 'stop',
      model: 'fake-model-2025',
    });
  });

  it('retries once without stream_options when a strict server rejects it', async () => {
    fake.setScenario((body) =>
      body.stream_options
        ? {
            kind: 'error',
            status: 400,
            error: { message: 'Unrecognized request argument supplied: stream_options', type: 'invalid_request_error' },
          }
        : { kind: 'stream', reply: 'Second try.', usage: 'none' },
    );
    const outcome = await run(makeProvider());
    expect(outcome.error).toBeNull();
    expect(outcome.result!.text).toBe('Second try.');
    const bodies = fake.requests.map((request) => request.body);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).not.toHaveProperty('stream_options');
  });

  it('lets the caller stop early (break) and closes the upstream request', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two three four five six seven eight nine ten', delayMs: 30 });
    const pieces: string[] = [];
    for await (const chunk of makeProvider().stream({ messages: MESSAGES })) {
      pieces.push(chunk.text);
      if (pieces.length === 2) break;
    }
    expect(pieces).toEqual(['one ', 'two ']);
    expect(await closedWithin(fake.lastRequest()!.closed, 1_000)).toBe('client-closed');
  });
});

describe('OpenAiChatProvider errors', () => {
  it.each([
    [401, fakeErrors.unauthorized(`Incorrect API key provided: ${API_KEY}.`)],
    [403, fakeErrors.forbidden()],
  ])('maps %i to UNAVAILABLE saying the credentials were rejected, without quoting the key', async (status, scenario) => {
    fake.setScenario(scenario);
    const { error } = await run(makeProvider());
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status });
    expect(error!.message).toMatch(/rejected the credentials/);
  });

  it('maps 404 to UNAVAILABLE naming the model', async () => {
    fake.setScenario(fakeErrors.modelNotFound('configured-model'));
    const { error } = await run(makeProvider());
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 404 });
    expect(error!.message).toMatch(/configured-model/);
  });

  it('maps 400 (context too long) to VALIDATION_FAILED with the provider message, cut to 300 characters', async () => {
    fake.setScenario(fakeErrors.contextLength());
    const { error } = await run(makeProvider());
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(error!.message).toMatch(/maximum context length is 8192 tokens/);

    fake.setScenario(fakeErrors.contextLength(`Bad request for key ${API_KEY}: ${'x'.repeat(2_000)}`));
    const long = await run(makeProvider());
    expect(long.error!.code).toBe('VALIDATION_FAILED');
    expect(long.error!.message.length).toBeLessThan(400);
    expect(long.error!.message).toContain('[redacted]');
  });

  it('maps 429 to RATE_LIMITED and keeps Retry-After', async () => {
    fake.setScenario(fakeErrors.rateLimited(17));
    const { error } = await run(makeProvider());
    expect(error).toBeInstanceOf(OpenAiProviderError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryAfterSeconds: 17 });

    fake.setScenario(fakeErrors.rateLimited());
    const without = await run(makeProvider());
    expect(without.error).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: undefined });
  });

  it('maps an exhausted quota (429 insufficient_quota) to UNAVAILABLE rather than a retryable rate limit', async () => {
    fake.setScenario(fakeErrors.insufficientQuota());
    expect((await run(makeProvider())).error).toMatchObject({ code: 'UNAVAILABLE', status: 429 });
  });

  it.each([500, 502, 503])('maps %i to UNAVAILABLE', async (status) => {
    fake.setScenario(fakeErrors.serverError(status, `Internal error (request used key ${API_KEY})`));
    const { error } = await run(makeProvider());
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status });
  });

  it.each([
    [408, { kind: 'error', status: 408, error: { message: 'Request timeout' } } as const],
    [504, fakeErrors.gatewayTimeout()],
  ])('maps %i to TIMEOUT', async (status, scenario) => {
    fake.setScenario(scenario);
    expect((await run(makeProvider())).error).toMatchObject({ code: 'TIMEOUT', status });
  });

  it('quotes a plain-text error body and ignores an HTML one', async () => {
    fake.setScenario({ kind: 'error', status: 500, rawBody: 'llama runner process has terminated' });
    expect((await run(makeProvider())).error!.message).toMatch(/llama runner process has terminated/);
    fake.setScenario({ kind: 'error', status: 502, rawBody: '<html><body>Bad gateway</body></html>', contentType: 'text/html' });
    const html = await run(makeProvider());
    expect(html.error).toMatchObject({ code: 'UNAVAILABLE', status: 502 });
    expect(html.error!.message).not.toMatch(/<html>/);
  });

  it('turns an error object sent mid-stream into a ProviderError after yielding the text so far', async () => {
    fake.setScenario({
      kind: 'stream',
      reply: 'one two three four',
      interrupt: { afterChunks: 2, kind: 'error', error: { message: 'Upstream model crashed', code: 502 } },
    });
    const outcome = await run(makeProvider());
    expect(textOf(outcome)).toBe('one two ');
    expect(outcome.error).toMatchObject({ code: 'UNAVAILABLE' });
    expect(outcome.error!.message).toMatch(/Upstream model crashed/);
  });

  it('maps a mid-stream rate-limit error object to RATE_LIMITED', async () => {
    fake.setScenario({
      kind: 'stream',
      reply: 'a b',
      interrupt: { afterChunks: 0, kind: 'error', error: { message: 'Rate limit exceeded', code: 429 } },
    });
    expect((await run(makeProvider())).error).toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('turns malformed JSON in a data line into UNAVAILABLE', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two three', interrupt: { afterChunks: 1, kind: 'malformed' } });
    const outcome = await run(makeProvider());
    expect(textOf(outcome)).toBe('one ');
    expect(outcome.error).toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('reports a dropped connection as UNAVAILABLE after yielding the text so far', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two three four five', delayMs: 5, interrupt: { afterChunks: 3, kind: 'drop' } });
    const outcome = await run(makeProvider());
    expect(textOf(outcome)).toBe('one two three ');
    expect(outcome.error).toMatchObject({ code: 'UNAVAILABLE', message: "The AI provider's stream ended unexpectedly" });
  });

  it('reports a stream that ends cleanly without finish_reason or [DONE] as UNAVAILABLE', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two three', interrupt: { afterChunks: 2, kind: 'end' } });
    const outcome = await run(makeProvider());
    expect(textOf(outcome)).toBe('one two ');
    expect(outcome.error).toMatchObject({ code: 'UNAVAILABLE', message: "The AI provider's stream ended unexpectedly" });
  });

  it('reports a server that cannot be reached as UNAVAILABLE', async () => {
    const gone = await startFakeOpenAi();
    const url = gone.url;
    await gone.close();
    const { error } = await run(makeProvider({ baseUrl: url }));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: 'The AI provider could not be reached' });
  });

  it('reports an HTML page (wrong base URL) as UNAVAILABLE with a hint', async () => {
    fake.setScenario({ kind: 'error', status: 200, rawBody: '<!doctype html><title>Web UI</title>', contentType: 'text/html' });
    const { error } = await run(makeProvider());
    expect(error).toMatchObject({ code: 'UNAVAILABLE' });
    expect(error!.message).toMatch(/CHAT_API_BASE_URL/);
  });
});

describe('OpenAiChatProvider cancellation and time limits', () => {
  it('stops the upstream request and throws CANCELLED when the caller aborts mid-stream', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two three four five six seven eight nine ten', delayMs: 40 });
    const controller = new AbortController();
    const outcome = await run(makeProvider(), { signal: controller.signal }, (_text, index) => {
      if (index === 1) controller.abort();
    });
    expect(outcome.error).toMatchObject({ code: 'CANCELLED' });
    expect(textOf(outcome)).toBe('one two ');
    const request = fake.lastRequest()!;
    expect(await closedWithin(request.closed, 1_000)).toBe('client-closed');
    expect(request.sent.length).toBeLessThan(10);
  });

  it('aborts while waiting for the next chunk', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two', interrupt: { afterChunks: 1, kind: 'stall' } });
    const controller = new AbortController();
    const started = Date.now();
    const outcome = await run(makeProvider(), { signal: controller.signal }, () => setTimeout(() => controller.abort(), 50));
    expect(outcome.error).toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await closedWithin(fake.lastRequest()!.closed, 1_000)).toBe('client-closed');
  });

  it('aborts while waiting for the response headers', async () => {
    fake.setScenario({ kind: 'stream', reply: 'late', headersDelayMs: 1_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const outcome = await run(makeProvider(), { signal: controller.signal });
    expect(outcome.error).toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('throws CANCELLED without calling the provider when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await run(makeProvider(), { signal: controller.signal });
    expect(outcome.error).toMatchObject({ code: 'CANCELLED' });
    expect(fake.requests).toHaveLength(0);
  });

  it('times out when the response headers are too slow (connect timeout)', async () => {
    fake.setScenario({ kind: 'stream', reply: 'late', headersDelayMs: 1_000 });
    const started = Date.now();
    const outcome = await run(makeProvider({ connectTimeoutMs: 150 }));
    expect(outcome.error).toMatchObject({ code: 'TIMEOUT' });
    expect(outcome.error!.message).toMatch(/did not answer within 150 ms/);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('times out when the stream stalls (idle timeout) and closes the connection', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two three', interrupt: { afterChunks: 2, kind: 'stall' } });
    const started = Date.now();
    const outcome = await run(makeProvider({ idleTimeoutMs: 200 }));
    expect(textOf(outcome)).toBe('one two ');
    expect(outcome.error).toMatchObject({ code: 'TIMEOUT' });
    expect(outcome.error!.message).toMatch(/stopped sending/);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await closedWithin(fake.lastRequest()!.closed, 1_000)).toBe('client-closed');
  });

  it('times out a stream that keeps trickling past the total limit', async () => {
    fake.setScenario({ kind: 'stream', reply: 'word '.repeat(100), delayMs: 30 });
    const started = Date.now();
    const outcome = await run(makeProvider({ idleTimeoutMs: 1_000, totalTimeoutMs: 300 }));
    expect(outcome.chunks.length).toBeGreaterThan(2);
    expect(outcome.error).toMatchObject({ code: 'TIMEOUT' });
    expect(outcome.error!.message).toMatch(/took longer than 300 ms/);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('fake OpenAI server', () => {
  it('answers one JSON completion when the client does not ask to stream, and lists its model', async () => {
    fake.setScenario({ kind: 'stream', reply: 'Plain answer.' });
    const response = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ object: 'chat.completion', choices: [{ message: { content: 'Plain answer.' } }] });
    const models = await (await fetch(`${fake.url}/models`)).json();
    expect(models).toMatchObject({ object: 'list', data: [{ id: 'fake-model-2025' }] });
    const missing = await fetch(`${fake.url}/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'unknown_url' } });
  });

  it('requires the API key when started with one', async () => {
    const locked = await startFakeOpenAi({ apiKey: 'sk-locked-0000000000', scenario: { kind: 'stream', reply: 'ok' } });
    try {
      const denied = await run(makeProvider({ baseUrl: locked.url, apiKey: 'sk-wrong-0000000000' }));
      expect(denied.error).toMatchObject({ code: 'UNAVAILABLE', status: 401 });
      const allowed = await run(makeProvider({ baseUrl: locked.url, apiKey: 'sk-locked-0000000000' }));
      expect(allowed.result!.text).toBe('ok');
    } finally {
      await locked.close();
    }
  });

  it('stamps every streamed chunk with x_sent_at', async () => {
    fake.setScenario({ kind: 'stream', reply: 'a b c' });
    const response = await fetch(`${fake.url}/chat/completions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'x', messages: [], stream: true, stream_options: { include_usage: true } }),
    });
    const events = (await response.text()).split('\n\n').filter((event) => event.startsWith('data: {'));
    expect(events.length).toBeGreaterThanOrEqual(5); // role, 3 pieces, finish, usage
    for (const event of events) expect(JSON.parse(event.slice(6)).x_sent_at).toBeGreaterThan(Date.now() - 60_000);
  });
});

describe('readOpenAiChatConfig', () => {
  it('returns null when no provider is configured', () => {
    expect(readOpenAiChatConfig({})).toBeNull();
    expect(readOpenAiChatConfig({ CHAT_API_BASE_URL: '  ', CHAT_MODEL: 'x' })).toBeNull();
  });

  it('reads a full configuration', () => {
    expect(
      readOpenAiChatConfig({
        CHAT_API_BASE_URL: 'https://openrouter.ai/api/v1/',
        CHAT_API_KEY: ' sk-or-123 ',
        CHAT_MODEL: 'openai/gpt-4o-mini',
        CHAT_TEMPERATURE: '1.2',
        CHAT_MAX_REPLY_TOKENS: '256',
        CHAT_CONTEXT_TOKENS: '16384',
        CHAT_CONNECT_TIMEOUT_MS: '10000',
        CHAT_IDLE_TIMEOUT_MS: '20000',
        CHAT_TOTAL_TIMEOUT_MS: '120000',
      }),
    ).toEqual({
      baseUrl: 'https://openrouter.ai/api/v1',
      apiKey: 'sk-or-123',
      model: 'openai/gpt-4o-mini',
      temperature: 1.2,
      maxReplyTokens: 256,
      contextTokens: 16384,
      connectTimeoutMs: 10_000,
      idleTimeoutMs: 20_000,
      totalTimeoutMs: 120_000,
    });
  });

  it('applies defaults and needs no key for local servers', () => {
    expect(readOpenAiChatConfig({ CHAT_API_BASE_URL: 'http://127.0.0.1:11434/v1', CHAT_MODEL: 'llama3.2' })).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: null,
      model: 'llama3.2',
      temperature: 0.8,
      maxReplyTokens: 512,
      contextTokens: 8192,
      connectTimeoutMs: 30_000,
      idleTimeoutMs: 45_000,
      totalTimeoutMs: 300_000,
    });
  });

  it('strips a pasted /chat/completions suffix', () => {
    expect(readOpenAiChatConfig({ CHAT_API_BASE_URL: 'https://api.openai.com/v1/chat/completions', CHAT_MODEL: 'm' })!.baseUrl).toBe(
      'https://api.openai.com/v1',
    );
  });

  it.each([
    [{ CHAT_API_BASE_URL: 'https://api.openai.com/v1' }, /CHAT_MODEL must be set/],
    [{ CHAT_API_KEY: 'sk-x' }, /CHAT_API_BASE_URL/],
    [{ CHAT_API_BASE_URL: 'not a url', CHAT_MODEL: 'm' }, /CHAT_API_BASE_URL must be an http\(s\) URL/],
    [{ CHAT_API_BASE_URL: 'ftp://example.com/v1', CHAT_MODEL: 'm' }, /CHAT_API_BASE_URL must be an http\(s\) URL/],
    [
      { CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_TEMPERATURE: '2.5' },
      /CHAT_TEMPERATURE must be a number between 0 and 2, got "2.5"/,
    ],
    [{ CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_TEMPERATURE: 'warm' }, /CHAT_TEMPERATURE/],
    [
      { CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_MAX_REPLY_TOKENS: '12.5' },
      /CHAT_MAX_REPLY_TOKENS must be a whole number of at least 1, got "12.5"/,
    ],
    [
      { CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_CONTEXT_TOKENS: '0' },
      /CHAT_CONTEXT_TOKENS must be a whole number of at least 1, got "0"/,
    ],
    [{ CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_MAX_REPLY_TOKENS: '9000' }, /must be smaller than CHAT_CONTEXT_TOKENS/],
    [{ CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_IDLE_TIMEOUT_MS: '-5' }, /CHAT_IDLE_TIMEOUT_MS/],
    [{ CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_CONNECT_TIMEOUT_MS: 'soon' }, /CHAT_CONNECT_TIMEOUT_MS/],
    [{ CHAT_API_BASE_URL: 'http://x/v1', CHAT_MODEL: 'm', CHAT_TOTAL_TIMEOUT_MS: '1e9.5' }, /CHAT_TOTAL_TIMEOUT_MS/],
  ])('rejects invalid settings with a clear error (%o)', (env, message) => {
    expect(() => readOpenAiChatConfig(env)).toThrow(message);
  });

  it('never puts the key in a configuration error', () => {
    try {
      readOpenAiChatConfig({ CHAT_API_KEY: API_KEY });
      throw new Error('expected a configuration error');
    } catch (error) {
      expect((error as Error).message).not.toContain(API_KEY);
    }
  });

  it('builds a working provider', () => {
    const config = readOpenAiChatConfig({ CHAT_API_BASE_URL: fake.url, CHAT_MODEL: 'm', CHAT_CONTEXT_TOKENS: '2048' })!;
    const provider = new OpenAiChatProvider(config);
    expect(provider).toMatchObject({ kind: 'openai-compatible', isDemo: false, model: 'm', contextTokens: 2048, maxReplyTokens: 512 });
  });
});
