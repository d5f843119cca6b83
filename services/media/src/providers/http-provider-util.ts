import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import { ImageProviderError } from './image-provider';

/**
 * What the HTTP image adapters (OpenAI Images, AUTOMATIC1111) share: one upstream exchange with its time
 * limits and the caller's abort signal, bounded body reads, error-text quoting without secrets, and the
 * checks that a payload really is an image.
 */

/** Provider messages quoted in errors are cut to this many characters. */
export const MAX_QUOTED_MESSAGE = 300;
/** Error bodies are read up to this size (the rest is dropped). */
export const MAX_ERROR_BODY = 64 * 1024;

export type ImageErrorCode = ImageProviderError['code'];

/** An ImageProviderError that may say how long to wait before retrying (from `Retry-After`). */
export class ImageProviderHttpError extends ImageProviderError {
  constructor(
    code: ImageErrorCode,
    message: string,
    status?: number,
    retryable = false,
    /** Seconds from the provider's `Retry-After` (or `retry-after-ms`) header, when it sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code, message, status, retryable);
  }
}

export interface ExchangeLimits {
  /** Time allowed until the request has reached the server (DNS, TCP, TLS and upload). */
  connectTimeoutMs: number;
  /** Time allowed for the whole exchange, the image download included. */
  totalTimeoutMs: number;
}

export type StopCause = 'cancelled' | 'connect' | 'total';

/*
 * Image APIs send no response headers until the picture is finished, so "until the headers" would cap the
 * generation time. Undici's diagnostics channels tell when a request has actually been sent; the connect
 * limit ends there. The request is matched to its exchange through AsyncLocalStorage (fetch creates it
 * synchronously in the caller's context). Where the channels are missing, the limit ends with the headers.
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
 * One call to a provider: its fetches, the two time limits and the caller's abort signal. Whichever stops
 * the exchange first is remembered, so the resulting error says why.
 */
export class UpstreamExchange {
  private readonly controller = new AbortController();
  private stopCause: StopCause | null = null;
  private totalTimer: NodeJS.Timeout | undefined;
  private connectTimer: NodeJS.Timeout | undefined;
  private sent = false;
  private readonly onCallerAbort = () => this.stop('cancelled');

  constructor(
    private readonly limits: ExchangeLimits,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Why the exchange was stopped, or null while it runs. */
  get cause(): StopCause | null {
    return this.stopCause;
  }

  start(): void {
    if (this.signal?.aborted) {
      this.stopCause = 'cancelled';
      throw this.causeError();
    }
    this.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.totalTimer = setTimeout(() => this.stop('total'), this.limits.totalTimeoutMs);
  }

  /** A fetch under this exchange's limits; failures before a response become ImageProviderErrors. */
  async fetch(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Response> {
    trackSentRequests();
    if (this.stopCause) throw this.causeError();
    clearTimeout(this.connectTimer);
    this.connectTimer = setTimeout(() => this.stop('connect'), this.limits.connectTimeoutMs);
    try {
      const response = await currentExchange.run(this, () => fetch(url, { ...init, signal: this.controller.signal }));
      this.requestSent();
      return response;
    } catch (error) {
      this.disarmConnect();
      throw this.toError(error);
    }
  }

  /** Whether a request of this exchange has reached the server (so the server may be working on it). */
  get reachedServer(): boolean {
    return this.sent;
  }

  /** The request has reached the server: from now on only the total limit applies. */
  requestSent(): void {
    this.sent = true;
    this.disarmConnect();
  }

  private disarmConnect(): void {
    clearTimeout(this.connectTimer);
    this.connectTimer = undefined;
  }

  /**
   * The body's bytes, up to `limit`: beyond it the rest is dropped ('truncate', for error bodies) or the
   * exchange fails ('fail', for payloads that are useless when cut).
   */
  async readBody(response: Response, limit: number, overflow: 'truncate' | 'fail'): Promise<Buffer> {
    const declared = Number(response.headers.get('content-length') ?? '');
    if (overflow === 'fail' && declared > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(limit, response.status);
    }
    if (!response.body) return Buffer.alloc(0);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (size + value.byteLength > limit) {
          if (overflow === 'fail') throw tooLarge(limit, response.status);
          chunks.push(value.subarray(0, limit - size));
          size = limit;
          break;
        }
        chunks.push(value);
        size += value.byteLength;
      }
    } catch (error) {
      if (error instanceof ImageProviderError) throw error;
      if (this.stopCause) throw this.causeError();
      const failure = new ImageProviderHttpError('UNAVAILABLE', "The image provider's answer broke off", response.status, true);
      (failure as Error).cause = error;
      throw failure;
    } finally {
      reader.cancel().catch(() => undefined);
    }
    return Buffer.concat(chunks, size);
  }

