import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { i18n } from '../i18n/i18n';
import { TOASTS, getRenewsAt, outOfTokensToast, setToastNavigator, toastForError } from './error-toasts';

jest.mock('./toaster', () => ({ showToast: jest.fn() }));

describe('TOASTS', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('has the spec wording in English', () => {
    expect(TOASTS.unauthorized).toEqual({
      title: 'Unauthorized',
      description: 'You are logged out. Logging in again...',
      variant: 'destructive',
    });
    expect(TOASTS.generationFailed).toEqual({
      title: 'Generation Failed',
      description: 'Failed to generate image. Please try again.',
      variant: 'destructive',
    });
    expect(TOASTS.imageGenerated).toEqual({ title: 'Image Generated!', description: 'Your AI artwork has been created successfully.' });
    expect(TOASTS.characterDeleted).toEqual({ title: 'Character Deleted' });
    expect(TOASTS.liked).toEqual({ title: 'Liked!' });
    expect(TOASTS.reportSent).toEqual({ title: 'Report sent', description: 'Thanks — our moderators will review it.' });
  });

  it('is read in the current language', async () => {
    i18n.addResourceBundle('xx', 'translation', { toasts: { liked: { title: 'Gefällt!' } } });
    await i18n.changeLanguage('xx');
    expect(TOASTS.liked.title).toBe('Gefällt!');
    // Missing in that language: English.
    expect(TOASTS.unauthorized.title).toBe('Unauthorized');
  });

  it('lists every toast of the catalogue', () => {
    expect(Object.keys(TOASTS)).toHaveLength(33);
  });

  it('maps session and quota errors to their toast, others to the fallback', () => {
    const withCode = (code: string) => new CombinedGraphQLErrors({ errors: [{ message: code, extensions: { code } }] });
    const fallback = { title: 'Fallback' };
    expect(toastForError(new Error('boom'), fallback)).toBe(fallback);
    expect(toastForError(withCode('UNAUTHENTICATED'), fallback)).toEqual(TOASTS.unauthorized);
    expect(toastForError(withCode('INSUFFICIENT_TOKENS'), fallback).title).toBe('Not enough tokens');
  });

  it('explains a content-rule refusal by the rule it crossed, or in general when the server names none', () => {
    const refused = (policyCategory?: string) =>
      new CombinedGraphQLErrors({ errors: [{ message: 'refused', extensions: { code: 'CONTENT_REJECTED', policyCategory } }] });
    expect(toastForError(refused('real_person'), { title: 'Fallback' })).toEqual({
      title: 'Not allowed',
      description: 'Sexual content about real, named people is not allowed.',
      variant: 'destructive',
    });
    expect(toastForError(refused('unavailable'), { title: 'Fallback' }).description).toMatch(/could not be checked/);
    expect(toastForError(refused(), { title: 'Fallback' })).toEqual(TOASTS.contentRejected);
    // Publishing a picture moderators removed before.
    expect(toastForError(refused('blocked_hash'), { title: 'Fallback' }).description).toMatch(/moderators removed/);
  });
});

describe('out of tokens', () => {
  const withCode = (code: string, renewsAt?: string) =>
    new CombinedGraphQLErrors({ errors: [{ message: code, extensions: { code, ...(renewsAt ? { renewsAt } : {}) } }] });

  it('says when the free tokens renew and links to the Plans screen', () => {
    const assign = jest.fn();
    setToastNavigator(assign);
    const toast = toastForError(withCode('INSUFFICIENT_TOKENS', '2025-11-01T00:00:00.000Z'), { title: 'Fallback' });
    expect(toast).toMatchObject({
      title: 'Not enough tokens',
      description: 'Your balance is empty. Free tokens are topped up on November 1, 2025.',
      variant: 'destructive',
      action: { label: 'See plans' },
    });
    toast.action!.onClick();
    expect(assign).toHaveBeenCalledWith('/subscribe?reason=tokens');
    setToastNavigator(null);
  });

  it('explains a used-up free allowance, with or without the renewal date', () => {
    expect(toastForError(withCode('QUOTA_EXCEEDED', '2025-12-01T00:00:00.000Z'), { title: 'Fallback' }).description).toBe(
      "You have used this month's free allowance. It starts again on December 1, 2025.",
    );
    const undated = outOfTokensToast('quota');
    expect(undated.title).toBe('Free plan limit reached');
    expect(undated.description).toBe("You have used this month's free allowance. It starts again next month.");
    expect(getRenewsAt(new Error('boom'))).toBeUndefined();
  });
});
