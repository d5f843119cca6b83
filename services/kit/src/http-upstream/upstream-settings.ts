import { UpstreamError, type UpstreamErrorKind } from './upstream-error';

/** The error codes provider adapters report (chat, images, moderation), the same for every adapter. */
export type ProviderErrorCode = 'CANCELLED' | 'TIMEOUT' | 'RATE_LIMITED' | 'VALIDATION_FAILED' | 'UNAVAILABLE';

const CODE_OF_KIND: Record<UpstreamErrorKind, ProviderErrorCode> = {
  cancelled: 'CANCELLED',
  timeout: 'TIMEOUT',
  'rate-limited': 'RATE_LIMITED',
  'bad-request': 'VALIDATION_FAILED',
  // Refused credentials, an exhausted quota or a missing endpoint are the operator's to fix: the member sees "unavailable".
  auth: 'UNAVAILABLE',
  quota: 'UNAVAILABLE',
  refused: 'UNAVAILABLE',
  unavailable: 'UNAVAILABLE',
};

/** How an upstream failure reads to the adapter's caller. */
export const providerErrorCode = (kind: UpstreamErrorKind): ProviderErrorCode => CODE_OF_KIND[kind];

/**
 * An API's base URL as settings give it, made canonical: http(s) only, no query or fragment, no trailing slashes and
 * no pasted endpoint (`suffix`, e.g. /\/chat\/completions$/i), so `…/v1`, `…/v1/` and `…/v1/chat/completions` agree.
 * Throws `message` for anything else.
 */
export function normaliseApiBaseUrl(raw: string, suffix: RegExp, message: string): string {
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
  // URL keeps a slash for an empty path.
  return url.toString().replace(/\/+$/, '');
}

/** Options without their undefined entries, so spreading them over defaults keeps the defaults. */
export function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as T;
}

const KIND_OF_CODE: Record<ProviderErrorCode, UpstreamErrorKind> = {
  CANCELLED: 'cancelled',
  TIMEOUT: 'timeout',
  RATE_LIMITED: 'rate-limited',
  VALIDATION_FAILED: 'bad-request',
  UNAVAILABLE: 'unavailable',
};

/**
 * The upstream failure behind a provider error, for `provider_errors_total`: an UpstreamError's kind, the kind an adapter
 * kept on its own error (`upstreamKind`), or the kind its code stands for; `unavailable` for anything else.
 */
export function upstreamKindOf(error: unknown): UpstreamErrorKind {
  const fields = (typeof error === 'object' && error !== null ? error : {}) as { upstreamKind?: unknown; code?: unknown };
  if (typeof fields.upstreamKind === 'string') return fields.upstreamKind as UpstreamErrorKind;
  if (error instanceof UpstreamError) return error.kind;
  return KIND_OF_CODE[fields.code as ProviderErrorCode] ?? 'unavailable';
}
