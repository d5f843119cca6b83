import { TOASTS, contentRejectedToast, getQuotaKind, getRenewsAt, outOfTokensToast } from '../../lib/error-toasts';
import { getErrorCode, getErrorMessage, getPolicyCategory } from '../../lib/graphql-errors';
import type { ToastInput } from '../../lib/toaster';

/** What a failed chat or character request shows. */
export interface ChatErrorToast {
  /** Null when nothing should be shown here (a lost session is handled globally). */
  toast: ToastInput | null;
  /** Out of tokens: offer the way to buy more. */
  needsTokens: boolean;
}

/** Spec §5: sending with no conversation selected is an error. */
export const NO_CONVERSATION_TOAST: ToastInput = { title: 'Error', description: 'No conversation selected', variant: 'destructive' };

/** Codes whose server message is written for members and says more than the generic fallback. */
const MESSAGE_CODES = new Set(['CONFLICT', 'VALIDATION_FAILED', 'NOT_FOUND', 'FORBIDDEN']);

/**
 * Maps a failed request to its toast: session, tokens and free-plan limits first (with the server's
 * wording where it explains the limit), else `fallback`.
 */
export function describeChatError(error: unknown, fallback: ToastInput): ChatErrorToast {
  const code = getErrorCode(error);
  const serverMessage = getErrorMessage(error);
  switch (code) {
    case 'UNAUTHENTICATED':
      return { toast: null, needsTokens: false };
    case 'INSUFFICIENT_TOKENS':
      return { toast: outOfTokensToast('tokens', getRenewsAt(error)), needsTokens: true };
    case 'QUOTA_EXCEEDED':
      return { toast: outOfTokensToast('quota', getRenewsAt(error), getQuotaKind(error)), needsTokens: false };
    case 'RATE_LIMITED':
      return { toast: { ...TOASTS.rateLimited, ...(serverMessage ? { description: serverMessage } : {}) }, needsTokens: false };
    case 'CONTENT_REJECTED':
      return { toast: contentRejectedToast(getPolicyCategory(error)), needsTokens: false };
    default:
      if (code && MESSAGE_CODES.has(code) && serverMessage) {
        return { toast: { ...fallback, description: serverMessage, variant: 'destructive' }, needsTokens: false };
      }
      return { toast: fallback, needsTokens: false };
  }
}
