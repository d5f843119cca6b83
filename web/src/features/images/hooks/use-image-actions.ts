import { useApolloClient, useFragment } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import { ImageFieldsFragmentDoc, type ContentRating, type ImageFieldsFragment } from '../../../gql/graphql';
import { useMutationToast } from '../../../hooks/use-mutation-toast';
import { i18n } from '../../../i18n/i18n';
import { TOASTS } from '../../../lib/error-toasts';
import { downloadImage } from '../image-download';
import { likeAction, likeChangeToast } from '../likes';
import { showToast, type ToastInput } from '../../../lib/toaster';
import {
  DeleteImageDocument,
  LikeImageDocument,
  MyImagesDocument,
  PublicImagesDocument,
  SetImageVisibilityDocument,
  UnlikeImageDocument,
} from '../operations';

/**
 * The cached copy of an image (kept current by every mutation and list that returns it), or
 * `fallback` until the cache has all of its fields.
 */
export function useCachedImage(id: string | null | undefined, fallback: ImageFieldsFragment | null = null): ImageFieldsFragment | null {
  const result = useFragment({
    fragment: ImageFieldsFragmentDoc,
    fragmentName: 'ImageFields',
    from: id ? { __typename: 'Image', id } : null,
  });
  if (!id) return null;
  return result.complete ? (result.data as ImageFieldsFragment) : fallback && fallback.id === id ? fallback : null;
}

/**
 * Spec §4: the owner makes an image public (with its rating) or private; both lists refresh
 * afterwards. A picture matching one moderators removed is refused, and the toast says so.
 */
export function useImageVisibility() {
  const client = useApolloClient();
  const { run } = useMutationToast();
  const [updatingId, setUpdatingId] = useState<string | null>(null);
  const setVisibility = useCallback(
    async (image: Pick<ImageFieldsFragment, 'id'>, isPublic: boolean, rating?: ContentRating) => {
      setUpdatingId(image.id);
      const data = await run({
        mutation: SetImageVisibilityDocument,
        variables: { id: image.id, isPublic, rating: rating ?? null },
        success: TOASTS.visibilityUpdated,
        failure: TOASTS.visibilityUpdateFailed,
      });
      setUpdatingId(null);
      if (data) void client.refetchQueries({ include: [MyImagesDocument, PublicImagesDocument] });
    },
    [client, run],
  );
  return { setVisibility, updatingId };
}

/**
 * Likes on public images: one per member, owners included (decision 040). The screen shows one button,
 * Like or Unlike (`likeAction`), and the toast says what the server reports happened.
 */
export function useImageLike() {
  const { run } = useMutationToast();
  const [likingId, setLikingId] = useState<string | null>(null);
  const toggleLike = useCallback(
    async (image: Pick<ImageFieldsFragment, 'id' | 'likedByMe'>) => {
      const wasLiked = image.likedByMe;
      setLikingId(image.id);
      if (likeAction(image) === 'like') {
        await run({
          mutation: LikeImageDocument,
          variables: { id: image.id },
          success: (data) => likeChangeToast(wasLiked, data.likeImage.likedByMe),
          failure: TOASTS.likeFailed,
        });
      } else {
        await run({
          mutation: UnlikeImageDocument,
          variables: { id: image.id },
          success: (data) => likeChangeToast(wasLiked, data.unlikeImage.likedByMe),
          failure: translatedToast('unlikeFailed', 'destructive'),
        });
      }
      setLikingId(null);
    },
    [run],
  );
  return { toggleLike, likingId };
}

/** One of this feature's own toasts (`images.toasts.<name>`), in the interface language. */
function translatedToast(name: 'unlikeFailed' | 'deleted' | 'deleteFailed', variant?: 'destructive'): ToastInput {
  return {
    title: i18n.t(`images.toasts.${name}.title`),
    description: i18n.t(`images.toasts.${name}.description`),
    ...(variant ? { variant } : {}),
  };
}

/** The owner deletes an image: it leaves the cache at once and both lists refresh. */
export function useImageDelete() {
  const client = useApolloClient();
  const { run } = useMutationToast();
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const remove = useCallback(
    async (image: Pick<ImageFieldsFragment, 'id'>): Promise<boolean> => {
      setDeletingId(image.id);
      const data = await run({
        mutation: DeleteImageDocument,
        variables: { id: image.id },
        success: translatedToast('deleted'),
        failure: translatedToast('deleteFailed', 'destructive'),
      });
      setDeletingId(null);
      if (!data) return false;
      client.cache.evict({ id: client.cache.identify({ __typename: 'Image', id: image.id }) });
      client.cache.gc();
      void client.refetchQueries({ include: [MyImagesDocument, PublicImagesDocument] });
      return true;
    },
    [client, run],
  );
  return { remove, deletingId };
}

/** Spec §7: the download fetches the image and saves it as "<prompt[0..50]>.png". */
export function useImageDownload() {
  const [downloadingId, setDownloadingId] = useState<string | null>(null);
  const download = useCallback(async (image: Pick<ImageFieldsFragment, 'id' | 'imageUrl' | 'prompt'>) => {
    setDownloadingId(image.id);
    try {
      await downloadImage(image.imageUrl, image.prompt);
    } catch {
      showToast(TOASTS.downloadFailed);
    } finally {
      setDownloadingId(null);
    }
  }, []);
  return { download, downloadingId };
}
