import { i18n } from '../../i18n/i18n';
import { TOASTS, contentRejectedToast, getQuotaKind, getRenewsAt, outOfTokensToast } from '../../lib/error-toasts';
import { getErrorCode, getErrorMessage, getPolicyCategory } from '../../lib/graphql-errors';
import { showToast, type ToastInput } from '../../lib/toaster';

/** What a failed chat or character request shows. */
export interface ChatErrorToast {
  /** Null when nothing should be shown here (a lost session is handled globally). */
  toast: ToastInput | null;
  /** Out of tokens: offer the way to buy more. */
  needsTokens: boolean;
}

/** Spec §5: sending with no conversation selected is an error. */
export function noConversationToast(): ToastInput {
  return { title: i18n.t('chat.errors.title'), description: i18n.t('chat.errors.server.noConversation'), variant: 'destructive' };
}

type ServerMessageKey = keyof typeof SERVER_MESSAGES;

/**
 * The chat service's member-facing messages (English, part of its contract), by their key under `chat.errors.server`:
 * the member reads them in the interface language.
 */
const SERVER_MESSAGES = {
  noConversation: 'No conversation selected',
  conversationNotFound: 'Conversation not found',
  messageNotFound: 'Message not found',
  characterNotFound: 'Character not found',
  storyNotFound: 'Story not found',
  passageNotFound: 'Passage not found',
  replyBusy: 'Wait for the current reply to finish, or stop it.',
  nothingToRegenerate: 'There is no reply to regenerate yet.',
  replyRemoved: 'A moderator removed this reply. Send a new message instead.',
  greetingRegenerate: 'A greeting cannot be regenerated; start a new conversation instead.',
  onlyRepliesContinue: 'Only replies can be continued.',
  nothingToContinue: 'This reply has no text to continue.',
  passageBusy: 'Wait for the current passage to finish, or stop it.',
  passageRemoved: 'A moderator removed this passage. Go back and take another branch.',
  passageNotWritten: 'This passage was not written. Retell it, or go back to an earlier one.',
  sendingTooFast: 'You are sending messages too quickly. Please wait a moment.',
  startingTooFast: 'You are starting conversations too quickly. Please wait a moment.',
  writingTooFast: 'You are writing passages too quickly. Please wait a moment.',
} as const;

const KEY_BY_SERVER_MESSAGE = new Map<string, ServerMessageKey>(
  Object.entries(SERVER_MESSAGES).map(([key, message]) => [message, key as ServerMessageKey]),
);

/** Codes whose meaning says more than the screen's generic fallback. */
const EXPLAINED_CODES = ['CONFLICT', 'VALIDATION_FAILED', 'NOT_FOUND', 'FORBIDDEN'] as const;
type ExplainedCode = (typeof EXPLAINED_CODES)[number];
const isExplainedCode = (code: string | undefined): code is ExplainedCode =>
  (EXPLAINED_CODES as readonly (string | undefined)[]).includes(code);

/** The server's explanation in the interface language, when it is one the catalogs know. */
function translatedServerMessage(error: unknown): string | undefined {
  const message = getErrorMessage(error);
  const key = message === undefined ? undefined : KEY_BY_SERVER_MESSAGE.get(message);
  return key ? i18n.t(`chat.errors.server.${key}`) : undefined;
}

/**
 * Maps a failed request to its toast: session, tokens and free-plan limits first, then the server's explanation of a
 * conflict, a refusal or a missing item (translated; a message the catalogs do not know gets the code's own words),
 * else `fallback`.
 */
export function describeChatError(error: unknown, fallback: ToastInput): ChatErrorToast {
  const code = getErrorCode(error);
  switch (code) {
    case 'UNAUTHENTICATED':
      return { toast: null, needsTokens: false };
    case 'INSUFFICIENT_TOKENS':
      return { toast: outOfTokensToast('tokens', getRenewsAt(error)), needsTokens: true };
    case 'QUOTA_EXCEEDED':
      return { toast: outOfTokensToast('quota', getRenewsAt(error), getQuotaKind(error)), needsTokens: false };
    case 'RATE_LIMITED': {
      const explanation = translatedServerMessage(error);
      return { toast: { ...TOASTS.rateLimited, ...(explanation ? { description: explanation } : {}) }, needsTokens: false };
    }
    case 'CONTENT_REJECTED':
      return { toast: contentRejectedToast(getPolicyCategory(error)), needsTokens: false };
    default:
      if (isExplainedCode(code)) {
        const description = translatedServerMessage(error) ?? i18n.t(`chat.errors.codes.${code}`);
        return { toast: { ...fallback, description, variant: 'destructive' }, needsTokens: false };
      }
      return { toast: fallback, needsTokens: false };
  }
}

/**
 * For `useMutationToast`'s `handleError`: shows the chat's own toast for any failure (see `describeChatError`) and
 * reports an empty balance to `onNeedsTokens`.
 */
export function chatErrorHandler(fallback: ToastInput, onNeedsTokens?: () => void): (error: unknown) => boolean {
  return (error) => {
    const { toast, needsTokens } = describeChatError(error, fallback);
    if (toast) showToast(toast);
    if (needsTokens) onNeedsTokens?.();
    return true;
  };
}

/** A screen's failure toast with a description from the catalogs (title "Error"). */
export function failureToast(description: string): ToastInput {
  return { title: i18n.t('chat.errors.title'), description, variant: 'destructive' };
}

/**
 * Why a conversation could not be opened. A malformed id in the address (`/chat/not-a-uuid`) names nothing, like an
 * unknown one: the gateway answers NOT_FOUND, and a value its input rules reject is BAD_USER_INPUT or VALIDATION_FAILED
 * (the only input of the read is the id); everything else is a transport or server failure.
 */
export function conversationLoadProblem(error: unknown): 'notFound' | 'failed' {
  const code = getErrorCode(error);
  return code === 'NOT_FOUND' || code === 'BAD_USER_INPUT' || code === 'VALIDATION_FAILED' ? 'notFound' : 'failed';
}
