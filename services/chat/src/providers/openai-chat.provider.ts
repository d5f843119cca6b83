import {
  Environment,
  type UpstreamError,
  type UpstreamErrorKind,
  UpstreamExchange,
  type UpstreamWording,
  decimal,
  describeErrorObject,
  integer,
  isJsonObject,
  oneOf,
  normaliseApiBaseUrl,
  providerErrorCode,
  stripUndefined,
  text,
  tryParseJson,
  withDetail,
} from '@app/kit';
import {
  type ChatProvider,
  type CompletionChunk,
  type CompletionRequest,
  type CompletionResult,
  ProviderError,
  type ProviderOrigin,
} from './chat-provider';
import { type SseEvent, SseParser } from './sse';

/**
 * A streaming client for any OpenAI-compatible `POST /chat/completions` endpoint: OpenAI, OpenRouter,
 * Ollama (`/v1`), llama.cpp's server, vLLM, KoboldCpp (`/v1`) and LM Studio. It needs nothing but Node's
 * fetch. The exchange itself (time limits, abort, bounded reads, status mapping, redaction) is kit's
 * UpstreamExchange; failures become ProviderError with the platform's codes; the API key never appears in an error.
 */

export const DEFAULT_TEMPERATURE = 0.8;
export const DEFAULT_MAX_REPLY_TOKENS = 512;
export const DEFAULT_CONTEXT_TOKENS = 8192;
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 5 * 60_000;

/** A whole (non-streamed) completion, or a model list (OpenRouter's describes hundreds), is read up to this size. */
const MAX_JSON_BODY = 8 * 1024 * 1024;
/** How long a model list is reused: members pick models far more often than providers add them. */
export const MODEL_LIST_TTL_MS = 60_000;
/**
 * Body fields a sampler extra never sets: the ones this adapter writes, and the ones that would lift the reply
 * length cap (llama.cpp's `n_predict` beats `max_tokens`) or multiply the work (`n`, `best_of`).
 */
const RESERVED_BODY_KEYS = new Set([
  'model',
  'messages',
  'stream',
  'stream_options',
  'temperature',
  'top_p',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'max_tokens',
  'max_completion_tokens',
  'n_predict',
  'num_predict',
  'max_length',
  'max_new_tokens',
  'n',
  'best_of',
  'tools',
  'tool_choice',
  'functions',
  'function_call',
  'user',
]);
const STREAM_ENDED = "The AI provider's stream ended unexpectedly";

const WORDING: UpstreamWording = {
  provider: 'The AI provider',
  cancelled: 'The reply was cancelled',
  idleTimeout: (limit) => `The AI provider stopped sending the reply for ${limit}`,
  totalTimeout: (limit) => `The AI provider's reply took longer than ${limit}`,
  urlHint: 'check CHAT_API_BASE_URL (it usually ends in /v1)',
};
const MODEL_LIST_WORDING: UpstreamWording = {
  ...WORDING,
  cancelled: 'Listing the models was cancelled',
  idleTimeout: (limit) => `The AI provider stopped sending its model list for ${limit}`,
  totalTimeout: (limit) => `The AI provider's model list took longer than ${limit}`,
};

export interface OpenAiChatConfig {
  /** e.g. `https://api.openai.com/v1`, `https://openrouter.ai/api/v1`, `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; null for local servers that need none. */
  apiKey: string | null;
  model: string;
  temperature: number;
  maxReplyTokens: number;
  contextTokens: number;
  /** Time allowed until the response headers arrive. */
  connectTimeoutMs: number;
  /** Longest silence allowed between two pieces of the response body. */
  idleTimeoutMs: number;
  /** Time allowed for the whole exchange. */
  totalTimeoutMs: number;
  /** Added to every request, e.g. OpenRouter's `HTTP-Referer` and `X-Title`. */
  extraHeaders?: Record<string, string>;
  /** Found on this computer at start rather than configured (absent: configured). */
  origin?: ProviderOrigin;
}

/** What the constructor takes: the base URL and model, everything else has a default. */
export type OpenAiChatOptions = Pick<OpenAiChatConfig, 'baseUrl' | 'model'> & Partial<Omit<OpenAiChatConfig, 'baseUrl' | 'model'>>;