  /** Any failure of this exchange as an ImageProviderError; the reason the exchange was stopped wins. */
  toError(error: unknown): ImageProviderError {
    if (this.stopCause) return this.causeError();
    if (error instanceof ImageProviderError) return error;
    return networkError(error);
  }

  dispose(): void {
    clearTimeout(this.totalTimer);
    this.disarmConnect();
    this.signal?.removeEventListener('abort', this.onCallerAbort);
    // Releases the connection of a body that was not read to its end.
    this.controller.abort();
  }

  private stop(cause: StopCause): void {
    if (this.stopCause) return;
    this.stopCause = cause;
    this.controller.abort();
  }

  private causeError(): ImageProviderHttpError {
    switch (this.stopCause) {
      case 'cancelled':
        return new ImageProviderHttpError('CANCELLED', 'The image generation was cancelled');
      case 'connect':
        return new ImageProviderHttpError(
          'TIMEOUT',
          `The image provider could not be reached within ${seconds(this.limits.connectTimeoutMs)}`,
          undefined,
          true,
        );
      default:
        return new ImageProviderHttpError(
          'TIMEOUT',
          `The image provider did not deliver the image within ${seconds(this.limits.totalTimeoutMs)}`,
          undefined,
          true,
        );
    }
  }
}

function tooLarge(limit: number, status: number): ImageProviderHttpError {
  return new ImageProviderHttpError('UNAVAILABLE', `The image provider sent more than ${Math.round(limit / 1024 / 1024)} MB`, status, true);
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** fetch failed before a response: refused, unknown host, reset, TLS... */
export function networkError(error: unknown): ImageProviderHttpError {
  const failure = TIMEOUT_CODES.has(errorCode(error))
    ? new ImageProviderHttpError('TIMEOUT', 'The image provider did not answer in time', undefined, true)
    : new ImageProviderHttpError('UNAVAILABLE', 'The image provider could not be reached', undefined, true);
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

/** The HTTP failures every provider reports alike; adapters handle their special cases first. */
export function genericHttpError(status: number, quoted: string, retryAfterSeconds: number | undefined): ImageProviderHttpError {
  const make = (code: ImageErrorCode, message: string, retryable: boolean) =>
    new ImageProviderHttpError(code, message, status, retryable, retryAfterSeconds);
  if (status === 429) return make('RATE_LIMITED', withDetail('The image provider is rate limiting requests', quoted), true);
  if (status === 408 || status === 504 || status === 524) return make('TIMEOUT', withDetail('The image provider timed out', quoted), true);
  if (status === 400 || status === 413 || status === 422) {
    return make('VALIDATION_FAILED', withDetail('The image provider rejected the request', quoted), false);
  }
  if (status >= 500) return make('UNAVAILABLE', withDetail(`The image provider failed (HTTP ${status})`, quoted), true);
  return make('UNAVAILABLE', withDetail(`The image provider refused the request (HTTP ${status})`, quoted), false);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface ErrorInfo {
  message?: string;
  type?: string;
  code?: string;
}

/**
 * The message in an error body: OpenAI's `{ error: { message, type, code } }`, FastAPI's `{ detail }`
 * (a string, or a list of `{ loc, msg }`), AUTOMATIC1111's `{ error, detail, body, errors }`, or plain text.
 */
export function describeErrorBody(raw: string, contentType: string): ErrorInfo {
  const text = raw.trim();
  if (!text) return {};
  const parsed = parseJson(text);
  if (!isObject(parsed)) {
    if (/html/i.test(contentType) || /^<(!doctype|html)/i.test(text)) return {};
    return { message: text };
  }
  const nested = isObject(parsed.error) ? parsed.error : parsed;
  const message = [
    nested.message,
    detailText(nested.detail),
    nested.errors,
    nested.msg,
    typeof parsed.error === 'string' ? parsed.error : undefined,
  ].find((candidate): candidate is string => typeof candidate === 'string' && candidate.trim().length > 0);
  const code = typeof nested.code === 'string' || typeof nested.code === 'number' ? String(nested.code) : undefined;
  const type = typeof nested.type === 'string' ? nested.type : undefined;
  return { message, code, type };
}

function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  const parts = detail.map((item) => {
    if (!isObject(item)) return String(item);
    const where = Array.isArray(item.loc) ? item.loc.filter((part) => part !== 'body').join('.') : '';
    const what = typeof item.msg === 'string' ? item.msg : '';
    return where ? `${where}: ${what}` : what;
  });
  return parts.filter(Boolean).join('; ') || undefined;
}

/** Provider text made safe to show: one line, no secrets, at most MAX_QUOTED_MESSAGE characters. */
export function quoteProviderText(message: string | undefined, secrets: readonly string[]): string {
  if (!message) return '';
  return truncate(redactSecrets(message.replace(/\s+/g, ' ').trim(), secrets), MAX_QUOTED_MESSAGE);
}

/** Removes the given secrets and anything shaped like a key, bearer token or basic credentials. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) out = out.split(secret).join('[redacted]');
  }
  return out
    .replace(/\b(sk|rk|pk|or|gsk|xai)-[A-Za-z0-9_*.-]{6,}/g, '[redacted]')
    .replace(/\b(Bearer|Basic)\s+\S+/gi, '$1 [redacted]')
    .replace(/\b(api[_-]?key|key|token|password)=\S+/gi, '$1=[redacted]');
}

export function withDetail(summary: string, detail: string): string {
  return detail ? `${summary}: ${detail}` : summary;
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** `Retry-After` as seconds or an HTTP date, or OpenAI's `retry-after-ms`. */
export function parseRetryAfter(headers: Headers): number | undefined {
  const msText = headers.get('retry-after-ms');
  const ms = Number(msText);
  if (msText && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** Base64 (standard or URL-safe, optionally a `data:` URL) as bytes; null when it is empty or not base64. */
export function decodeBase64(value: string): Buffer | null {
  const text = value.replace(/^data:[^,]*;base64,/i, '').replace(/\s+/g, '');
  if (!text || text.length % 4 === 1 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) return null;
  // Node's base64 decoder reads the URL-safe alphabet too.
  const bytes = Buffer.from(text, 'base64');
  return bytes.length > 0 ? bytes : null;
}

export type ImageFormat = 'png' | 'jpeg' | 'webp';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The format named by the file signature, or null for anything else. */
export function imageFormat(bytes: Buffer): ImageFormat | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Refuses bytes that are not a PNG, JPEG or WebP picture. */
export function assertImage(bytes: Buffer, status?: number): Buffer {
  if (!imageFormat(bytes)) {
    throw new ImageProviderHttpError('UNAVAILABLE', 'The image provider sent something that is not an image', status, true);
  }
  return bytes;
}

export function seconds(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** An http(s) URL without trailing slashes or the given pasted endpoint suffix; throws `message` otherwise. */
export function normaliseBaseUrl(raw: string, suffix: RegExp, message: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(message);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(message);
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(suffix, '').replace(/\/+$/, '');
  return url;
}

/** `url` as text without a trailing slash (URL keeps one for an empty path). */
export function urlText(url: URL): string {
  return url.toString().replace(/\/+$/, '');
}

/** A positive integer from the environment, or `fallback` when unset; throws naming the variable otherwise. */
export function readPositiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer (milliseconds), got "${raw}"`);
  return value;
}

export function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}
