import { type ChatProvider, type CompletionChunk, type CompletionRequest, type CompletionResult, ProviderError } from './chat-provider';
import { SseParser } from './sse';

/**
 * A streaming client for any OpenAI-compatible `POST /chat/completions` endpoint: OpenAI, OpenRouter,
 * Ollama (`/v1`), llama.cpp's server, vLLM, KoboldCpp (`/v1`) and LM Studio. It needs nothing but Node's
 * fetch. Failures become ProviderError with the platform's codes; the API key never appears in an error.
 */

export const DEFAULT_TEMPERATURE = 0.8;
export const DEFAULT_MAX_REPLY_TOKENS = 512;
export const DEFAULT_CONTEXT_TOKENS = 8192;
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_IDLE_TIMEOUT_MS = 45_000;
export const DEFAULT_TOTAL_TIMEOUT_MS = 5 * 60_000;

/** Provider messages quoted in errors are cut to this many characters. */
const MAX_QUOTED_MESSAGE = 300;
/** Error bodies are read up to this size; a JSON (non-streamed) answer up to MAX_JSON_BODY. */
const MAX_ERROR_BODY = 64 * 1024;
const MAX_JSON_BODY = 8 * 1024 * 1024;

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
}

/** What the constructor takes: the base URL and model, everything else has a default. */
export type OpenAiChatOptions = Pick<OpenAiChatConfig, 'baseUrl' | 'model'> & Partial<Omit<OpenAiChatConfig, 'baseUrl' | 'model'>>;

