import { logger } from '@app/kit';
import { AppError, HTTP_STATUS } from '@app/schema';
import type { Response } from 'express';

/** The REST edge's single error mapping: JSON `{ message, code }` with the code's status. */
export function sendError(res: Response, error: unknown): void {
  if (error instanceof AppError) {
    if (error.details?.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.details.retryAfterSeconds));
    const message = error.code === 'UNAUTHENTICATED' ? 'Unauthorized' : error.message;
    res
      .status(HTTP_STATUS[error.code])
      .json({ message, code: error.code, ...(error.details?.fieldErrors ? { fieldErrors: error.details.fieldErrors } : {}) });
    return;
  }
  logger.error({ err: error }, 'REST handler crashed');
  res.status(500).json({ message: 'Internal server error', code: 'INTERNAL' });
}
