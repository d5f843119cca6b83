import { withDetail } from './upstream-text';

/**
 * Why a call to an upstream API failed, in terms every adapter can map onto its own error type:
 * - `cancelled`: the caller gave up;
 * - `timeout`: one of the exchange's limits passed, a socket timed out, or the API answered 408/504/524;
 * - `auth`: 401/403, the credentials were refused;
 * - `quota`: 402, or a 400/429 naming an exhausted quota, billing limit or credits: waiting does not help;
 * - `rate-limited`: 429, with the API's Retry-After when it sent one;
 * - `bad-request`: 400/413/422, the API refused this request;
 * - `refused`: any other 4xx (404 included);
 * - `unavailable`: 5xx, unreachable, a broken or oversized answer, a web page or malformed JSON instead of the API.
 */
export type UpstreamErrorKind = 'cancelled' | 'timeout' | 'auth' | 'quota' | 'rate-limited' | 'bad-request' | 'refused' | 'unavailable';

/** Which of the exchange's stops ended it: the caller, or one of its three time limits. */
export type UpstreamStopCause = 'cancelled' | 'connect' | 'idle' | 'total';

/** Another attempt may succeed after these; the others are final. */
const RETRYABLE_KINDS: ReadonlySet<UpstreamErrorKind> = new Set(['timeout', 'rate-limited', 'unavailable']);

export interface UpstreamErrorDetails {
  status?: number;
  retryAfterSeconds?: number;
  /** The provider's own message, already quoted safely (see quoteUpstreamText). */
  detail?: string;
  /** The provider's machine-readable error code and type (OpenAI's `error.code`, `error.type`). */
  providerCode?: string;
  providerType?: string;
  stoppedBy?: UpstreamStopCause;
  cause?: unknown;
}

/** A failed upstream call. Its message never holds a secret: provider text in it has been quoted safely. */
export class UpstreamError extends Error {
  /** The HTTP status of the answer, when there was one. */
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** Seconds from the API's `Retry-After` (or `retry-after-ms`) header, when it sent one. */
  readonly retryAfterSeconds: number | undefined;
  /** The provider's message, one line, secrets redacted, cut; '' when it said nothing worth quoting. */
  readonly detail: string;
  readonly providerCode: string | undefined;
  readonly providerType: string | undefined;
  /** For a stopped exchange: what stopped it. */
  readonly stoppedBy: UpstreamStopCause | undefined;

  constructor(
    readonly kind: UpstreamErrorKind,
    message: string,
    details: UpstreamErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'UpstreamError';
    this.status = details.status;
    this.retryable = RETRYABLE_KINDS.has(kind);
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.detail = details.detail ?? '';
    this.providerCode = details.providerCode;
    this.providerType = details.providerType;
    this.stoppedBy = details.stoppedBy;
  }

  /** Whether the provider's error code or type matches, e.g. /content_policy_violation/. */
  hasProviderCode(pattern: RegExp): boolean {
    return pattern.test(`${this.providerCode ?? ''} ${this.providerType ?? ''}`);
  }
}

export interface HttpFailureContext {
  /** Who answered, starting a sentence: 'The AI provider'. */
  provider: string;
  /** The provider's message, already quoted safely. */
  detail: string;
  providerCode?: string;
  providerType?: string;
  retryAfterSeconds?: number;
}

const QUOTA_CODES = /insufficient_quota|billing|credits/i;

/** The failures every HTTP API reports alike, by status; adapters handle their protocol's special cases on top. */
export function upstreamErrorForStatus(status: number, context: HttpFailureContext): UpstreamError {
  const { provider, detail, ...rest } = context;
  const make = (kind: UpstreamErrorKind, summary: string) =>
    new UpstreamError(kind, withDetail(summary, detail), { status, detail, ...rest });
  if (status === 401 || status === 403) {
    // Never quoted: OpenAI's message echoes part of the key.
    return new UpstreamError('auth', `${provider} refused the credentials (HTTP ${status})`, { status, ...rest });
  }
  const namesQuota = QUOTA_CODES.test(`${rest.providerCode ?? ''} ${rest.providerType ?? ''}`);
  if (status === 402 || ((status === 400 || status === 429) && namesQuota)) {
    return make('quota', `${provider} account has no quota or credits left`);
  }
  if (status === 429) return make('rate-limited', `${provider} is rate limiting requests`);
  if (status === 408 || status === 504 || status === 524) return make('timeout', `${provider} timed out`);
  if (status === 400 || status === 413 || status === 422) return make('bad-request', `${provider} rejected the request`);
  if (status >= 500) return make('unavailable', `${provider} failed (HTTP ${status})`);
  return make('refused', `${provider} refused the request (HTTP ${status})`);
}

/** `Retry-After` as seconds or an HTTP date, or OpenAI's `retry-after-ms`; undefined when absent or unreadable. */
export function parseRetryAfter(headers: Headers, now = Date.now()): number | undefined {
  const msText = headers.get('retry-after-ms')?.trim();
  const ms = Number(msText);
  if (msText && Number.isFinite(ms) && ms >= 0) return Math.ceil(ms / 1000);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