/** A ProviderError that may carry how long to wait before retrying (from `Retry-After`). */
export class OpenAiProviderError extends ProviderError {
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

type AbortCause = 'cancelled' | 'connect' | 'idle' | 'total';

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
      baseUrl: normaliseBaseUrl(options.baseUrl),
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

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const call = new UpstreamCall(this.config, request.signal);
    try {
      call.start();
      const body: Record<string, unknown> = {
        model: this.config.model,
        messages: request.messages.map(({ role, content }) => ({ role, content })),
        stream: true,
        temperature: request.temperature ?? this.config.temperature,
        max_tokens: request.maxTokens ?? this.config.maxReplyTokens,
        stream_options: { include_usage: true },
      };
      let response = await call.post(this.endpoint, body);
      if (response.status === 400) {
        const failure = await this.httpError(call, response);
        // A few strict servers and proxies reject the (optional) usage request: retry once without it.
        if (!/stream_options|include_usage/i.test(failure.message)) throw failure;
        delete body.stream_options;
        response = await call.post(this.endpoint, body);
      }
      if (!response.ok) throw await this.httpError(call, response);
      const contentType = (response.headers.get('content-type') ?? '').toLowerCase();
      if (contentType.includes('json')) return yield* this.readJson(call, response);
      if (contentType.includes('text/html')) {
        throw new OpenAiProviderError(
          'UNAVAILABLE',
          'The AI provider answered with a web page instead of an API response; check CHAT_API_BASE_URL (it usually ends in /v1)',
          response.status,
        );
      }
      return yield* this.readEventStream(call, response);
    } catch (error) {
      throw call.toProviderError(error);
    } finally {
      call.dispose();
    }
  }

  private async *readEventStream(call: UpstreamCall, response: Response): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const parser = new SseParser();
    const state = {
      text: '',
      model: '',
      promptTokens: null as number | null,
      completionTokens: null as number | null,
      finishReason: null as string | null,
      done: false,
    };
    const reader = call.reader(response);

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
          throw this.streamError(payload, response.status);
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
          if (choice.finish_reason === 'error') throw this.streamError(payload, response.status);
          state.finishReason = choice.finish_reason;
        }
      }
      return text || null;
    };

    while (!state.done) {
      const next = await call.read(reader, "The AI provider's stream ended unexpectedly", state.finishReason !== null);
      const events = next === null ? parser.end() : parser.push(next);
      for (const event of events) {
        const piece = handle(event.data, event.event);
        if (piece) {
          state.text += piece;
          yield sentAt === undefined ? { text: piece } : { text: piece, sentAt };
        }
        if (state.done) break;
      }
      if (next === null) break;
    }
    if (!state.done && state.finishReason === null) {
      throw new OpenAiProviderError('UNAVAILABLE', "The AI provider's stream ended unexpectedly", response.status);
    }
    return {
      text: state.text,
      promptTokens: state.promptTokens,
      completionTokens: state.completionTokens,
      finishReason: state.finishReason,
      model: state.model || this.config.model,
    };
  }

  /** The server ignored `stream: true` and sent the whole completion at once. */
  private async *readJson(call: UpstreamCall, response: Response): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    const raw = await call.readText(response, MAX_JSON_BODY, "The AI provider's response ended unexpectedly");
    const payload = parseJson(raw) as ChunkPayload | undefined;
    if (!payload || typeof payload !== 'object') {
      throw new OpenAiProviderError('UNAVAILABLE', 'The AI provider sent a malformed response', response.status);
    }
    if (payload.error != null || payload.object === 'error') throw this.streamError(payload, response.status);
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
      model: typeof payload.model === 'string' && payload.model ? payload.model : this.config.model,
    };
  }

  /** Maps a non-2xx answer to a ProviderError, quoting the provider's message where that is safe and useful. */
  private async httpError(call: UpstreamCall, response: Response): Promise<OpenAiProviderError> {
    const status = response.status;
    let raw = '';
    try {
      raw = await call.readText(response, MAX_ERROR_BODY, '');
    } catch (error) {
      if (call.aborted) throw error;
      // The status alone still says what went wrong.
    }
    const contentType = response.headers.get('content-type') ?? '';
    const info = describeErrorBody(raw, contentType);
    const quoted = this.quote(info.message);
    const retryAfterSeconds = parseRetryAfter(response.headers);
    const make = (code: ProviderError['code'], message: string) => new OpenAiProviderError(code, message, status, retryAfterSeconds);

    if (status === 401 || status === 403) {
      // Never quote these: OpenAI's message echoes part of the key.
      return make('UNAVAILABLE', `The AI provider rejected the credentials (HTTP ${status}); check CHAT_API_KEY`);
    }
    if (status === 429) {
      if (/insufficient_quota|billing|credits/i.test(`${info.code ?? ''} ${info.type ?? ''}`)) {
        return make('UNAVAILABLE', withDetail('The AI provider account has no quota or credits left', quoted));
      }
      return make('RATE_LIMITED', withDetail('The AI provider is rate limiting requests', quoted));
    }
    if (status === 408 || status === 504 || status === 524) {
      return make('TIMEOUT', withDetail('The AI provider timed out', quoted));
    }
    if (status === 404) {
      return make(
        'UNAVAILABLE',
        withDetail(`The AI provider does not know the model "${this.quote(this.config.model)}" or the URL (HTTP 404)`, quoted),
      );
    }
    if (status === 400 || status === 413 || status === 422) {
      return make('VALIDATION_FAILED', quoted ? `The AI provider rejected the request: ${quoted}` : 'The AI provider rejected the request');
    }
    if (status === 402) {
      return make('UNAVAILABLE', withDetail('The AI provider account has no quota or credits left', quoted));
    }
    if (status >= 500) {
      return make('UNAVAILABLE', withDetail(`The AI provider failed (HTTP ${status})`, quoted));
    }
    return make('UNAVAILABLE', withDetail(`The AI provider refused the request (HTTP ${status})`, quoted));
  }

  /** An `error` object sent inside a 200 stream (OpenRouter, vLLM, Ollama, llama.cpp do this). */
  private streamError(payload: ChunkPayload, httpStatus: number): OpenAiProviderError {
    const info = describeErrorObject(payload.error ?? payload);
    const quoted = this.quote(info.message);
    const status = typeof info.code === 'number' ? info.code : Number.parseInt(String(info.code ?? ''), 10);
    if (status === 429)
      return new OpenAiProviderError('RATE_LIMITED', withDetail('The AI provider is rate limiting requests', quoted), 429);
    if (status === 400 || status === 413) {
      return new OpenAiProviderError('VALIDATION_FAILED', withDetail('The AI provider rejected the request', quoted), status);
    }
    if (status === 408 || status === 504)
      return new OpenAiProviderError('TIMEOUT', withDetail('The AI provider timed out', quoted), status);
    return new OpenAiProviderError('UNAVAILABLE', withDetail('The AI provider reported an error during the reply', quoted), httpStatus);
  }

  /** Provider text made safe to show: one line, no secrets, at most MAX_QUOTED_MESSAGE characters. */
  private quote(message: string | undefined): string {
    if (!message) return '';
    return truncate(redactSecrets(message.replace(/\s+/g, ' ').trim(), this.config.apiKey), MAX_QUOTED_MESSAGE);
  }
}

