import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { i18n, loadCatalog } from '../../i18n/i18n';
import { describeChatError, NO_CONVERSATION_TOAST } from './chat-errors';

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
    expect(NO_CONVERSATION_TOAST).toEqual({ title: 'Error', description: 'No conversation selected', variant: 'destructive' });
  });
});
