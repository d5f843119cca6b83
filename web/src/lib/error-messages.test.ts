import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { ERROR_CODES } from '@app/schema';
import en from '../i18n/locales/en.json';
import { i18n } from '../i18n/i18n';
import { SERVER_ERROR_CODES, translatedErrorMessage } from './error-messages';

const refusal = (code: string, message: string) => new CombinedGraphQLErrors({ errors: [{ message, extensions: { code } }] });

describe('server error codes in the interface language', () => {
  beforeAll(() => {
    i18n.addResourceBundle('xx', 'translation', { errors: { codes: { CONFLICT: 'Inzwischen geändert.' } } });
  });

  it("knows exactly the server's codes (the web app does not bundle the schema package, so it keeps its own copy)", () => {
    expect([...SERVER_ERROR_CODES].sort()).toEqual([...ERROR_CODES].sort());
  });

  it('has a sentence for every code the server sends', () => {
    expect(SERVER_ERROR_CODES.filter((code) => !(code in en.errors.codes))).toEqual([]);
  });

  it("keeps the server's precise English for an English interface, except for internal errors", () => {
    expect(translatedErrorMessage(refusal('VALIDATION_FAILED', 'A name must be at most 100 characters'), 'en')).toBe(
      'A name must be at most 100 characters',
    );
    expect(translatedErrorMessage(refusal('INTERNAL', 'TypeError: x is undefined'), 'en')).toBe(en.errors.codes.INTERNAL);
  });

  it("gives other languages the code's translated sentence, never the server's English", () => {
    expect(translatedErrorMessage(refusal('CONFLICT', 'The character was changed meanwhile'), 'xx')).toBe('Inzwischen geändert.');
  });

  it('leaves errors without a known code to the caller', () => {
    expect(translatedErrorMessage(new Error('Failed to fetch'), 'xx')).toBeUndefined();
    expect(translatedErrorMessage(refusal('SOMETHING_NEW', 'x'), 'xx')).toBeUndefined();
  });
});
