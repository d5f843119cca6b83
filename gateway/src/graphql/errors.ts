import { AppError, HTTP_STATUS } from '@app/schema';
import { type GraphQLFormattedError, GraphQLError } from 'graphql';
import { logger } from '@app/kit';
import { ALL_ERROR_CODES } from './error-codes';

const KNOWN_CODES = new Set<unknown>(ALL_ERROR_CODES);

/** Maps errors once: AppError codes become `extensions.code`; anything unexpected is logged and hidden. */
export function formatGraphQLError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : error;
  if (original instanceof AppError) {
    return {
      message: original.message,
      path: formatted.path,
      extensions: { code: original.code, ...(original.details ?? {}) },
    };
  }
  // Apollo re-tags validation errors GRAPHQL_VALIDATION_FAILED; a rule's own code (QUERY_TOO_COMPLEX) is more useful.
  const ruleCode = original instanceof GraphQLError ? original.extensions.code : undefined;
  const code = ruleCode ?? formatted.extensions?.code;
  if (original && !(original instanceof GraphQLError) && (code === undefined || code === 'INTERNAL_SERVER_ERROR')) {
    logger.error({ err: original, path: formatted.path }, 'resolver crashed');
    return { message: 'Internal server error', path: formatted.path, extensions: { code: 'INTERNAL' } };
  }
  // Every code a client sees is one the schema's ErrorCode enum documents.
  const known = KNOWN_CODES.has(code) ? code : 'BAD_REQUEST';
  return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code: known } };
}

/** An AppError raised before any resolver runs (an operation refused as a whole), carrying its HTTP status for Apollo. */
export function asGraphQLError(error: unknown): GraphQLError {
  if (!(error instanceof AppError)) throw error;
  return new GraphQLError(error.message, {
    originalError: error,
    extensions: { code: error.code, http: { status: HTTP_STATUS[error.code] } },
  });
}
