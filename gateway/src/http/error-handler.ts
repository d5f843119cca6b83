import { AppError } from '@app/schema';
import type express from 'express';
import { sendError } from '../rest/send-error';

/** The fields body-parser, raw-body and Express's router put on the errors they raise (http-errors). */
interface HttpErrorFields {
  status?: number;
  type?: string;
}

const malformed = (message: string) => new AppError('VALIDATION_FAILED', message);

/** body-parser's error types whose cause is the request, and what to tell the client. */
const CLIENT_FAULTS: Record<string, () => AppError> = {
  'entity.too.large': () => new AppError('PAYLOAD_TOO_LARGE', 'Request body too large'),
  'parameters.too.many': () => new AppError('PAYLOAD_TOO_LARGE', 'The request body has too many parameters.'),
  'charset.unsupported': () =>
    new AppError('UNSUPPORTED_MEDIA_TYPE', 'The charset in Content-Type is not supported; send the body in UTF-8.'),
  'encoding.unsupported': () =>
    new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      'The Content-Encoding is not supported; send the body uncompressed, or compressed with gzip, deflate or br.',
    ),
  'entity.parse.failed': () => malformed('The request body is not valid JSON.'),
  'entity.verify.failed': () => malformed('The request body was refused.'),
  'querystring.parse.rangeError': () => malformed('The request body is nested too deeply.'),
  'request.aborted': () => malformed('The request was aborted before its body arrived.'),
  'request.size.invalid': () => malformed('The request body does not match its Content-Length.'),
};

/**
 * What an error raised while reading the request (body parsers, Express's router) means for the client,
 * or null when the fault is ours. Shared by every body parser so each answers alike: 400, 413 or 415, never a 5xx.
 */
export function requestReadError(error: unknown, req: express.Request): AppError | null {
  if (!error || typeof error !== 'object' || error instanceof AppError) return null;
  const { status, type } = error as HttpErrorFields;
  const known = type ? CLIENT_FAULTS[type] : undefined;
  if (known) return known();
  // raw-body finds the stream unreadable when the client went away first; otherwise a parser ran twice (ours).
  if (type === 'stream.not.readable' && (req.destroyed || req.readableAborted)) return CLIENT_FAULTS['request.aborted']!();
  if (status === 404) return new AppError('NOT_FOUND', 'Not found');
  if (error instanceof URIError) return malformed('The URL is not correctly percent-encoded.');
  if (status === 413) return CLIENT_FAULTS['entity.too.large']!();
  if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'The request body has an unsupported media type.');
  if (status !== undefined && status >= 400 && status < 500) return malformed('The request is malformed.');
  return null;
}

/** The edge's last handler: body-parser failures and anything a route let through become one JSON error shape. */
export function finalErrorHandler(error: unknown, req: express.Request, res: express.Response, next: express.NextFunction): void {
  // A response already under way can only be cut short; Express's own handler closes the connection.
  if (res.headersSent) return next(error);
  sendError(res, requestReadError(error, req) ?? error);
}
