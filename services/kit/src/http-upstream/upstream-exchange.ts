import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import { UpstreamError, type UpstreamStopCause, parseRetryAfter, upstreamErrorForStatus } from './upstream-error';
import { describeErrorBody, isJsonObject, quoteUpstreamText, tryParseJson } from './upstream-text';

/** Error bodies are read up to this size (the rest is dropped): far more than any message worth quoting. */
export const UPSTREAM_ERROR_BODY_BYTES = 64 * 1024;

/** How an adapter's failures read: the exchange phrases its errors with these. */
export interface UpstreamWording {
  /** Who answers, starting a sentence: 'The AI provider', 'The image provider'. */
  provider: string;
  /** The caller gave up: 'The reply was cancelled'. */
  cancelled: string;
  /** The total limit passed, given the limit as text ('300 ms', '5 s'). */
  totalTimeout: (limit: string) => string;
  /** The idle limit passed; "<provider> stopped sending for <limit>" when not given. */
  idleTimeout?: (limit: string) => string;
  /** Where to look when a web page answers instead of the API: 'check CHAT_API_BASE_URL (it usually ends in /v1)'. */
  urlHint: string;
}

export interface UpstreamExchangeOptions {
  wording: UpstreamWording;
  /** Time allowed until the request is answered or has reached the server (see connectLimitEnds). */
  connectTimeoutMs: number;
  /**
   * Where the connect limit ends: with the response headers (the default), or once the request has reached the
   * server, for APIs that send no headers until their work is done (image generation), so the limit does not cap it.
   */
  connectLimitEnds?: 'headers' | 'request-sent';
  /** Longest silence allowed between two pieces of a response body; none when unset. */
  idleTimeoutMs?: number;
  /** Time allowed for the whole exchange, every fetch and body read in it. */
  totalTimeoutMs: number;
  /** The caller's signal: aborting it stops the exchange at once. */
  signal?: AbortSignal;
  /** Never quoted: the configured key, credentials and their encodings. */
  secrets?: readonly string[];
}

export interface UpstreamBodyLimit {
  maxBytes: number;
  /** Beyond maxBytes: 'fail' (the default, for payloads useless when cut) or 'truncate' (error bodies). */
  overflow?: 'fail' | 'truncate';
  /** The message when the connection breaks mid-body; "<provider>'s answer broke off" when not given. */
  brokenMessage?: string;
}

export interface UpstreamPieceOptions {
  brokenMessage?: string;
  /** Asked when the connection breaks: true makes the break a normal end (the answer was already complete). */
  brokenIsEnd?: () => boolean;
}

export interface UpstreamRequestInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/*
 * Some APIs send no response headers until the work is finished, so "until the headers" would cap the work.
 * Undici's diagnostics channels tell when a request has actually been sent; a 'request-sent' connect limit
 * ends there. The request is matched to its exchange through AsyncLocalStorage (fetch creates it in the
 * caller's async context). Where the channels are missing, the limit ends with the headers.
 */
const currentExchange = new AsyncLocalStorage<UpstreamExchange>();
const exchangeOfRequest = new WeakMap<object, UpstreamExchange>();
let tracking = false;

function requestOf(message: unknown): object | undefined {
  const request = (message as { request?: unknown } | null)?.request;
  return typeof request === 'object' && request !== null ? request : undefined;
}

function trackSentRequests(): void {
  if (tracking) return;
  tracking = true;
  try {
    diagnosticsChannel.subscribe('undici:request:create', (message) => {
      const exchange = currentExchange.getStore();
      const request = requestOf(message);
      if (exchange && request) exchangeOfRequest.set(request, exchange);
    });
    diagnosticsChannel.subscribe('undici:request:bodySent', (message) => {
      const request = requestOf(message);
      if (request) exchangeOfRequest.get(request)?.requestSent();
    });
  } catch {
    // No diagnostics channels: the connect limit then runs until the response headers.
  }
}

/**
 * One call to an upstream API: its fetches and body reads, the connect, idle and total limits, and the
 * caller's abort signal. Whichever stops the exchange first is remembered, so the resulting error says why.
 * Use: `start()` inside a try, `failure(error)` in its catch, `dispose()` in its finally.
 */