/** A ProviderError that may carry how long to wait before retrying (from `Retry-After`). */
export class OpenAiProviderError extends ProviderError {
  /** The upstream failure it came from (`auth`, `quota`…), which its code alone does not tell apart; for operators' metrics. */
  upstreamKind?: UpstreamErrorKind;

  constructor(
    code: ProviderError['code'],
    message: string,
    status?: number,
    /** Seconds from the provider's `Retry-After` (or `retry-after-ms`) header, when it sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message, status);
  }
}

interface ChunkPayload {
  model?: unknown;
  object?: unknown;
  message?: unknown;
  error?: unknown;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  choices?: { delta?: { content?: unknown } | null; message?: { content?: unknown } | null; text?: unknown; finish_reason?: unknown }[];
}

export class OpenAiChatProvider implements ChatProvider {
  readonly kind = 'openai-compatible';
  readonly isDemo = false;
  readonly config: Readonly<OpenAiChatConfig>;
  private readonly endpoint: string;
  private modelList: { ids: Promise<string[]>; fetchedAt: number } | null = null;

  constructor(options: OpenAiChatOptions) {
    if (!options.model?.trim()) throw new Error('The chat provider needs a model name');
    this.config = Object.freeze({
      temperature: DEFAULT_TEMPERATURE,
      maxReplyTokens: DEFAULT_MAX_REPLY_TOKENS,
      contextTokens: DEFAULT_CONTEXT_TOKENS,
      connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
      idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
      totalTimeoutMs: DEFAULT_TOTAL_TIMEOUT_MS,
      ...stripUndefined(options),
      baseUrl: normaliseChatBaseUrl(options.baseUrl),
      apiKey: options.apiKey?.trim() || null,
    });
    this.endpoint = `${this.config.baseUrl}/chat/completions`;
  }

  get model(): string {
    return this.config.model;
  }
  get contextTokens(): number {
    return this.config.contextTokens;
  }
  get maxReplyTokens(): number {
    return this.config.maxReplyTokens;
  }
  get origin(): ProviderOrigin | undefined {
    return this.config.origin;
  }

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const call = this.openExchange(WORDING, request.signal);
    const model = request.model?.trim() || this.config.model;
    try {
      call.start();
      const body = this.requestBody(request, model);
      let response = await this.post(call, body);
      if (response.status === 400) {
        const failure = await this.httpError(call, response, model);
        // A few strict servers and proxies reject the (optional) usage request: retry once without it.
        if (!/stream_options|include_usage/i.test(failure.message)) throw failure;
        delete body.stream_options;
        response = await this.post(call, body);
      }
      if (!response.ok) throw await this.httpError(call, response, model);
      const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
      if (contentType.includes('json')) return yield* this.readJson(call, response, model);
      if (contentType.includes('text/html')) throw call.webPageFailure(response.status);
      return yield* this.readEventStream(call, response, model);
    } catch (error) {
      throw error instanceof ProviderError && !call.cause ? error : toProviderError(call.failure(error));
    } finally {
      call.dispose();
    }
  }

  /** The ids `GET /models` lists, reused for MODEL_LIST_TTL_MS; a failed listing is asked again next time. */
  listModels(): Promise<string[]> {
    const cached = this.modelList;
    if (cached && Date.now() - cached.fetchedAt < MODEL_LIST_TTL_MS) return cached.ids.then((ids) => [...ids]);
    const entry = { ids: this.fetchModelIds(), fetchedAt: Date.now() };
    this.modelList = entry;
    entry.ids.catch(() => {
      if (this.modelList === entry) this.modelList = null;
    });
    return entry.ids.then((ids) => [...ids]);
  }

  private async fetchModelIds(): Promise<string[]> {
    const call = this.openExchange(MODEL_LIST_WORDING);
    try {
      call.start();
      const response = await call.fetch(`${this.config.baseUrl}/models`, { method: 'GET', headers: this.headers('application/json') });
      if (!response.ok) throw await this.modelListError(call, response);
      if ((response.headers.get('content-type') ?? '').toLowerCase().includes('text/html')) throw call.webPageFailure(response.status);
      const payload = await call.readJson(response, {
        maxBytes: MAX_JSON_BODY,
        brokenMessage: "The AI provider's model list ended unexpectedly",
      });
      const ids = modelIdsOf(payload);
      if (!ids) throw new OpenAiProviderError('UNAVAILABLE', 'The AI provider sent a malformed model list', response.status);
      return ids;
    } catch (error) {
      throw error instanceof ProviderError && !call.cause ? error : toProviderError(call.failure(error));
    } finally {
      call.dispose();
    }
  }

  private openExchange(wording: UpstreamWording, signal?: AbortSignal): UpstreamExchange {
    const { connectTimeoutMs, idleTimeoutMs, totalTimeoutMs, apiKey } = this.config;
    return new UpstreamExchange({ wording, connectTimeoutMs, idleTimeoutMs, totalTimeoutMs, signal, secrets: apiKey ? [apiKey] : [] });
  }

  /**
   * The chat-completions body: the sampler settings a request carries (fields left out take the server's defaults),
   * the reply length never above the configured cap (or the request's own, smaller one), extras never over our fields.
   */
  private requestBody(request: CompletionRequest, model: string): Record<string, unknown> {
    const sampling = request.sampling ?? {};
    const replyLimit = request.maxTokens ?? this.config.maxReplyTokens;
    const named: Record<string, unknown> = {
      model,
      messages: request.messages.map(({ role, content }) => ({ role, content })),
      stream: true,
      temperature: request.temperature ?? sampling.temperature ?? this.config.temperature,
      top_p: sampling.topP,
      max_tokens: Math.min(sampling.maxTokens ?? replyLimit, replyLimit),
      stop: sampling.stop?.length ? [...sampling.stop] : null,
      presence_penalty: sampling.presencePenalty,
      frequency_penalty: sampling.frequencyPenalty,
      stream_options: { include_usage: true },
    };
    const extras = Object.entries(sampling.extras ?? {}).filter(([key, value]) => !RESERVED_BODY_KEYS.has(key) && value != null);
    return { ...Object.fromEntries(extras), ...Object.fromEntries(Object.entries(named).filter(([, value]) => value != null)) };
  }

  private headers(accept: string): Record<string, string> {
    const headers: Record<string, string> = { ...this.config.extraHeaders, 'Content-Type': 'application/json', Accept: accept };
    if (this.config.apiKey) headers.Authorization = `Bearer ${this.config.apiKey}`;
    return headers;
  }

  private post(call: UpstreamExchange, body: unknown): Promise<Response> {
    return call.fetch(this.endpoint, { method: 'POST', headers: this.headers('text/event-stream'), body: JSON.stringify(body) });
  }

  private async *readEventStream(
    call: UpstreamExchange,
    response: Response,
    model: string,
  ): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const parser = new SseParser();
    const state = {
      text: '',
      model: '',
      promptTokens: null as number | null,
      completionTokens: null as number | null,
      finishReason: null as string | null,
      done: false,
    };

    let sentAt: number | undefined;
    const handle = (data: string, eventType: string): string | null => {
      if (data.trim() === '[DONE]') {
        state.done = true;
        return null;
      }
      const payloads = parsePayloads(data);
      if (!payloads) throw new OpenAiProviderError('UNAVAILABLE', 'The AI provider sent a malformed stream', response.status);
      let text = '';
      for (const payload of payloads) {
        if (eventType === 'error' || payload.error != null || payload.object === 'error') {
          throw this.streamError(call, payload, response.status);
        }
        if (typeof payload.model === 'string' && payload.model) state.model = payload.model;
        readUsage(payload, state);
        // A provider-side send timestamp (our fake server adds one) lets the benchmark measure platform latency.
        const stamp = (payload as { x_sent_at?: unknown }).x_sent_at;
        if (typeof stamp === 'number') sentAt = stamp;
        const choice = Array.isArray(payload.choices) ? payload.choices[0] : undefined;
        if (!choice) continue;
        const piece = contentText(choice.delta?.content) ?? contentText(choice.message?.content) ?? contentText(choice.text);
        if (piece) text += piece;
        if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
          if (choice.finish_reason === 'error') throw this.streamError(call, payload, response.status);
          state.finishReason = choice.finish_reason;
        }
      }
      return text || null;
    };
    function* chunksOf(events: SseEvent[]): Generator<CompletionChunk, void, void> {
      for (const event of events) {
        const piece = handle(event.data, event.event);
        if (piece) {
          state.text += piece;
          yield sentAt === undefined ? { text: piece } : { text: piece, sentAt };
        }
        if (state.done) return;
      }
    }

