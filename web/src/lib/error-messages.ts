import { i18n } from '../i18n/i18n';
import { getErrorCode, getErrorMessage } from './graphql-errors';

/** Every code the server sends (schema/src/errors.ts); each has a sentence under `errors.codes.<CODE>` in the catalogs. */
export const SERVER_ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'VALIDATION_FAILED',
  'EMAIL_TAKEN',
  'INVALID_CREDENTIALS',
  'UNDERAGE',
  'TERMS_NOT_ACCEPTED',
  'RATE_LIMITED',
  'INSUFFICIENT_TOKENS',
  'QUOTA_EXCEEDED',
  'CONFLICT',
  'CONTENT_REJECTED',
  'ACCOUNT_SUSPENDED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'INVALID_IMAGE',
  'UNAVAILABLE',
  'TIMEOUT',
  'INTERNAL',
] as const;
export type ServerErrorCode = (typeof SERVER_ERROR_CODES)[number];

const isServerErrorCode = (code: string | undefined): code is ServerErrorCode =>
  code !== undefined && (SERVER_ERROR_CODES as readonly string[]).includes(code);

/**
 * What went wrong, in the interface language. The server's own message is English: it is kept only for an English
 * interface, where it is the most precise wording (e.g. which field is too long); every other language gets the
 * code's translated sentence. Undefined for errors without a code (a dropped connection): the caller's fallback.
 */
export function translatedErrorMessage(error: unknown, language: string = i18n.language): string | undefined {
  const code = getErrorCode(error);
  if (!isServerErrorCode(code)) return undefined;
  const serverMessage = getErrorMessage(error);
  if (serverMessage && language.split('-')[0] === 'en' && code !== 'INTERNAL') return serverMessage;
  return i18n.t(`errors.codes.${code}`, { lng: language });
}
