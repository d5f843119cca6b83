import { logger } from '@app/kit';
import { AppError, HTTP_STATUS } from '@app/schema';
import type { Response } from 'express';

/** What a 503 without a service-given delay tells clients to wait: long enough for a restarted service to answer again. */
const DEFAULT_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Seconds a client should wait before retrying, when the error is worth retrying at all. */
export function retryAfterSeconds(error: AppError): number | undefined {
  if (error.details?.retryAfterSeconds !== undefined) return error.details.retryAfterSeconds;
  return error.code === 'UNAVAILABLE' ? DEFAULT_UNAVAILABLE_RETRY_AFTER_SECONDS : undefined;
}

/** The REST edge's single error mapping: JSON `{ message, code }` with the code's status. */
export function sendError(res: Response, error: unknown): void {
  if (error instanceof AppError) {
    const retryAfter = retryAfterSeconds(error);
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    const message = error.code === 'UNAUTHENTICATED' ? 'Unauthorized' : error.message;
    const { fieldErrors, policyCategory } = error.details ?? {};
    res
      .status(HTTP_STATUS[error.code])
      .json({ message, code: error.code, ...(fieldErrors ? { fieldErrors } : {}), ...(policyCategory ? { policyCategory } : {}) });
    return;
  }
  logger.error({ err: error }, 'REST handler crashed');
  res.status(500).json({ message: 'Internal server error', code: 'INTERNAL' });
}
