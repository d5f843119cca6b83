import { CombinedGraphQLErrors, ServerError } from '@apollo/client/errors';
import type { GraphQLFormattedError } from 'graphql';

/** `extensions.code` values the gateway sends (see gateway's AppError codes). */
export type AppErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'VALIDATION_FAILED'
  | 'EMAIL_TAKEN'
  | 'INVALID_CREDENTIALS'
  | 'RATE_LIMITED'
  | 'UNDERAGE'
  | 'TERMS_NOT_ACCEPTED'
  | 'INSUFFICIENT_TOKENS'
  | 'QUOTA_EXCEEDED'
  | 'CONTENT_REJECTED'
  | 'ACCOUNT_SUSPENDED'
  | 'NOT_FOUND';

function formattedErrors(error: unknown): readonly GraphQLFormattedError[] {
  if (CombinedGraphQLErrors.is(error)) return error.errors;
  if (ServerError.is(error)) {
    // A non-2xx reply (e.g. a 429 from the rate limiter) may still carry a GraphQL error body.
    try {
      const body = JSON.parse(error.bodyText) as { errors?: unknown };
      if (Array.isArray(body.errors)) return body.errors as GraphQLFormattedError[];
    } catch {
      return [];
    }
  }
  return [];
}

function codeOf(error: GraphQLFormattedError): string | undefined {
  const code = error.extensions?.['code'];
  return typeof code === 'string' ? code : undefined;
}

/** The first error code in an Apollo error, with HTTP statuses mapped for non-GraphQL replies. */
export function getErrorCode(error: unknown): AppErrorCode | (string & {}) | undefined {
  for (const item of formattedErrors(error)) {
    const code = codeOf(item);
    if (code) return code;
  }
  if (ServerError.is(error)) {
    if (error.statusCode === 401) return 'UNAUTHENTICATED';
    if (error.statusCode === 429) return 'RATE_LIMITED';
  }
  return undefined;
}

export function isUnauthenticatedError(error: unknown): boolean {
  return getErrorCode(error) === 'UNAUTHENTICATED';
}

/** `extensions.fieldErrors` ({ field: message }) of a VALIDATION_FAILED error, merged over all errors. */
export function getFieldErrors(error: unknown): Record<string, string> {
  const fieldErrors: Record<string, string> = {};
  for (const item of formattedErrors(error)) {
    const raw = item.extensions?.['fieldErrors'];
    if (!raw || typeof raw !== 'object') continue;
    for (const [field, message] of Object.entries(raw as Record<string, unknown>)) {
      if (typeof message === 'string') fieldErrors[field] = message;
      else if (Array.isArray(message) && typeof message[0] === 'string') fieldErrors[field] = message[0];
    }
  }
  return fieldErrors;
}

export type PolicyCategory = 'minors' | 'non_consent' | 'real_person' | 'unavailable' | 'blocked_hash';
const POLICY_CATEGORIES: readonly string[] = ['minors', 'non_consent', 'real_person', 'unavailable', 'blocked_hash'];

export function isPolicyCategory(value: unknown): value is PolicyCategory {
  return typeof value === 'string' && POLICY_CATEGORIES.includes(value);
}

/**
 * For CONTENT_REJECTED: which content rule the text crossed (`extensions.policyCategory`), or
 * `blocked_hash` for a picture that matches one moderators removed.
 */
export function getPolicyCategory(error: unknown): PolicyCategory | undefined {
  const category = formattedErrors(error)[0]?.extensions?.['policyCategory'];
  return isPolicyCategory(category) ? category : undefined;
}

/** The message the server gave the first GraphQL error, if any (never a transport error's text). */
export function getErrorMessage(error: unknown): string | undefined {
  return formattedErrors(error)[0]?.message || undefined;
}
