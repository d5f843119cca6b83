/**
 * Reading what an upstream API says when it fails, and quoting it safely: error bodies in the shapes AI
 * APIs use, secrets redacted, one short line.
 */

/** Provider text quoted in errors is cut to this many characters: enough to act on, too little to flood a log line. */
export const UPSTREAM_QUOTE_LENGTH = 300;

/** The parsed value, or undefined when the text is not JSON. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What an error body says: the message, and the provider's machine-readable code and type when it gave them. */
export interface UpstreamErrorInfo {
  message?: string;
  code?: string;
  type?: string;
}

/**
 * The message in an error body: OpenAI's `{ error: { message, type, code } }`, `{ error: "..." }` (Ollama),
 * `{ object: "error", message }` (vLLM), FastAPI's `{ detail }` (a string, or a list of `{ loc, msg }`),
 * AUTOMATIC1111's `{ error, detail, body, errors }`, or plain text. An HTML page says nothing worth quoting.
 */
export function describeErrorBody(raw: string, contentType: string): UpstreamErrorInfo {
  const text = raw.trim();
  if (!text) return {};
  const parsed = tryParseJson(text);
  if (isJsonObject(parsed)) return describeErrorObject(parsed);
  if (/html/i.test(contentType) || /^<(!doctype|html)/i.test(text)) return {};
  return { message: text };
}

/** The same for an error value already parsed (e.g. an `error` object sent inside a 200 stream). */
export function describeErrorObject(value: unknown): UpstreamErrorInfo {
  if (typeof value === 'string') return value.trim() ? { message: value } : {};
  if (!isJsonObject(value)) return {};
  const nested = isJsonObject(value.error) ? value.error : value;
  const message = [
    nested.message,
    detailText(nested.detail),
    nested.errors,
    nested.msg,
    typeof value.error === 'string' ? value.error : undefined,
  ].find((candidate): candidate is string => typeof candidate === 'string' && candidate.trim().length > 0);
  const code = typeof nested.code === 'string' || typeof nested.code === 'number' ? String(nested.code) : undefined;
  const type = typeof nested.type === 'string' ? nested.type : undefined;
  return { message, code, type };
}

function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  const parts = detail.map((item) => {
    if (!isJsonObject(item)) return String(item);
    const where = Array.isArray(item.loc) ? item.loc.filter((part) => part !== 'body').join('.') : '';
    const what = typeof item.msg === 'string' ? item.msg : '';
    return where ? `${where}: ${what}` : what;
  });
  return parts.filter(Boolean).join('; ') || undefined;
}

/** Provider text made safe to show: one line, no secrets, at most UPSTREAM_QUOTE_LENGTH characters; '' for none. */
export function quoteUpstreamText(text: string | undefined, secrets: readonly string[] = []): string {
  if (!text) return '';
  return truncate(redactSecrets(text.replace(/\s+/g, ' ').trim(), secrets), UPSTREAM_QUOTE_LENGTH);
}

const REDACTED = '[redacted]';

/**
 * Removes the given secrets (the configured key, credentials, their encodings) and anything shaped like one:
 * provider keys (`sk-…`, `or-…`, `gsk_…`), bearer and basic credentials, credentials in URLs, and secret
 * query or form parameters. Providers echo keys and signed URLs in their error messages.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  // Longest first, so a secret containing another is removed whole; very short ones would garble the text.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= 3) out = out.split(secret).join(REDACTED);
  }
  return out
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`)
    .replace(/\b(sk|rk|pk|or|gsk|xai)[-_][A-Za-z0-9_*.-]{6,}/g, REDACTED)
    .replace(/\b(Bearer|Basic)\s+\S+/gi, `$1 ${REDACTED}`)
    .replace(/\b([\w-]*(?:key|token|secret|passw(?:or)?d|signature|credentials?)|sig|auth)=[^\s&]+/gi, `$1=${REDACTED}`);
}

/** `summary: detail`, or the summary alone when there is no detail. */
export function withDetail(summary: string, detail: string): string {
  return detail ? `${summary}: ${detail}` : summary;
}

function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
