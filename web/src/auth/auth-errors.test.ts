import { VALIDATION_MESSAGES } from '../features/auth/registration-validation';
import { ApiError } from '../lib/session-api';
import { SessionNotEstablishedError } from './auth-context';
import { AUTH_ERROR_MESSAGES, describeRegisterError, describeSignInError } from './auth-errors';

const apiError = (status: number, body: Record<string, unknown>) => new ApiError(status, body);

describe('describeSignInError', () => {
  it('shows one sentence for wrong credentials, whatever the server said', () => {
    expect(describeSignInError(apiError(401, { code: 'INVALID_CREDENTIALS', message: 'Nope' }))).toEqual({
      formError: AUTH_ERROR_MESSAGES.invalidCredentials,
      fieldErrors: {},
    });
  });

  it('explains a suspended account in the interface language, with the support address', () => {
    const { formError } = describeSignInError(apiError(403, { code: 'ACCOUNT_SUSPENDED', message: 'Your account has been suspended.' }));
    expect(formError).toBe(
      'This account has been suspended, so you cannot sign in. If you think this is a mistake, write to support@velvet-ai.app.',
    );
    expect(formError).toBe(AUTH_ERROR_MESSAGES.accountSuspended);
  });

  it('shows the rate limiter its own message, else a default', () => {
    expect(describeSignInError(apiError(429, { code: 'RATE_LIMITED', message: 'Try again in 5 minutes' })).formError).toBe(
      'Try again in 5 minutes',
    );
    expect(describeSignInError(apiError(429, {})).formError).toBe(AUTH_ERROR_MESSAGES.rateLimited);
  });

  it('puts validation errors under their fields', () => {
    const error = apiError(400, { code: 'VALIDATION_FAILED', message: 'Invalid input', fieldErrors: { email: 'Bad email' } });
    expect(describeSignInError(error)).toEqual({ formError: null, fieldErrors: { email: 'Bad email' } });
  });

  it('tells network failures and a refused cookie apart from other failures', () => {
    expect(describeSignInError(new TypeError('Failed to fetch')).formError).toBe(AUTH_ERROR_MESSAGES.network);
    expect(describeSignInError(new SessionNotEstablishedError()).formError).toMatch(/allow cookies/);
    expect(describeSignInError(apiError(500, { code: 'INTERNAL' })).formError).toBe(AUTH_ERROR_MESSAGES.signInFailed);
  });
});

describe('describeRegisterError', () => {
  it('maps the registration codes to their fields', () => {
    expect(describeRegisterError(apiError(409, { code: 'EMAIL_TAKEN' })).fieldErrors).toEqual({ email: AUTH_ERROR_MESSAGES.emailTaken });
    expect(describeRegisterError(apiError(400, { code: 'UNDERAGE' })).fieldErrors).toEqual({ dateOfBirth: VALIDATION_MESSAGES.underage });
    expect(describeRegisterError(apiError(400, { code: 'TERMS_NOT_ACCEPTED' })).fieldErrors).toEqual({
      acceptTerms: VALIDATION_MESSAGES.acceptTerms,
    });
  });

  it('keeps field errors of known fields under them and shows any other as the form error', () => {
    const error = apiError(400, {
      code: 'VALIDATION_FAILED',
      message: 'Invalid input',
      fieldErrors: { password: 'Too short', captcha: 'Please try again' },
    });
    expect(describeRegisterError(error)).toEqual({ formError: 'Please try again', fieldErrors: { password: 'Too short' } });
  });

  it('falls back to a generic sentence', () => {
    expect(describeRegisterError(new Error('boom')).formError).toBe(AUTH_ERROR_MESSAGES.registerFailed);
  });
});