    // A connection that breaks after the model has finished is a normal end.
    const pieces = call.pieces(response, { brokenMessage: STREAM_ENDED, brokenIsEnd: () => state.finishReason !== null });
    for await (const bytes of pieces) {
      yield* chunksOf(parser.push(bytes));
      if (state.done) break;
    }
    if (!state.done) yield* chunksOf(parser.end());
    if (!state.done && state.finishReason === null) {
      throw new OpenAiProviderError('UNAVAILABLE', STREAM_ENDED, response.status);
    }
    return {
      text: state.text,
      promptTokens: state.promptTokens,
      completionTokens: state.completionTokens,
      finishReason: state.finishReason,
      model: state.model || model,
    };
  }

  /** The server ignored `stream: true` and sent the whole completion at once. */
  private async *readJson(
    call: UpstreamExchange,
    response: Response,
    model: string,
  ): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const payload = (await call.readJson(response, {
      maxBytes: MAX_JSON_BODY,
      brokenMessage: "The AI provider's response ended unexpectedly",
    })) as ChunkPayload;
    if (payload.error != null || payload.object === 'error') throw this.streamError(call, payload, response.status);
    const choice = Array.isArray(payload.choices) ? payload.choices[0] : undefined;
    if (!choice) throw new OpenAiProviderError('UNAVAILABLE', 'The AI provider sent a response without a reply', response.status);
    const text = contentText(choice.message?.content) ?? contentText(choice.delta?.content) ?? contentText(choice.text) ?? '';
    const state = { promptTokens: null as number | null, completionTokens: null as number | null };
    readUsage(payload, state);
    if (text) yield { text };
    return {
      text,
      promptTokens: state.promptTokens,
      completionTokens: state.completionTokens,
      finishReason: typeof choice.finish_reason === 'string' && choice.finish_reason ? choice.finish_reason : null,
      model: typeof payload.model === 'string' && payload.model ? payload.model : model,
    };
  }

  /** Maps a non-2xx answer to a ProviderError; kit maps the statuses, this adds what only this protocol says. */
  private async httpError(call: UpstreamExchange, response: Response, model: string): Promise<OpenAiProviderError> {
    const failure = await call.httpFailure(response);
    if (failure.kind === 'auth') return credentialsRefused(failure);
    if (failure.status === 404) {
      const summary = `The AI provider does not know the model "${call.quote(model)}" or the URL (HTTP 404)`;
      return toProviderError(failure, withDetail(summary, failure.detail));
    }
    return toProviderError(failure);
  }

  private async modelListError(call: UpstreamExchange, response: Response): Promise<OpenAiProviderError> {
    const failure = await call.httpFailure(response);
    if (failure.kind === 'auth') return credentialsRefused(failure);
    // Some local servers serve chat completions but no model list.
    if (failure.status === 404 || failure.status === 405) {
      return toProviderError(failure, withDetail(`The AI provider does not list its models (HTTP ${failure.status})`, failure.detail));
    }
    return toProviderError(failure);
  }

  /** An `error` object sent inside a 200 stream (OpenRouter, vLLM, Ollama, llama.cpp do this). */
  private streamError(call: UpstreamExchange, payload: ChunkPayload, httpStatus: number): OpenAiProviderError {
    const info = describeErrorObject(payload.error ?? payload);
    const quoted = call.quote(info.message);
    const status = Number.parseInt(info.code ?? '', 10);
    if (status === 429)
      return new OpenAiProviderError('RATE_LIMITED', withDetail('The AI provider is rate limiting requests', quoted), 429);
    if (status === 400 || status === 413) {
      return new OpenAiProviderError('VALIDATION_FAILED', withDetail('The AI provider rejected the request', quoted), status);
    }
    if (status === 408 || status === 504)
      return new OpenAiProviderError('TIMEOUT', withDetail('The AI provider timed out', quoted), status);
    return new OpenAiProviderError('UNAVAILABLE', withDetail('The AI provider reported an error during the reply', quoted), httpStatus);
  }
}

