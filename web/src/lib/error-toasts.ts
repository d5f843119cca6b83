import { getErrorCode } from './graphql-errors';
import { showToast, type ToastInput } from './toaster';

/** Spec §8 toast catalogue, in one place so every screen uses the same wording. */
export const TOASTS = {
  unauthorized: {
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
    variant: 'destructive',
  },
  createConversationFailed: {
    title: 'Error',
    description: 'Failed to create conversation',
    variant: 'destructive',
  },
  sendMessageFailed: {
    title: 'Error',
    description: 'Failed to send message',
    variant: 'destructive',
  },
  generationFailed: {
    title: 'Generation Failed',
    description: 'Failed to generate image. Please try again.',
    variant: 'destructive',
  },
  visibilityUpdateFailed: {
    title: 'Update Failed',
    description: 'Failed to update image visibility.',
    variant: 'destructive',
  },
  downloadFailed: {
    title: 'Download Failed',
    description: 'Failed to download image.',
    variant: 'destructive',
  },
  characterCreateFailed: {
    title: 'Creation Failed',
    description: 'Failed to create character. Please try again.',
    variant: 'destructive',
  },
  characterUpdateFailed: {
    title: 'Update Failed',
    description: 'Failed to update character. Please try again.',
    variant: 'destructive',
  },
  characterDeleteFailed: {
    title: 'Delete Failed',
    description: 'Failed to delete character. Please try again.',
    variant: 'destructive',
  },
  likeFailed: {
    title: 'Like Failed',
    description: 'Failed to like image. Please try again.',
    variant: 'destructive',
  },
  uploadFailed: {
    title: 'Upload Error',
    description: 'There was an error processing your upload. Please try again.',
    variant: 'destructive',
  },
  promptRequired: {
    title: 'Prompt Required',
    description: 'Please enter a description for your image.',
    variant: 'destructive',
  },
  nameRequired: {
    title: 'Name Required',
    description: 'Please enter a name for your character.',
    variant: 'destructive',
  },
  insufficientTokens: {
    title: 'Not enough tokens',
    description: 'You are out of tokens. Buy more tokens to keep creating.',
    variant: 'destructive',
  },
  quotaExceeded: {
    title: 'Free plan limit reached',
    description: "You have used this month's free allowance. Upgrade your plan to keep going.",
    variant: 'destructive',
  },
  rateLimited: {
    title: 'Slow down',
    description: 'Too many requests. Please wait a moment and try again.',
    variant: 'destructive',
  },
  imageGenerated: {
    title: 'Image Generated!',
    description: 'Your AI artwork has been created successfully.',
  },
  visibilityUpdated: {
    title: 'Visibility Updated',
    description: 'Image visibility has been updated successfully.',
  },
  characterCreated: {
    title: 'Character Created!',
    description: 'Your AI character has been created successfully.',
  },
  characterUpdated: {
    title: 'Character Updated!',
    description: 'Your character has been updated successfully.',
  },
  characterDeleted: { title: 'Character Deleted' },
  liked: { title: 'Liked!' },
  uploadSucceeded: {
    title: 'Upload Successful!',
    description: 'Your photos have been uploaded. AI generation will begin shortly.',
  },
} as const satisfies Record<string, ToastInput>;

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

/** The toast a failed request should show: session and quota problems first, else `fallback`. */
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
