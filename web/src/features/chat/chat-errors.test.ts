import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { i18n, loadCatalog } from '../../i18n/i18n';
import { chatErrorHandler, conversationLoadProblem, describeChatError, noConversationToast } from './chat-errors';
import { showToast } from '../../lib/toaster';

jest.mock('../../lib/toaster', () => ({ showToast: jest.fn() }));

const withCode = (code: string, message = code) => new CombinedGraphQLErrors({ errors: [{ message, extensions: { code } }] });
const FALLBACK = { title: 'Error', description: 'Failed to send message', variant: 'destructive' as const };

describe('describeChatError', () => {
  it('uses the fallback for unknown failures', () => {
    expect(describeChatError(new Error('socket closed'), FALLBACK)).toEqual({ toast: FALLBACK, needsTokens: false });
  });

  it('offers tokens when the balance ran out', () => {
    const result = describeChatError(withCode('INSUFFICIENT_TOKENS', 'You need 1 token for this; your balance is 0.'), FALLBACK);
    expect(result.needsTokens).toBe(true);
    expect(result.toast?.title).toBe('Not enough tokens');
  });

  it('explains a used-up free allowance in the interface language, says when it renews and links to Plans', () => {
    const error = new CombinedGraphQLErrors({
      errors: [
        {
          message: 'You have used all 2 character creations of the Free plan this month.',
          extensions: { code: 'QUOTA_EXCEEDED', quota: 'character', renewsAt: '2026-12-01T00:00:00.000Z' },
        },
      ],
    });
    const result = describeChatError(error, FALLBACK);
    expect(result.toast).toMatchObject({ title: 'Free plan limit reached', variant: 'destructive' });
    expect(result.toast?.description).toBe(
      "You have used all of this month's free character creations. They start again on December 1, 2026.",
    );
    expect(result.toast?.action?.label).toBe('See plans');
    expect(result.needsTokens).toBe(false);
  });

  it('leaves a lost session to the global handler', () => {
    expect(describeChatError(withCode('UNAUTHENTICATED'), FALLBACK).toast).toBeNull();
  });

  it("keeps the fallback title with the server's explanation of a conflict", () => {
    const result = describeChatError(withCode('CONFLICT', 'Wait for the current reply to finish, or stop it.'), FALLBACK);
    expect(result.toast).toEqual({ ...FALLBACK, description: 'Wait for the current reply to finish, or stop it.' });
  });

  it('explains a content-rule refusal in the interface language, by the rule it crossed', async () => {
    const refused = new CombinedGraphQLErrors({
      errors: [
        {
          message: 'Non-consensual sexual content is not allowed.',
          extensions: { code: 'CONTENT_REJECTED', policyCategory: 'non_consent' },
        },
      ],
    });
    expect(describeChatError(refused, FALLBACK).toast).toEqual({
      title: 'Not allowed',
      description: 'Non-consensual sexual content is not allowed.',
      variant: 'destructive',
    });
    await loadCatalog('de');
    await i18n.changeLanguage('de');
    try {
      expect(describeChatError(refused, FALLBACK).toast).toMatchObject({
        title: 'Nicht erlaubt',
        description: 'Sexuelle Inhalte ohne Einvernehmen sind nicht erlaubt.',
      });
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("uses the spec's words when no conversation is selected", () => {
    expect(noConversationToast()).toEqual({ title: 'Error', description: 'No conversation selected', variant: 'destructive' });
  });

  it("explains the server's conflicts and refusals in the interface language", async () => {
    // A pseudo-locale: the real catalogs get these texts from the translators later.
    i18n.addResourceBundle('en-XA', 'translation', {
      chat: { errors: { server: { replyBusy: '[Wait for the reply]', sendingTooFast: '[Slower, please]' } } },
    });
    await i18n.changeLanguage('en-XA');
    try {
      const busy = withCode('CONFLICT', 'Wait for the current reply to finish, or stop it.');
      const tooFast = withCode('RATE_LIMITED', 'You are sending messages too quickly. Please wait a moment.');
      expect(describeChatError(busy, FALLBACK).toast?.description).toBe('[Wait for the reply]');
      expect(describeChatError(tooFast, FALLBACK).toast).toMatchObject({ title: 'Slow down', description: '[Slower, please]' });
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it("gives a server message the catalogs do not know the code's own words, never the server's English", () => {
    const result = describeChatError(withCode('VALIDATION_FAILED', 'The provider has no model named "x".'), FALLBACK);
    expect(result.toast).toEqual({
      ...FALLBACK,
      description: 'Something in your request was not accepted. Please check it and try again.',
    });
    expect(describeChatError(withCode('NOT_FOUND', 'Gone somewhere'), FALLBACK).toast?.description).toBe(
      'It no longer exists, or it is not yours.',
    );
  });

  it('shows the toast through a mutation handler and reports an empty balance', () => {
    const onNeedsTokens = jest.fn();
    const handle = chatErrorHandler(FALLBACK, onNeedsTokens);
    expect(handle(withCode('INSUFFICIENT_TOKENS'))).toBe(true);
    expect(onNeedsTokens).toHaveBeenCalledTimes(1);
    expect(jest.mocked(showToast)).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Not enough tokens' }));
    expect(handle(new Error('socket closed'))).toBe(true);
    expect(jest.mocked(showToast)).toHaveBeenLastCalledWith(FALLBACK);
  });
});

describe('conversationLoadProblem', () => {
  it('treats a malformed id like an unknown one: not found', () => {
    expect(conversationLoadProblem(withCode('NOT_FOUND', 'Conversation not found'))).toBe('notFound');
    expect(conversationLoadProblem(withCode('BAD_USER_INPUT', 'Variable "$conversationId" got invalid value'))).toBe('notFound');
    expect(conversationLoadProblem(withCode('VALIDATION_FAILED', 'Invalid id'))).toBe('notFound');
  });

  it('keeps "could not load" for transport and server failures', () => {
    expect(conversationLoadProblem(new Error('Failed to fetch'))).toBe('failed');
    expect(conversationLoadProblem(withCode('INTERNAL'))).toBe('failed');
    expect(conversationLoadProblem(withCode('UNAVAILABLE'))).toBe('failed');
  });
});