/** An upstream failure as this adapter's ProviderError, in kit's words or the adapter's own. */
function toProviderError(failure: UpstreamError, message = failure.message): OpenAiProviderError {
  const error = new OpenAiProviderError(providerErrorCode(failure.kind), message, failure.status, failure.retryAfterSeconds);
  error.upstreamKind = failure.kind;
  if (failure.cause !== undefined) (error as Error).cause = failure.cause;
  return error;
}

function credentialsRefused(failure: UpstreamError): OpenAiProviderError {
  return toProviderError(failure, `The AI provider rejected the credentials (HTTP ${failure.status}); check CHAT_API_KEY`);
}

/** The model ids of an OpenAI-style list (`{ data: [{ id }] }`), in the provider's order, once each; null when malformed. */
function modelIdsOf(payload: Record<string, unknown>): string[] | null {
  if (!Array.isArray(payload.data)) return null;
  const ids = new Set<string>();
  for (const entry of payload.data) {
    if (isJsonObject(entry) && typeof entry.id === 'string' && entry.id.trim()) ids.add(entry.id.trim());
  }
  return [...ids];
}

/** One JSON payload per event; tolerates servers that put several `data:` lines of JSON in one event. */
function parsePayloads(data: string): ChunkPayload[] | null {
  const whole = tryParseJson(data);
  if (isJsonObject(whole)) return [whole as ChunkPayload];
  if (!data.includes('\n')) return null;
  const payloads: ChunkPayload[] = [];
  for (const line of data.split('\n')) {
    if (!line.trim() || line.trim() === '[DONE]') continue;
    const parsed = tryParseJson(line);
    if (!isJsonObject(parsed)) return null;
    payloads.push(parsed as ChunkPayload);
  }
  return payloads;
}

