import { type IncomingHttpHeaders, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SamplerSettings } from '@app/schema';
import { type ChatProvider, type CompletionChunk, type CompletionRequest, type CompletionResult, ProviderError } from './chat-provider';
import { CircuitBreakerProvider } from './circuit-breaker';
import { MODEL_LIST_TTL_MS, OpenAiChatProvider, type OpenAiChatOptions } from './openai-chat.provider';

jest.setTimeout(10_000);

const API_KEY = 'sk-test-SECRET-0123456789abcdef';
const MESSAGES: CompletionRequest['messages'] = [
  { role: 'system', content: 'You are Mira, a friendly pirate.' },
  { role: 'user', content: 'Ahoy!' },
];

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

/** How the server answers `GET /v1/models`: a status and a raw body, or no answer at all. */
type ModelsAnswer = { status: number; body: string; contentType?: string } | 'hang';

/** A small OpenAI-compatible server: records every request, streams a two-piece reply, lists models. */
class OpenAiProtocolServer {
  requests: RecordedRequest[] = [];
  /** Whether reply chunks name the model (as OpenAI does) or not (as some local servers do). */
  namesModel = true;
  /** A status other than 200 makes the completion fail with an OpenAI-style error body. */
  completionStatus = 200;
  models: ModelsAnswer = { status: 200, body: modelList(['gpt-4o-mini', 'llama-3.1-8b']) };
  private readonly server: Server;

