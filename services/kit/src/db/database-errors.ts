import { AppError } from '@app/schema';

/** How long a client is told to wait before retrying while the database is out of reach. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket errors of a connection that could not be opened or was lost. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's own codes for a server that is going away or not taking work: 08000–08007 (connection
 * exceptions; not 08P01, a protocol bug), 57P01–57P03 (shut down, crashed, starting up), 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATE = /^(0800[0-7]|57P0[123]|53300)$/;

/** Messages of the pg driver, its pool and PGlite for a connection that is gone or never came. */
const UNREACHABLE_MESSAGE =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|PGlite is clos(ed|ing))/;

/** Where a failure wraps the one that caused it (TypeORM's QueryFailedError keeps the driver's as `driverError`). */
const MAX_CAUSE_DEPTH = 5;

/** True when `error`, or what caused it, says the database cannot be reached (not that a query was wrong). */
export function isDatabaseUnreachable(error: unknown): boolean {
  let current: unknown = error;
  // Read by shape, not `instanceof Error`: errors raised by Node itself may come from another realm (vm contexts, test runners).
  for (let depth = 0; depth < MAX_CAUSE_DEPTH && current && typeof current === 'object'; depth++) {
    const { code, message, driverError, cause } = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGE.test(message)) return true;
    current = driverError ?? cause;
  }
  return false;
}

/** The error a client sees while the database is out of reach: UNAVAILABLE (503) with a Retry-After. */
export function databaseUnavailableError(): AppError {
  return new AppError('UNAVAILABLE', 'The service is temporarily unavailable. Please try again in a few seconds.', {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
  });
}