/** Message content as text: a string, or (some servers) an array of `{ type: 'text', text }` parts. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const text = content.map((part) => (isJsonObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
    return text || null;
  }
  return null;
}

function readUsage(payload: ChunkPayload, state: { promptTokens: number | null; completionTokens: number | null }): void {
  const usage = payload.usage;
  if (!isJsonObject(usage)) return;
  if (typeof usage.prompt_tokens === 'number' && Number.isFinite(usage.prompt_tokens)) state.promptTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number' && Number.isFinite(usage.completion_tokens)) {
    state.completionTokens = usage.completion_tokens;
  }
}

/** Drops trailing slashes and a pasted `/chat/completions`; rejects anything but http(s) URLs. */
const normaliseChatBaseUrl = (raw: string) =>
  normaliseApiBaseUrl(raw, /\/chat\/completions$/i, 'The chat provider base URL must be an http(s) URL such as https://api.openai.com/v1');

const MS = { min: 1 };

/** The OpenAI-compatible provider's settings (the README's configuration table comes from here). */
export const chatProviderEnvironment = new Environment('chat', {
  CHAT_PROVIDER: oneOf(['openai', 'demo'], null, {
    defaultText: 'unset (chosen from the settings below)',
    meaning:
      '`openai` (an OpenAI-compatible API at `CHAT_API_BASE_URL`) or `demo` (the offline demo responder, not AI). Unset: `CHAT_API_BASE_URL` selects the API, else `npm start` looks for Ollama, LM Studio, llama.cpp or vLLM on this computer, else the demo answers. Set it, or `CHAT_API_BASE_URL`, to skip that search.',
  }),
  CHAT_PROVIDER_SOURCE: oneOf(['configured', 'detected'], 'configured', {
    meaning: 'Shown to members with the model: `detected` when `npm start` found the server on this computer (it sets this itself).',
  }),
  CHAT_PROVIDER_SERVER: text(null, {
    meaning: 'The server product shown to members with the model (e.g. `Ollama`); `npm start` sets it when it finds one.',
  }),
  CHAT_API_BASE_URL: text(null, {
    defaultText: 'unset (demo responder)',
    meaning:
      'Base URL of an OpenAI-compatible chat-completions API, e.g. `https://api.openai.com/v1`; must be an http(s) URL (a trailing `/` or a pasted `/chat/completions` is dropped). Unset: the offline demo responder answers (see [AI chat providers](#ai-chat-providers)).',
  }),
  CHAT_API_KEY: text(null, {
    secret: true,
    meaning:
      'Sent as `Authorization: Bearer`; leave unset for local servers that need none. Set without `CHAT_API_BASE_URL`, the chat process refuses to start. Never logged or quoted in errors.',
  }),
  CHAT_MODEL: text(null, {
    defaultText: 'none; required with `CHAT_API_BASE_URL`',
    meaning: "Model name sent to the provider (e.g. `gpt-4o-mini`, or what your local server serves); shown as the reply's `model`.",
  }),
  CHAT_TEMPERATURE: decimal(DEFAULT_TEMPERATURE, { min: 0, max: 2, meaning: 'Sampling temperature, a number from 0 to 2.' }),
  CHAT_MAX_REPLY_TOKENS: integer(DEFAULT_MAX_REPLY_TOKENS, {
    min: 1,
    meaning: '`max_tokens` of a reply; smaller than `CHAT_CONTEXT_TOKENS`.',
  }),
  CHAT_CONTEXT_TOKENS: integer(DEFAULT_CONTEXT_TOKENS, {
    min: 1,
    meaning: "The model's context window; the prompt (character, rolling summary, recent turns) is cut to fit it with room for the reply.",
  }),
  CHAT_CONNECT_TIMEOUT_MS: integer(DEFAULT_CONNECT_TIMEOUT_MS, {
    ...MS,
    meaning: "Time allowed until the provider's response headers arrive.",
  }),
  CHAT_IDLE_TIMEOUT_MS: integer(DEFAULT_IDLE_TIMEOUT_MS, {
    ...MS,
    meaning: 'Longest silence allowed between two pieces of a streamed reply.',
  }),
  CHAT_TOTAL_TIMEOUT_MS: integer(DEFAULT_TOTAL_TIMEOUT_MS, { ...MS, meaning: 'Time allowed for a whole reply.' }),
});

