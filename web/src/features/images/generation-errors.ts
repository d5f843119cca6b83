import { i18n } from '../../i18n/i18n';
import { TOASTS, contentRejectedToast, getQuotaKind, getRenewsAt, outOfTokensToast } from '../../lib/error-toasts';
import { planReasonForErrorCode } from '../plans/plans';
import { type PolicyCategory, getErrorCode, getErrorMessage, getPolicyCategory, isPolicyCategory } from '../../lib/graphql-errors';
import type { ToastInput } from '../../lib/toaster';

/** Codes explained in the member's language (`images.errors.<code>`); the server's own words are English. */
const EXPLAINED_CODES = ['RATE_LIMITED', 'VALIDATION_FAILED', 'UNAVAILABLE', 'TIMEOUT', 'INVALID_IMAGE'] as const;
type ExplainedCode = (typeof EXPLAINED_CODES)[number];

const isExplainedCode = (code: string | null | undefined): code is ExplainedCode =>
  (EXPLAINED_CODES as readonly (string | null | undefined)[]).includes(code);

/** The translated explanation of a code; a refused setting keeps the server's detail, which names it. */
function explanationOf(code: string | null | undefined, message: string | null | undefined): string | null {
  if (!isExplainedCode(code)) return null;
  if (code !== 'VALIDATION_FAILED') return i18n.t(`images.errors.${code}`);
  return message?.trim() ? i18n.t('images.errors.VALIDATION_FAILED', { message: message.trim() }) : null;
}

/** The content rule that refused a job, in the member's language; a drawn picture is refused after the prompt passed. */
function refusedJobText(category: PolicyCategory): string {
  return category === 'blocked_hash' ? i18n.t('contentRules.blockedGenerated') : i18n.t(`contentRules.${category}`);
}

/**
 * Spec §8: always titled 'Generation Failed'; the content rule a refused job names, else the code's
 * explanation in the member's language, replaces the description where there is one.
 */
export function generationFailedToast(
  code: string | null | undefined,
  message: string | null | undefined,
  policyCategory?: string | null,
): ToastInput {
  const toast = TOASTS.generationFailed;
  if (code === 'CONTENT_REJECTED')
    return {
      ...toast,
      description: isPolicyCategory(policyCategory) ? refusedJobText(policyCategory) : TOASTS.contentRejected.description,
    };
  const reason = planReasonForErrorCode(code);
  if (reason) {
    // A failed job carries no renewal date; the Plans screen the action opens shows it.
    const { description, action } = outOfTokensToast(reason);
    return { ...toast, description, action };
  }
  const explanation = explanationOf(code, message);
  return explanation ? { ...toast, description: explanation } : toast;
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
