import { i18n } from '../i18n/i18n';
import { type PolicyCategory, getErrorCode, getPolicyCategory } from './graphql-errors';
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

/** The toast a failed request should show: session, quota and content-rule problems first, else `fallback`. */
export function toastForError(error: unknown, fallback: ToastInput): ToastInput {
  switch (getErrorCode(error)) {
    case 'UNAUTHENTICATED':
      return TOASTS.unauthorized;
    case 'INSUFFICIENT_TOKENS':
      return TOASTS.insufficientTokens;
    case 'QUOTA_EXCEEDED':
      return TOASTS.quotaExceeded;
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
