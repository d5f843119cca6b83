import { z } from 'zod';

/** Stable error codes shared by every service, the gateway (GraphQL `extensions.code`, REST `code`) and the web. */
export const ERROR_CODES = [
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

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorDetails = z
  .object({
    /** Per-field messages for form validation (field name → message). */
    fieldErrors: z.record(z.string(), z.string()).optional(),
    /** Seconds until a throttled action may be retried. */
    retryAfterSeconds: z.number().int().nonnegative().optional(),
    /** CONTENT_REJECTED: which hard line the text crossed, `unavailable` when it could not be checked, `blocked_hash` for a picture moderators removed (clients translate it). */
    policyCategory: z.enum(['minors', 'non_consent', 'real_person', 'unavailable', 'blocked_hash']).optional(),
    /** INSUFFICIENT_TOKENS, QUOTA_EXCEEDED: when the free plan's tokens and allowances renew (ISO time). */
    renewsAt: z.string().datetime().optional(),
    /** QUOTA_EXCEEDED: which free-plan allowance is used up. */
    quota: z.enum(['image', 'chat', 'character', 'story']).optional(),
  })
  .optional();
export type ErrorDetails = z.infer<typeof ErrorDetails>;

export const ErrorBody = z.object({ code: ErrorCode, message: z.string(), details: ErrorDetails });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The one error type: services throw codes, the edges map them to HTTP and GraphQL once. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, details: this.details };
  }

  static fromBody(body: ErrorBody): AppError {
    return new AppError(body.code, body.message, body.details);
  }
}

export const isAppError = (value: unknown): value is AppError => value instanceof AppError;

/** HTTP status for each code, used by the REST edge. */
export const HTTP_STATUS: Record<ErrorCode, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION_FAILED: 400,
  EMAIL_TAKEN: 409,
  INVALID_CREDENTIALS: 401,
  UNDERAGE: 400,
  TERMS_NOT_ACCEPTED: 400,
  RATE_LIMITED: 429,
  INSUFFICIENT_TOKENS: 402,
  QUOTA_EXCEEDED: 429,
  CONFLICT: 409,
  CONTENT_REJECTED: 422,
  ACCOUNT_SUSPENDED: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  INVALID_IMAGE: 422,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
  INTERNAL: 500,
};

/** Builds a VALIDATION_FAILED error from zod issues, keeping the first message per field. */
export function validationError(error: z.ZodError, message = 'Invalid input'): AppError {
  const fieldErrors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.join('.') : '_';
    fieldErrors[field] ??= issue.message;
  }
  const first = Object.values(fieldErrors)[0];
  return new AppError('VALIDATION_FAILED', first ?? message, { fieldErrors });
}
