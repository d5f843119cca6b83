import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { describeChatError, NO_CONVERSATION_TOAST } from './chat-errors';

jest.mock('./toaster', () => ({ showToast: jest.fn() }));

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

  it("shows the server's words for a free-plan limit", () => {
    const message = 'You have used all 2 character creations of the Free plan this month.';
    const result = describeChatError(withCode('QUOTA_EXCEEDED', message), FALLBACK);
    expect(result.toast).toMatchObject({ title: 'Free plan limit reached', description: message, variant: 'destructive' });
  });

  it('leaves a lost session to the global handler', () => {
    expect(describeChatError(withCode('UNAUTHENTICATED'), FALLBACK).toast).toBeNull();
  });

  it("keeps the fallback title with the server's explanation of a conflict", () => {
    const result = describeChatError(withCode('CONFLICT', 'Wait for the current reply to finish, or stop it.'), FALLBACK);
    expect(result.toast).toEqual({ ...FALLBACK, description: 'Wait for the current reply to finish, or stop it.' });
  });

  it("uses the spec's words when no conversation is selected", () => {
    expect(NO_CONVERSATION_TOAST).toEqual({ title: 'Error', description: 'No conversation selected', variant: 'destructive' });
  });
});