/**
 * Reads the chat provider settings from the environment. Returns null when no provider is configured
 * (`CHAT_API_BASE_URL` unset or empty); throws an Error naming the variable when a setting is invalid.
 */
export function readOpenAiChatConfig(env: NodeJS.ProcessEnv): OpenAiChatConfig | null {
  const vars = chatProviderEnvironment.parse(env);
  const apiKey = vars.CHAT_API_KEY;
  if (!vars.CHAT_API_BASE_URL) {
    if (apiKey) {
      throw new Error(
        'CHAT_API_KEY is set but CHAT_API_BASE_URL is not: set CHAT_API_BASE_URL (e.g. https://api.openai.com/v1) to enable the AI provider',
      );
    }
    return null;
  }
  let baseUrl: string;
  try {
    baseUrl = normaliseChatBaseUrl(vars.CHAT_API_BASE_URL);
  } catch {
    throw new Error(
      'CHAT_API_BASE_URL must be an http(s) URL such as https://api.openai.com/v1, https://openrouter.ai/api/v1 or http://127.0.0.1:11434/v1',
    );
  }
  const model = vars.CHAT_MODEL;
  if (!model) {
    throw new Error('CHAT_MODEL must be set when CHAT_API_BASE_URL is set (e.g. gpt-4o-mini, or the model name your local server serves)');
  }
  const { CHAT_MAX_REPLY_TOKENS: maxReplyTokens, CHAT_CONTEXT_TOKENS: contextTokens } = vars;
  // Only a provider found at start (or named by the operator) carries an origin; absent means configured, no name.
  const origin: ProviderOrigin | null =
    vars.CHAT_PROVIDER_SOURCE === 'detected' || vars.CHAT_PROVIDER_SERVER
      ? { source: vars.CHAT_PROVIDER_SOURCE, server: vars.CHAT_PROVIDER_SERVER }
      : null;
  if (maxReplyTokens >= contextTokens) {
    throw new Error(`CHAT_MAX_REPLY_TOKENS (${maxReplyTokens}) must be smaller than CHAT_CONTEXT_TOKENS (${contextTokens})`);
  }
  return {
    baseUrl,
    apiKey,
    model,
    temperature: vars.CHAT_TEMPERATURE,
    maxReplyTokens,
    contextTokens,
    connectTimeoutMs: vars.CHAT_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: vars.CHAT_IDLE_TIMEOUT_MS,
    totalTimeoutMs: vars.CHAT_TOTAL_TIMEOUT_MS,
    ...(origin ? { origin } : {}),
  };
}