export class UpstreamExchange {
  private readonly controller = new AbortController();
  private stopCause: UpstreamStopCause | null = null;
  private totalTimer: NodeJS.Timeout | undefined;
  private phaseTimer: NodeJS.Timeout | undefined;
  private phase: 'connect' | 'idle' | null = null;
  private sent = false;
  private readonly onCallerAbort = () => this.stop('cancelled');

  constructor(private readonly options: UpstreamExchangeOptions) {}

  /** Why the exchange was stopped, or null while it runs. */
  get cause(): UpstreamStopCause | null {
    return this.stopCause;
  }

  /** Whether a request of this exchange has reached the server (so the server may be working on it). */
  get reachedServer(): boolean {
    return this.sent;
  }

  /** Starts the total limit; throws `cancelled` when the caller has already given up. */
  start(): void {
    if (this.options.signal?.aborted) {
      this.stopCause = 'cancelled';
      throw this.stopError();
    }
    this.options.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.totalTimer = setTimeout(() => this.stop('total'), this.options.totalTimeoutMs);
  }

  /** A fetch under this exchange's limits; a failure before the response headers becomes an UpstreamError. */
  async fetch(url: string, init: UpstreamRequestInit): Promise<Response> {
    trackSentRequests();
    if (this.stopCause) throw this.stopError();
    this.armPhase('connect', this.options.connectTimeoutMs);
    try {
      const response = await currentExchange.run(this, () => fetch(url, { ...init, signal: this.controller.signal }));
      this.sent = true;
      return response;
    } catch (error) {
      throw this.failure(error);
    } finally {
      this.disarmPhase();
    }
  }

  /** Called when a request of this exchange has reached the server (undici's diagnostics channel). */
  requestSent(): void {
    this.sent = true;
    if (this.phase === 'connect' && this.options.connectLimitEnds === 'request-sent') this.disarmPhase();
  }

