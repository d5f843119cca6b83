import { i18n } from '../i18n/i18n';
import { getSupportEmail } from '../lib/app-config';
import { ApiError } from '../lib/session-api';
import { VALIDATION_MESSAGES } from '../features/auth/registration-validation';
import { SessionNotEstablishedError } from './auth-context';

/** The sign-in and registration errors, each read in the current interface language. */
export const AUTH_ERROR_MESSAGES = {
  get invalidCredentials(): string {
    return i18n.t('auth.errors.invalidCredentials');
  },
  get rateLimited(): string {
    return i18n.t('auth.errors.rateLimited');
  },
  get emailTaken(): string {
    return i18n.t('auth.errors.emailTaken');
  },
  get signInFailed(): string {
    return i18n.t('auth.errors.signInFailed');
  },
  get registerFailed(): string {
    return i18n.t('auth.errors.registerFailed');
  },
  get network(): string {
    return i18n.t('auth.errors.network');
  },
  /** The server accepted the credentials but the browser kept no session cookie. */
  get cookiesBlocked(): string {
    return i18n.t('auth.errors.cookiesBlocked');
  },
  /** A moderator suspended the account: in the interface language, with the support address. */
  get accountSuspended(): string {
    return i18n.t('auth.errors.accountSuspended', { email: getSupportEmail() });
  },
};

export interface FormErrorResult {
  formError: string | null;
  fieldErrors: Record<string, string>;
}

function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError;
}

// Sign-in and registration go over `/api/auth/*` (lib/session-api.ts), whose errors carry the same
// codes and field errors as the GraphQL ones (spec §8).
const getErrorCode = (error: unknown): string | undefined => (ApiError.is(error) ? error.code : undefined);
// The server writes English: its precise wording is kept for an English interface, the translated sentence used otherwise.
const getErrorMessage = (error: unknown): string | undefined =>
  ApiError.is(error) && i18n.language.split('-')[0] === 'en' ? error.serverMessage : undefined;
const getFieldErrors = (error: unknown): Record<string, string> => (ApiError.is(error) ? error.fieldErrors : {});

/** What a failed sign-in shows: spec §8 codes turned into one clear sentence or field errors. */
export function describeSignInError(error: unknown): FormErrorResult {
  if (error instanceof SessionNotEstablishedError) return { formError: AUTH_ERROR_MESSAGES.cookiesBlocked, fieldErrors: {} };
  switch (getErrorCode(error)) {
    case 'INVALID_CREDENTIALS':
    case 'UNAUTHENTICATED':
      return {
        formError: AUTH_ERROR_MESSAGES.invalidCredentials,
        fieldErrors: {},
      };
    case 'ACCOUNT_SUSPENDED':
      return { formError: AUTH_ERROR_MESSAGES.accountSuspended, fieldErrors: {} };
    case 'RATE_LIMITED':
      return { formError: getErrorMessage(error) ?? AUTH_ERROR_MESSAGES.rateLimited, fieldErrors: {} };
    case 'VALIDATION_FAILED': {
      const fieldErrors = getFieldErrors(error);
      return Object.keys(fieldErrors).length > 0
        ? { formError: null, fieldErrors }
        : {
            formError: getErrorMessage(error) ?? AUTH_ERROR_MESSAGES.signInFailed,
            fieldErrors: {},
          };
    }
    default:
      return {
        formError: isNetworkFailure(error) ? AUTH_ERROR_MESSAGES.network : AUTH_ERROR_MESSAGES.signInFailed,
        fieldErrors: {},
      };
  }
}

const REGISTRATION_FIELDS = new Set(['email', 'password', 'confirmPassword', 'firstName', 'lastName', 'dateOfBirth', 'acceptTerms']);

/** What a failed registration shows; field errors go under their fields. */
export function describeRegisterError(error: unknown): FormErrorResult {
  if (error instanceof SessionNotEstablishedError) return { formError: AUTH_ERROR_MESSAGES.cookiesBlocked, fieldErrors: {} };
  switch (getErrorCode(error)) {
    case 'EMAIL_TAKEN':
      return {
        formError: null,
        fieldErrors: { email: AUTH_ERROR_MESSAGES.emailTaken },
      };
    case 'UNDERAGE':
      return {
        formError: null,
        fieldErrors: { dateOfBirth: VALIDATION_MESSAGES.underage },
      };
    case 'TERMS_NOT_ACCEPTED':
      return {
        formError: null,
        fieldErrors: { acceptTerms: VALIDATION_MESSAGES.acceptTerms },
      };
    case 'RATE_LIMITED':
      return { formError: getErrorMessage(error) ?? AUTH_ERROR_MESSAGES.rateLimited, fieldErrors: {} };
    case 'VALIDATION_FAILED': {
      const all = getFieldErrors(error);
      const fieldErrors = Object.fromEntries(Object.entries(all).filter(([field]) => REGISTRATION_FIELDS.has(field)));
      const unplaced = Object.entries(all).find(([field]) => !REGISTRATION_FIELDS.has(field));
      const formError =
        unplaced?.[1] ?? (Object.keys(fieldErrors).length === 0 ? (getErrorMessage(error) ?? AUTH_ERROR_MESSAGES.registerFailed) : null);
      return { formError, fieldErrors };
    }
    default:
      return {
        formError: isNetworkFailure(error) ? AUTH_ERROR_MESSAGES.network : AUTH_ERROR_MESSAGES.registerFailed,
        fieldErrors: {},
      };
  }
}