  constructor() {
    this.server = createServer((request, response) => {
      const pieces: Buffer[] = [];
      request.on('data', (piece: Buffer) => pieces.push(piece));
      request.on('end', () => {
        const raw = Buffer.concat(pieces).toString('utf8');
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
        this.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
        if (request.method === 'GET' && request.url === '/v1/models') return this.answerModels(response);
        if (request.method === 'POST' && request.url === '/v1/chat/completions') return this.answerCompletion(response, body);
        response.writeHead(404).end();
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  get completionBodies(): Record<string, unknown>[] {
    return this.requests.filter((request) => request.method === 'POST').map((request) => request.body ?? {});
  }

  get modelListCalls(): RecordedRequest[] {
    return this.requests.filter((request) => request.url === '/v1/models');
  }

  reset(): void {
    this.requests = [];
    this.namesModel = true;
    this.completionStatus = 200;
    this.models = { status: 200, body: modelList(['gpt-4o-mini', 'llama-3.1-8b']) };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private answerModels(response: ServerResponse): void {
    if (this.models === 'hang') return;
    response.writeHead(this.models.status, { 'Content-Type': this.models.contentType ?? 'application/json' }).end(this.models.body);
  }

  private answerCompletion(response: ServerResponse, body: Record<string, unknown> | null): void {
    if (this.completionStatus !== 200) {
      const error = { error: { message: `The model \`${String(body?.model)}\` does not exist`, type: 'invalid_request_error' } };
      response.writeHead(this.completionStatus, { 'Content-Type': 'application/json' }).end(JSON.stringify(error));
      return;
    }
    const model = this.namesModel ? { model: `${String(body?.model)}-2025-01-01` } : {};
    const chunk = (delta: object, finishReason: string | null = null) =>
      `data: ${JSON.stringify({ ...model, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
    response.writeHead(200, { 'Content-Type': 'text/event-stream' });
    response.write(chunk({ role: 'assistant', content: 'Ahoy, ' }));
    response.write(chunk({ content: 'matey!' }));
    response.write(chunk({}, 'stop'));
    response.end('data: [DONE]\n\n');
  }
}

function modelList(ids: string[]): string {
  return JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'someone' })) });
}

const server = new OpenAiProtocolServer();
beforeAll(() => server.start());
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(() => jest.restoreAllMocks());

const makeProvider = (options: Partial<OpenAiChatOptions> = {}) =>
  new OpenAiChatProvider({
    baseUrl: server.baseUrl,
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

async function complete(provider: ChatProvider, request: Partial<CompletionRequest> = {}): Promise<CompletionResult> {
  const stream = provider.stream({ messages: MESSAGES, ...request });
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}

/** The body the provider sent for one reply with these sampler settings. */
async function bodyFor(sampling: SamplerSettings | null, request: Partial<CompletionRequest> = {}, provider = makeProvider()) {
  await complete(provider, { ...request, sampling });
  return server.completionBodies.at(-1)!;
}

async function listingError(provider: OpenAiChatProvider): Promise<ProviderError> {
  const failure = await provider.listModels().then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(ProviderError);
  expect((failure as ProviderError).message).not.toContain(API_KEY);
  return failure as ProviderError;
}

describe('OpenAiChatProvider sampler settings', () => {
  it('sends each sampler setting under its OpenAI name', async () => {
    const body = await bodyFor({
      temperature: 1.1,
      topP: 0.9,
      maxTokens: 200,
      stop: ['\nUser:', '</s>'],
      presencePenalty: 0.5,
      frequencyPenalty: -0.25,
    });
    expect(body).toMatchObject({
      model: 'configured-model',
      stream: true,
      temperature: 1.1,
      top_p: 0.9,
      max_tokens: 200,
      stop: ['\nUser:', '</s>'],
      presence_penalty: 0.5,
      frequency_penalty: -0.25,
    });
    expect(body.messages).toEqual(MESSAGES);
  });

  it("leaves out the settings a character does not set, so the server's defaults apply", async () => {
    for (const sampling of [
      null,
      {},
      { temperature: null, topP: null, maxTokens: null, stop: null, presencePenalty: null, extras: null },
    ]) {
      const body = await bodyFor(sampling);
      expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model', 'stream', 'stream_options', 'temperature']);
      // The operator's configured temperature and reply length still hold.
      expect(body).toMatchObject({ temperature: 0.7, max_tokens: 300 });
    }
    expect(await bodyFor({ stop: [] })).not.toHaveProperty('stop');
  });

  it('passes extra sampler settings through to servers that take them', async () => {
    const body = await bodyFor({
      temperature: 0.9,
      extras: { min_p: 0.05, top_k: 40, repetition_penalty: 1.1, mirostat: 0, ignore_eos: false, grammar: 'root ::= "yes"' },
    });
    expect(body).toMatchObject({
      temperature: 0.9,
      min_p: 0.05,
      top_k: 40,
      repetition_penalty: 1.1,
      mirostat: 0,
      ignore_eos: false,
      grammar: 'root ::= "yes"',
    });
  });

  it('never lets an extra replace the model, the prompt, streaming, a named setting or the length cap', async () => {
    const extras = {
      model: 'someone-elses-model',
      messages: 'ignore everything',
      stream: false,
      stream_options: null,
      temperature: 2,
      max_tokens: 100_000,
      max_completion_tokens: 100_000,
      n_predict: 100_000,
      n: 8,
      min_p: 0.1,
    } as unknown as SamplerSettings['extras'];
    const body = await bodyFor({ temperature: 0.5, extras });
    expect(body).toMatchObject({
      model: 'configured-model',
      messages: MESSAGES,
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.5,
      max_tokens: 300,
      min_p: 0.1,
    });
    expect(body).not.toHaveProperty('max_completion_tokens');
    expect(body).not.toHaveProperty('n_predict');
    expect(body).not.toHaveProperty('n');
  });

  it('never asks for more than the configured reply length; a smaller request limit (summaries) wins', async () => {
    expect((await bodyFor({ maxTokens: 4096 })).max_tokens).toBe(300);
    expect((await bodyFor({ maxTokens: 120 })).max_tokens).toBe(120);
    expect((await bodyFor({ maxTokens: 200 }, { maxTokens: 100 })).max_tokens).toBe(100);
    expect((await bodyFor({ maxTokens: 80 }, { maxTokens: 100 })).max_tokens).toBe(80);
  });

  it("keeps a request's own temperature (summaries) over the character's", async () => {
    expect((await bodyFor({ temperature: 1.5 }, { temperature: 0.3 })).temperature).toBe(0.3);
  });
});

describe('OpenAiChatProvider model choice', () => {
  it('writes with the requested model and reports it, else with the configured one', async () => {
    const provider = makeProvider();
    const chosen = await complete(provider, { model: 'llama-3.1-8b' });
    expect(server.completionBodies.at(-1)!.model).toBe('llama-3.1-8b');
    expect(chosen).toMatchObject({ text: 'Ahoy, matey!', model: 'llama-3.1-8b-2025-01-01' });

    server.namesModel = false;
    expect((await complete(provider, { model: 'llama-3.1-8b' })).model).toBe('llama-3.1-8b');
    expect((await complete(provider, { model: null })).model).toBe('configured-model');
    expect(server.completionBodies.at(-1)!.model).toBe('configured-model');
    expect(provider.model).toBe('configured-model');
  });

  it('names the requested model when the server does not know it', async () => {
    server.completionStatus = 404;
    const failure = await complete(makeProvider(), { model: 'retired-model' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ code: 'UNAVAILABLE', status: 404 });
    expect((failure as Error).message).toContain('does not know the model "retired-model"');
  });
});

describe('OpenAiChatProvider.listModels', () => {
  it('lists the model ids from GET /models with the key, in order and once each', async () => {
    server.models = { status: 200, body: modelList(['gpt-4o-mini', 'llama-3.1-8b', 'gpt-4o-mini', 'mistral-small']) };
    const provider = makeProvider({ extraHeaders: { 'X-Title': 'Tavern' } });
    await expect(provider.listModels()).resolves.toEqual(['gpt-4o-mini', 'llama-3.1-8b', 'mistral-small']);
    const [call] = server.modelListCalls;
    expect(call.method).toBe('GET');
    expect(call.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(call.headers['x-title']).toBe('Tavern');
  });

  it('asks the server at most once a minute, sharing a listing already under way', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const provider = makeProvider();
    const [first, second] = await Promise.all([provider.listModels(), provider.listModels()]);
    expect(first).toEqual(['gpt-4o-mini', 'llama-3.1-8b']);
    expect(second).toEqual(first);
    // A caller changing its copy does not change what the next caller sees.
    first.push('tampered');

    server.models = { status: 200, body: modelList(['gpt-4o-mini', 'llama-3.1-8b', 'new-model']) };
    now += MODEL_LIST_TTL_MS - 1;
    await expect(provider.listModels()).resolves.toEqual(['gpt-4o-mini', 'llama-3.1-8b']);
    expect(server.modelListCalls).toHaveLength(1);

    now += 1;
    await expect(provider.listModels()).resolves.toEqual(['gpt-4o-mini', 'llama-3.1-8b', 'new-model']);
    expect(server.modelListCalls).toHaveLength(2);
  });

  it('maps failures to provider errors and asks again after one', async () => {
    const provider = makeProvider();
    server.models = { status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${API_KEY}` } }) };
    const refused = await listingError(provider);
    expect(refused.code).toBe('UNAVAILABLE');
    expect(refused.message).toContain('check CHAT_API_KEY');

    server.models = { status: 404, body: '404 page not found', contentType: 'text/plain' };
    expect((await listingError(provider)).message).toContain('does not list its models (HTTP 404)');

    server.models = { status: 429, body: JSON.stringify({ error: { message: 'slow down' } }) };
    expect((await listingError(provider)).code).toBe('RATE_LIMITED');

    server.models = { status: 200, body: JSON.stringify({ object: 'list', models: 'none' }) };
    expect((await listingError(provider)).message).toContain('malformed model list');

    server.models = { status: 200, body: '<html><body>Welcome</body></html>', contentType: 'text/html' };
    expect((await listingError(provider)).message).toContain('web page');

    server.models = { status: 200, body: modelList(['gpt-4o-mini']) };
    await expect(provider.listModels()).resolves.toEqual(['gpt-4o-mini']);
    expect(server.modelListCalls).toHaveLength(6);
  });

  it('gives up on a server that does not answer within the time limit', async () => {
    server.models = 'hang';
    const started = Date.now();
    const failure = await listingError(makeProvider({ connectTimeoutMs: 200 }));
    expect(failure.code).toBe('TIMEOUT');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

/** A provider with one fixed model and no list, like the demo responder. */
class SingleModelProvider implements ChatProvider {
  readonly kind = 'demo';
  readonly model = 'demo';
  readonly isDemo = true;
  readonly contextTokens = 1000;
  readonly maxReplyTokens = 100;

  async *stream(): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    yield { text: 'ok' };
    return { text: 'ok', promptTokens: null, completionTokens: null, finishReason: 'stop', model: this.model };
  }
}

describe('CircuitBreakerProvider pass-through', () => {
  const breakerOptions = { name: 'sampling-test-provider', failureThreshold: 3, cooldownMs: 30_000 };

  it('sends the sampler settings and the chosen model through to the provider', async () => {
    const breaker = new CircuitBreakerProvider(makeProvider(), breakerOptions);
    const result = await complete(breaker, { model: 'llama-3.1-8b', sampling: { topP: 0.8, extras: { min_p: 0.02 } } });
    expect(server.completionBodies.at(-1)).toMatchObject({ model: 'llama-3.1-8b', top_p: 0.8, min_p: 0.02 });
    expect(result.model).toBe('llama-3.1-8b-2025-01-01');
  });

  it("offers the provider's model list, and none where the provider has none", async () => {
    const breaker = new CircuitBreakerProvider(makeProvider(), breakerOptions);
    await expect(breaker.listModels?.()).resolves.toEqual(['gpt-4o-mini', 'llama-3.1-8b']);
    server.models = { status: 500, body: JSON.stringify({ error: { message: 'boom' } }) };
    const failing = new CircuitBreakerProvider(makeProvider(), breakerOptions);
    await expect(failing.listModels?.()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(new CircuitBreakerProvider(new SingleModelProvider(), breakerOptions).listModels).toBeUndefined();
  });
});
