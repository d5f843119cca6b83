import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { i18n } from '../i18n/i18n';
import { type PolicyCategory, getErrorCode, getPolicyCategory } from './graphql-errors';
import { type PlanReason, formatRenewalDate, planReasonForErrorCode, plansPathFor } from '../features/plans/plans';
import { showToast, type ToastInput, type ToastVariant } from './toaster';

/** Spec §8 toast catalogue: each toast's variant; its texts are under `toasts.<name>` in the catalogs. */
const TOAST_VARIANTS = {
  unauthorized: 'destructive',
  createConversationFailed: 'destructive',
  sendMessageFailed: 'destructive',
  generationFailed: 'destructive',
  visibilityUpdateFailed: 'destructive',
  downloadFailed: 'destructive',
  characterCreateFailed: 'destructive',
  characterUpdateFailed: 'destructive',
  characterDeleteFailed: 'destructive',
  likeFailed: 'destructive',
  uploadFailed: 'destructive',
  promptRequired: 'destructive',
  nameRequired: 'destructive',
  insufficientTokens: 'destructive',
  quotaExceeded: 'destructive',
  rateLimited: 'destructive',
  contentRejected: 'destructive',
  reportFailed: 'destructive',
  reportTargetGone: 'destructive',
  preferencesFailed: 'destructive',
  moderationFailed: 'destructive',
  accessTokenFailed: 'destructive',
  imageGenerated: 'default',
  visibilityUpdated: 'default',
  characterCreated: 'default',
  characterUpdated: 'default',
  characterDeleted: 'default',
  liked: 'default',
  uploadSucceeded: 'default',
  reportSent: 'default',
  preferencesSaved: 'default',
  moderationDone: 'default',
  accessTokenRevoked: 'default',
} as const satisfies Record<string, ToastVariant>;

export type ToastName = keyof typeof TOAST_VARIANTS;

function translatedToast(name: ToastName): ToastInput {
  const toast: ToastInput = { title: i18n.t(`toasts.${name}.title`) };
  const descriptionKey = `toasts.${name}.description` as const;
  if (i18n.exists(descriptionKey)) toast.description = i18n.t(descriptionKey as 'toasts.unauthorized.description');
  if (TOAST_VARIANTS[name] === 'destructive') toast.variant = 'destructive';
  return toast;
}

/**
 * The toasts by name, in one place so every screen uses the same wording. Each read gives the
 * toast in the current interface language.
 */
export const TOASTS: Readonly<Record<ToastName, ToastInput>> = Object.defineProperties(
  {} as Record<ToastName, ToastInput>,
  Object.fromEntries(
    (Object.keys(TOAST_VARIANTS) as ToastName[]).map((name) => [name, { get: () => translatedToast(name), enumerable: true }]),
  ),
);

/** Delay before the browser leaves for the sign-in redirect, so the toast can be read (spec §9). */
export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;
export const SIGN_IN_REDIRECT_URL = '/api/login';

let redirectScheduled = false;

/**
 * Spec §4/§8: a member screen that finds the session gone tells the user and sends the browser to
 * the sign-in redirect. Several failing requests at once produce one toast and one redirect.
 */
export function handleUnauthorized(): void {
  if (redirectScheduled) return;
  redirectScheduled = true;
  showToast(TOASTS.unauthorized);
  window.setTimeout(() => {
    window.location.href = SIGN_IN_REDIRECT_URL;
  }, UNAUTHORIZED_REDIRECT_DELAY_MS);
}

/** A refusal by the content rules, explained in the interface language (the server's wording is English). */
export function contentRejectedToast(category: PolicyCategory | undefined): ToastInput {
  const toast = TOASTS.contentRejected;
  return category ? { ...toast, description: i18n.t(`contentRules.${category}`) } : toast;
}

/** A button on a toast that leads somewhere in the app. */
export interface ToastAction {
  label: string;
  onClick: () => void;
}

export type ActionToastInput = ToastInput & { action?: ToastAction };

let navigateInApp: ((path: string) => void) | null = null;

/** The member layout hands over the router's navigate: toasts render outside the router, their links should not reload the app. */
export function setToastNavigator(navigate: ((path: string) => void) | null): void {
  navigateInApp = navigate;
}

function openInApp(path: string): void {
  if (navigateInApp) navigateInApp(path);
  else window.location.assign(path);
}

/** The next free top-up an INSUFFICIENT_TOKENS or QUOTA_EXCEEDED error names (`extensions.renewsAt`, decision 036). */
export function getRenewsAt(error: unknown): string | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  for (const item of error.errors) {
    const renewsAt = item.extensions?.['renewsAt'];
    if (typeof renewsAt === 'string' && renewsAt) return renewsAt;
  }
  return undefined;
}

const QUOTA_KINDS = ['image', 'chat', 'character', 'story'] as const;
type QuotaKind = (typeof QUOTA_KINDS)[number];

/** Which free-plan allowance a QUOTA_EXCEEDED error says is used up (`extensions.quota`). */
export function getQuotaKind(error: unknown): QuotaKind | undefined {
  if (!CombinedGraphQLErrors.is(error)) return undefined;
  for (const item of error.errors) {
    const quota = item.extensions?.['quota'];
    if (typeof quota === 'string' && (QUOTA_KINDS as readonly string[]).includes(quota)) return quota as QuotaKind;
  }
  return undefined;
}

/**
 * An empty balance or a used-up free allowance: says which allowance (when the server names it), when it renews, and
 * links to the Plans screen, which explains what happened (never "quota left, balance 0" without a reason).
 */
export function outOfTokensToast(reason: PlanReason, renewsAt?: string | null, quota?: QuotaKind): ActionToastInput {
  const toast = reason === 'tokens' ? TOASTS.insufficientTokens : TOASTS.quotaExceeded;
  const date = formatRenewalDate(renewsAt, i18n.language);
  const description =
    reason === 'quota' && quota
      ? `${i18n.t(`outOfTokens.quotaUsed.${quota}`)} ${date ? i18n.t('outOfTokens.renewsOn', { date }) : i18n.t('outOfTokens.renewsNextMonth')}`
      : date
        ? i18n.t(`outOfTokens.${reason}`, { date })
        : i18n.t(`outOfTokens.${reason}NoDate`);
  return { ...toast, description, action: { label: i18n.t('outOfTokens.action'), onClick: () => openInApp(plansPathFor(reason)) } };
}

/** The toast a failed request should show: session, tokens, quota and content-rule problems first, else `fallback`. */
export function toastForError(error: unknown, fallback: ToastInput): ActionToastInput {
  const code = getErrorCode(error);
  const planReason = planReasonForErrorCode(code);
  if (planReason) return outOfTokensToast(planReason, getRenewsAt(error), getQuotaKind(error));
  switch (code) {
    case 'UNAUTHENTICATED':
      return TOASTS.unauthorized;
    case 'RATE_LIMITED':
      return TOASTS.rateLimited;
    case 'CONTENT_REJECTED':
      return contentRejectedToast(getPolicyCategory(error));
    default:
      return fallback;
  }
}

/** For a member screen's onError: shows the mapped toast, or starts the unauthorized flow. */
export function showErrorToast(error: unknown, fallback: ToastInput): void {
  if (getErrorCode(error) === 'UNAUTHENTICATED') {
    handleUnauthorized();
    return;
  }
  showToast(toastForError(error, fallback));
}