  /** The pieces of a response body as they arrive, each within the idle limit. */
  async *pieces(response: Response, options: UpstreamPieceOptions = {}): AsyncGenerator<Uint8Array, void, void> {
    if (!response.body) return;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const piece = await this.readPiece(reader, response.status, options);
        if (piece === null) return;
        yield piece;
      }
    } finally {
      // Releases the connection when the body was not read to its end.
      reader.cancel().catch(() => undefined);
    }
  }

  /** The body's bytes, at most `limit.maxBytes` (see UpstreamBodyLimit.overflow). */
  async readBody(response: Response, limit: UpstreamBodyLimit): Promise<Buffer> {
    const failOnOverflow = limit.overflow !== 'truncate';
    const declared = Number(response.headers.get('content-length') ?? '');
    if (failOnOverflow && declared > limit.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw this.tooLarge(limit.maxBytes, response.status);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const piece of this.pieces(response, { brokenMessage: limit.brokenMessage })) {
      if (size + piece.byteLength > limit.maxBytes) {
        if (failOnOverflow) throw this.tooLarge(limit.maxBytes, response.status);
        chunks.push(piece.subarray(0, limit.maxBytes - size));
        size = limit.maxBytes;
        break;
      }
      chunks.push(piece);
      size += piece.byteLength;
    }
    return Buffer.concat(chunks, size);
  }

  async readText(response: Response, limit: UpstreamBodyLimit): Promise<string> {
    return (await this.readBody(response, limit)).toString('utf8');
  }

  /** The body as a JSON object; a web page or anything else fails as `unavailable`, saying which. */
  async readJson(response: Response, limit: UpstreamBodyLimit): Promise<Record<string, unknown>> {
    const raw = await this.readText(response, limit);
    const payload = tryParseJson(raw);
    if (isJsonObject(payload)) return payload;
    if (/html/i.test(response.headers.get('content-type') ?? '') || /^\s*</.test(raw)) throw this.webPageFailure(response.status);
    throw new UpstreamError('unavailable', `${this.options.wording.provider} sent a malformed response (not JSON)`, {
      status: response.status,
    });
  }

  /**
   * A non-2xx answer as an UpstreamError: the status mapped to a kind, Retry-After kept, the provider's
   * message quoted safely. A stop while reading the body wins; a broken body leaves the status to speak.
   */
  async httpFailure(response: Response): Promise<UpstreamError> {
    let raw = '';
    try {
      raw = await this.readText(response, { maxBytes: UPSTREAM_ERROR_BODY_BYTES, overflow: 'truncate' });
    } catch {
      if (this.stopCause) throw this.stopError();
    }
    const info = describeErrorBody(raw, response.headers.get('content-type') ?? '');
    return upstreamErrorForStatus(response.status, {
      provider: this.options.wording.provider,
      detail: this.quote(info.message),
      providerCode: info.code,
      providerType: info.type,
      retryAfterSeconds: parseRetryAfter(response.headers),
    });
  }

  /** A web page answered instead of the API: almost always a base URL without its API path. */
  webPageFailure(status: number): UpstreamError {
    const { provider, urlHint } = this.options.wording;
    return new UpstreamError('unavailable', `${provider} answered with a web page instead of an API response; ${urlHint}`, { status });
  }

  /** Provider text made safe to show, with this exchange's secrets redacted. */
  quote(text: string | undefined): string {
    return quoteUpstreamText(text, this.options.secrets);
  }

  /** Any failure during this exchange as an UpstreamError: the reason it was stopped wins, then the error itself. */
  failure(error: unknown): UpstreamError {
    if (this.stopCause) return this.stopError();
    if (error instanceof UpstreamError) return error;
    return networkFailure(error, this.options.wording.provider);
  }

  dispose(): void {
    clearTimeout(this.totalTimer);
    this.disarmPhase();
    this.options.signal?.removeEventListener('abort', this.onCallerAbort);
    // Releases the connection of a body that was not read to its end.
    this.controller.abort();
  }

  private async readPiece(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    status: number,
    options: UpstreamPieceOptions,
  ): Promise<Uint8Array | null> {
    if (this.stopCause) throw this.stopError();
    if (this.options.idleTimeoutMs !== undefined) this.armPhase('idle', this.options.idleTimeoutMs);
    try {
      const { done, value } = await reader.read();
      return done ? null : value;
    } catch (error) {
      if (this.stopCause) throw this.stopError();
      if (options.brokenIsEnd?.()) return null;
      const message = options.brokenMessage ?? `${this.options.wording.provider}'s answer broke off`;
      throw new UpstreamError('unavailable', message, { status, cause: error });
    } finally {
      this.disarmPhase();
    }
  }

  private stop(cause: UpstreamStopCause): void {
    if (this.stopCause) return;
    this.stopCause = cause;
    this.controller.abort();
  }

  private armPhase(phase: 'connect' | 'idle', ms: number): void {
    this.disarmPhase();
    this.phase = phase;
    this.phaseTimer = setTimeout(() => this.stop(phase), ms);
  }

  private disarmPhase(): void {
    clearTimeout(this.phaseTimer);
    this.phaseTimer = undefined;
    this.phase = null;
  }

  private stopError(): UpstreamError {
    const { wording, connectTimeoutMs, idleTimeoutMs = 0, totalTimeoutMs } = this.options;
    const stoppedBy = this.stopCause ?? 'total';
    switch (stoppedBy) {
      case 'cancelled':
        return new UpstreamError('cancelled', wording.cancelled, { stoppedBy });
      case 'connect': {
        const limit = formatDuration(connectTimeoutMs);
        const message =
          this.options.connectLimitEnds === 'request-sent'
            ? `${wording.provider} could not be reached within ${limit}`
            : `${wording.provider} did not answer within ${limit}`;
        return new UpstreamError('timeout', message, { stoppedBy });
      }
      case 'idle': {
        const limit = formatDuration(idleTimeoutMs);
        const message = wording.idleTimeout?.(limit) ?? `${wording.provider} stopped sending for ${limit}`;
        return new UpstreamError('timeout', message, { stoppedBy });
      }
      case 'total':
        return new UpstreamError('timeout', wording.totalTimeout(formatDuration(totalTimeoutMs)), { stoppedBy });
    }
  }

  private tooLarge(maxBytes: number, status: number): UpstreamError {
    return new UpstreamError('unavailable', `${this.options.wording.provider} sent more than ${formatBytes(maxBytes)}`, { status });
  }
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** fetch failed before a response: refused, unknown host, reset, TLS... */
function networkFailure(error: unknown, provider: string): UpstreamError {
  return TIMEOUT_CODES.has(errorCode(error))
    ? new UpstreamError('timeout', `${provider} did not answer in time`, { cause: error })
    : new UpstreamError('unavailable', `${provider} could not be reached`, { cause: error });
}

function errorCode(error: unknown): string {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return '';
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / 1024 / 1024)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}