/**
 * One upstream exchange: the fetch, its three time limits and the caller's abort signal. Whichever
 * stops the exchange first is remembered, so the resulting error says why.
 */
class UpstreamCall {
  private readonly controller = new AbortController();
  private cause: AbortCause | null = null;
  private totalTimer: NodeJS.Timeout | undefined;
  private phaseTimer: NodeJS.Timeout | undefined;
  private activeReader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  private readonly onCallerAbort = () => this.stop('cancelled');

  constructor(
    private readonly config: Readonly<OpenAiChatConfig>,
    private readonly signal: AbortSignal | undefined,
  ) {}

  get aborted(): boolean {
    return this.cause !== null;
  }

  start(): void {
    if (this.signal?.aborted) {
      this.cause = 'cancelled';
      throw this.causeError();
    }
    this.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.totalTimer = setTimeout(() => this.stop('total'), this.config.totalTimeoutMs);
  }

  async post(url: string, body: unknown): Promise<Response> {
    const headers: Record<string, string> = {
      ...this.config.extraHeaders,
      'Content-Type': 'application/json',
      Accept: 'text/event-stream',
    };
    if (this.config.apiKey) headers.Authorization = `Bearer ${this.config.apiKey}`;
    this.armPhase('connect', this.config.connectTimeoutMs);
    try {
      return await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: this.controller.signal });
    } catch (error) {
      if (this.cause) throw this.causeError();
      throw networkError(error);
    } finally {
      this.disarmPhase();
    }
  }

  reader(response: Response): ReadableStreamDefaultReader<Uint8Array> {
    if (!response.body) throw new OpenAiProviderError('UNAVAILABLE', "The AI provider's stream ended unexpectedly", response.status);
    this.activeReader = response.body.getReader();
    return this.activeReader;
  }

  /**
   * The next piece of the body, or null at its end. A broken connection becomes UNAVAILABLE with
   * `brokenMessage`, or a normal end when `endIsAcceptable` (the model had already finished).
   */
  async read(reader: ReadableStreamDefaultReader<Uint8Array>, brokenMessage: string, endIsAcceptable = false): Promise<Uint8Array | null> {
    this.armPhase('idle', this.config.idleTimeoutMs);
    try {
      const { done, value } = await reader.read();
      return done ? null : value;
    } catch (error) {
      if (this.cause) throw this.causeError();
      if (endIsAcceptable) return null;
      const failure = new OpenAiProviderError('UNAVAILABLE', brokenMessage);
      (failure as Error).cause = error;
      throw failure;
    } finally {
      this.disarmPhase();
    }
  }

  /** Reads the whole body as text, up to `limit` bytes (the rest is dropped). */
  async readText(response: Response, limit: number, brokenMessage: string): Promise<string> {
    if (!response.body) return '';
    const reader = this.reader(response);
    const decoder = new TextDecoder();
    let text = '';
    let size = 0;
    for (;;) {
      const chunk = await this.read(reader, brokenMessage);
      if (chunk === null) break;
      size += chunk.byteLength;
      text += decoder.decode(chunk, { stream: true });
      if (size >= limit) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
    return text + decoder.decode();
  }

  /** Any failure of this exchange as a ProviderError; the reason the exchange was stopped wins. */
  toProviderError(error: unknown): ProviderError {
    if (this.cause) return this.causeError();
    if (error instanceof ProviderError) return error;
    return networkError(error);
  }

  dispose(): void {
    clearTimeout(this.totalTimer);
    this.disarmPhase();
    this.signal?.removeEventListener('abort', this.onCallerAbort);
    // Releases the connection when the body was not read to its end (the caller stopped early, or after [DONE]).
    this.activeReader?.cancel().catch(() => undefined);
    this.controller.abort();
  }

  private stop(cause: AbortCause): void {
    if (this.cause) return;
    this.cause = cause;
    this.controller.abort();
  }

  private armPhase(cause: AbortCause, ms: number): void {
    this.disarmPhase();
    this.phaseTimer = setTimeout(() => this.stop(cause), ms);
  }

  private disarmPhase(): void {
    clearTimeout(this.phaseTimer);
    this.phaseTimer = undefined;
  }

  private causeError(): OpenAiProviderError {
    switch (this.cause) {
      case 'cancelled':
        return new OpenAiProviderError('CANCELLED', 'The reply was cancelled');
      case 'connect':
        return new OpenAiProviderError('TIMEOUT', `The AI provider did not answer within ${seconds(this.config.connectTimeoutMs)}`);
      case 'idle':
        return new OpenAiProviderError('TIMEOUT', `The AI provider stopped sending the reply for ${seconds(this.config.idleTimeoutMs)}`);
      default:
        return new OpenAiProviderError('TIMEOUT', `The AI provider's reply took longer than ${seconds(this.config.totalTimeoutMs)}`);
    }
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** fetch failed before a response: refused, unknown host, reset, TLS... */
function networkError(error: unknown): OpenAiProviderError {
  const code = errorCode(error);
  const failure = TIMEOUT_CODES.has(code)
    ? new OpenAiProviderError('TIMEOUT', 'The AI provider did not answer in time')
    : new OpenAiProviderError('UNAVAILABLE', 'The AI provider could not be reached');
  (failure as Error).cause = error;
  return failure;
}

function errorCode(error: unknown): string {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

/** One JSON payload per event; tolerates servers that put several `data:` lines of JSON in one event. */
function parsePayloads(data: string): ChunkPayload[] | null {
  const whole = parseJson(data);
  if (isObject(whole)) return [whole as ChunkPayload];
  if (!data.includes('\n')) return null;
  const payloads: ChunkPayload[] = [];
  for (const line of data.split('\n')) {
    if (!line.trim() || line.trim() === '[DONE]') continue;
    const parsed = parseJson(line);
    if (!isObject(parsed)) return null;
    payloads.push(parsed as ChunkPayload);
  }
  return payloads;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Message content as text: a string, or (some servers) an array of `{ type: 'text', text }` parts. */
function contentText(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const text = content.map((part) => (isObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
    return text || null;
  }
  return null;
}

function readUsage(payload: ChunkPayload, state: { promptTokens: number | null; completionTokens: number | null }): void {
  const usage = payload.usage;
  if (!isObject(usage)) return;
  if (typeof usage.prompt_tokens === 'number' && Number.isFinite(usage.prompt_tokens)) state.promptTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number' && Number.isFinite(usage.completion_tokens)) {
    state.completionTokens = usage.completion_tokens;
  }
}

interface ErrorInfo {
  message?: string;
  type?: string;
  code?: string | number;
}

/** `{ error: { message, type, code } }`, `{ error: "..." }` (Ollama), `{ object: "error", message }` (old vLLM), `{ detail }` or plain text. */
function describeErrorBody(raw: string, contentType: string): ErrorInfo {
  const text = raw.trim();
  if (!text) return {};
  const parsed = parseJson(text);
  if (isObject(parsed)) return describeErrorObject(parsed.error ?? parsed);
  if (/html/i.test(contentType) || /^<(!doctype|html)/i.test(text)) return {};
  return { message: text };
}

function describeErrorObject(value: unknown): ErrorInfo {
  if (typeof value === 'string') return { message: value };
  if (!isObject(value)) return {};
  const nested = isObject(value.error) ? value.error : value;
  const message = [nested.message, nested.detail, nested.msg, typeof value.error === 'string' ? value.error : undefined].find(
    (candidate): candidate is string => typeof candidate === 'string' && candidate.length > 0,
  );
  const code = typeof nested.code === 'string' || typeof nested.code === 'number' ? nested.code : undefined;
  const type = typeof nested.type === 'string' ? nested.type : undefined;
  return { message, code, type };
}

function withDetail(summary: string, detail: string): string {
  return detail ? `${summary}: ${detail}` : summary;
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** Removes the configured key and anything shaped like a key or bearer token from provider text. */
export function redactSecrets(text: string, apiKey: string | null): string {
  let out = text;
  if (apiKey) out = out.split(apiKey).join('[redacted]');
  return out
    .replace(/\b(sk|rk|pk|or|gsk|xai)-[A-Za-z0-9_*.-]{6,}/g, '[redacted]')
    .replace(/\bBearer\s+\S+/gi, 'Bearer [redacted]')
    .replace(/\b(api[_-]?key|key|token)=\S+/gi, '$1=[redacted]');
}

/** `Retry-After` as seconds or an HTTP date, or OpenAI's `retry-after-ms`. */
function parseRetryAfter(headers: Headers): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.get('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

/** Drops trailing slashes and a pasted `/chat/completions` suffix; rejects anything but http(s) URLs. */
function normaliseBaseUrl(raw: string): string {
  let value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error('The chat provider base URL must be an http(s) URL such as https://api.openai.com/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error('The chat provider base URL must be an http(s) URL such as https://api.openai.com/v1');
  }
  value = value.replace(/\/+$/, '').replace(/\/chat\/completions$/i, '');
  return value.replace(/\/+$/, '');
}

/**
 * Reads the chat provider settings from the environment. Returns null when no provider is configured
 * (`CHAT_API_BASE_URL` unset or empty); throws an Error naming the variable when a setting is invalid.
 */
export function readOpenAiChatConfig(env: NodeJS.ProcessEnv): OpenAiChatConfig | null {
  const baseUrlRaw = env.CHAT_API_BASE_URL?.trim();
  const apiKey = env.CHAT_API_KEY?.trim() || null;
  if (!baseUrlRaw) {
    if (apiKey) {
      throw new Error(
        'CHAT_API_KEY is set but CHAT_API_BASE_URL is not: set CHAT_API_BASE_URL (e.g. https://api.openai.com/v1) to enable the AI provider',
      );
    }
    return null;
  }
  let baseUrl: string;
  try {
    baseUrl = normaliseBaseUrl(baseUrlRaw);
  } catch {
    throw new Error(
      'CHAT_API_BASE_URL must be an http(s) URL such as https://api.openai.com/v1, https://openrouter.ai/api/v1 or http://127.0.0.1:11434/v1',
    );
  }
  const model = env.CHAT_MODEL?.trim();
  if (!model) {
    throw new Error('CHAT_MODEL must be set when CHAT_API_BASE_URL is set (e.g. gpt-4o-mini, or the model name your local server serves)');
  }
  const temperature = readNumber(env, 'CHAT_TEMPERATURE', DEFAULT_TEMPERATURE, { min: 0, max: 2 });
  const maxReplyTokens = readNumber(env, 'CHAT_MAX_REPLY_TOKENS', DEFAULT_MAX_REPLY_TOKENS, { integer: true, min: 1 });
  const contextTokens = readNumber(env, 'CHAT_CONTEXT_TOKENS', DEFAULT_CONTEXT_TOKENS, { integer: true, min: 1 });
  if (maxReplyTokens >= contextTokens) {
    throw new Error(`CHAT_MAX_REPLY_TOKENS (${maxReplyTokens}) must be smaller than CHAT_CONTEXT_TOKENS (${contextTokens})`);
  }
  return {
    baseUrl,
    apiKey,
    model,
    temperature,
    maxReplyTokens,
    contextTokens,
    connectTimeoutMs: readNumber(env, 'CHAT_CONNECT_TIMEOUT_MS', DEFAULT_CONNECT_TIMEOUT_MS, { integer: true, min: 1 }),
    idleTimeoutMs: readNumber(env, 'CHAT_IDLE_TIMEOUT_MS', DEFAULT_IDLE_TIMEOUT_MS, { integer: true, min: 1 }),
    totalTimeoutMs: readNumber(env, 'CHAT_TOTAL_TIMEOUT_MS', DEFAULT_TOTAL_TIMEOUT_MS, { integer: true, min: 1 }),
  };
}

function readNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  rule: { integer?: boolean; min: number; max?: number },
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  const kind = rule.integer ? 'an integer' : 'a number';
  const range = rule.max === undefined ? `at least ${rule.min}` : `between ${rule.min} and ${rule.max}`;
  if (
    !Number.isFinite(value) ||
    (rule.integer && !Number.isInteger(value)) ||
    value < rule.min ||
    (rule.max !== undefined && value > rule.max)
  ) {
    throw new Error(`${name} must be ${kind} ${range}, got "${raw}"`);
  }
  return value;
}
