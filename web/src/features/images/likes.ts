import { i18n } from '../../i18n/i18n';
import { TOASTS } from '../../lib/error-toasts';
import type { ToastInput } from '../../lib/toaster';

/** The one like button an image shows: Unlike once the member has liked it, else Like. */
export function likeAction(image: { likedByMe: boolean }): 'like' | 'unlike' {
  return image.likedByMe ? 'unlike' : 'like';
}

/** The toast for a like change, from what the server answered: nothing when nothing changed (another tab did it first). */
export function likeChangeToast(wasLiked: boolean, isLiked: boolean): ToastInput | null {
  if (wasLiked === isLiked) return null;
  return isLiked ? TOASTS.liked : { title: i18n.t('images.toasts.unliked.title') };
}
