import {
  type UpstreamError,
  type UpstreamErrorKind,
  type UpstreamExchange,
  type UpstreamWording,
  normaliseApiBaseUrl,
  providerErrorCode,
} from '@app/kit';
import { ImageProviderError } from './image-provider';

/**
 * What only the HTTP image adapters (OpenAI Images, AUTOMATIC1111) share: their error type and wording, the
 * checks that a payload really is an image, and their configuration helpers. The HTTP exchange itself (time
 * limits, abort, bounded reads, status mapping, redaction) is kit's UpstreamExchange.
 */

export type ImageErrorCode = ImageProviderError['code'];

/** An ImageProviderError that may say how long to wait before retrying (from `Retry-After`). */
export class ImageProviderHttpError extends ImageProviderError {
  /** The upstream failure it came from (`auth`, `quota`…), which its code alone does not tell apart; for operators' metrics. */
  upstreamKind?: UpstreamErrorKind;

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

/** How the image adapters' exchange failures read; `urlHint` names the setting to check. */
export function imageProviderWording(urlHint: string): UpstreamWording {
  return {
    provider: 'The image provider',
    cancelled: 'The image generation was cancelled',
    totalTimeout: (limit) => `The image provider did not deliver the image within ${limit}`,
    urlHint,
  };
}

/** An upstream failure as an ImageProviderError, in kit's words or the adapter's own. */
export function toImageProviderError(failure: UpstreamError, message = failure.message): ImageProviderHttpError {
  const error = new ImageProviderHttpError(
    providerErrorCode(failure.kind),
    message,
    failure.status,
    failure.retryable,
    failure.retryAfterSeconds,
  );
  error.upstreamKind = failure.kind;
  if (failure.cause !== undefined) (error as Error).cause = failure.cause;
  return error;
}

/** Whatever ended a generation as an ImageProviderError; the reason the exchange was stopped wins. */
export function asImageProviderError(error: unknown, exchange: UpstreamExchange): ImageProviderError {
  if (error instanceof ImageProviderError && !exchange.cause) return error;
  return toImageProviderError(exchange.failure(error));
}

/** A failure of the answer itself (no image, bad base64...): another attempt may do better. */
export function unavailable(message: string, status?: number): ImageProviderHttpError {
  return new ImageProviderHttpError('UNAVAILABLE', message, status, true);
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
  if (!imageFormat(bytes)) throw unavailable('The image provider sent something that is not an image', status);
  return bytes;
}

/** An http(s) URL without trailing slashes or the given pasted endpoint suffix; throws `message` otherwise. */
export function normaliseBaseUrl(raw: string, suffix: RegExp, message: string): URL {
  return new URL(normaliseApiBaseUrl(raw, suffix, message));
}

/** `url` as text without a trailing slash (URL keeps one for an empty path). */
export function urlText(url: URL): string {
  return url.toString().replace(/\/+$/, '');
}
