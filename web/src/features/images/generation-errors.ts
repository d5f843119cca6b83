import { i18n } from '../../i18n/i18n';
import { TOASTS, contentRejectedToast, getQuotaKind, getRenewsAt, outOfTokensToast } from '../../lib/error-toasts';
import { planReasonForErrorCode } from '../plans/plans';
import { type PolicyCategory, getErrorCode, getErrorMessage, getPolicyCategory, isPolicyCategory } from '../../lib/graphql-errors';
import type { ToastInput } from '../../lib/toaster';

/**
 * Codes whose server message is written for members and explains the failure better than the
 * generic text (a refused prompt, an empty balance, the free plan's limit, the pace limit).
 */
const EXPLAINED_CODES = new Set(['CONTENT_REJECTED', 'QUOTA_EXCEEDED', 'INSUFFICIENT_TOKENS', 'RATE_LIMITED', 'VALIDATION_FAILED']);

/** The content rule that refused a job, in the member's language; a drawn picture is refused after the prompt passed. */
function refusedJobText(category: PolicyCategory): string {
  return category === 'blocked_hash' ? i18n.t('contentRules.blockedGenerated') : i18n.t(`contentRules.${category}`);
}

/**
 * Spec §8: always titled 'Generation Failed'; the content rule a refused job names, else the server's
 * explanation, replaces the description where there is one.
 */
export function generationFailedToast(
  code: string | null | undefined,
  message: string | null | undefined,
  policyCategory?: string | null,
): ToastInput {
  const toast = TOASTS.generationFailed;
  if (code === 'CONTENT_REJECTED' && isPolicyCategory(policyCategory)) return { ...toast, description: refusedJobText(policyCategory) };
  const reason = planReasonForErrorCode(code);
  if (reason) {
    // A failed job carries no renewal date; the Plans screen the action opens shows it.
    const { description, action } = outOfTokensToast(reason);
    return { ...toast, description, action };
  }
  return code && EXPLAINED_CODES.has(code) && message?.trim() ? { ...toast, description: message.trim() } : toast;
}

/** The toast for a failed generateImage call; null when the session is gone (handled globally). */
export function generationErrorToast(error: unknown): ToastInput | null {
  const code = getErrorCode(error);
  if (code === 'UNAUTHENTICATED') return null;
  // Spec §8's title, with the content rule in the member's language.
  if (code === 'CONTENT_REJECTED')
    return { ...TOASTS.generationFailed, description: contentRejectedToast(getPolicyCategory(error)).description };
  const reason = planReasonForErrorCode(code);
  if (reason) {
    const { description, action } = outOfTokensToast(reason, getRenewsAt(error), getQuotaKind(error));
    return { ...TOASTS.generationFailed, description, action };
  }
  return generationFailedToast(code, getErrorMessage(error));
}

/** The out-of-tokens case, for offering the way to buy more. */
export function isOutOfTokens(code: string | null | undefined): boolean {
  return code === 'INSUFFICIENT_TOKENS';
}
