import { useApolloClient, useFragment } from '@apollo/client/react';
import { useCallback, useState } from 'react';
import { ImageFieldsFragmentDoc, type ContentRating, type ImageFieldsFragment } from '../../../gql/graphql';
import { TOASTS, toastForError } from '../../../lib/error-toasts';
import { isUnauthenticatedError } from '../../../lib/graphql-errors';
import { downloadImage } from '../image-download';
import { showToast, type ToastInput } from '../../../lib/toaster';
import {
  DeleteImageDocument,
  LikeImageDocument,
  MyImagesDocument,
  PublicImagesDocument,
  SetImageVisibilityDocument,
  UnlikeImageDocument,
} from '../operations';

const UNLIKE_FAILED: ToastInput = {
  title: 'Unlike Failed',
  description: 'Failed to remove your like. Please try again.',
  variant: 'destructive',
};

/** A failure toast, unless the session is gone (the client's error link handles that once for all). */
function showFailure(error: unknown, toast: ToastInput) {
  if (!isUnauthenticatedError(error)) showToast(toast);
}

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
  const [updatingId, setUpdatingId] = useState<string | null>(null);
  const setVisibility = useCallback(
    async (image: Pick<ImageFieldsFragment, 'id'>, isPublic: boolean, rating?: ContentRating) => {
      setUpdatingId(image.id);
      try {
        await client.mutate({ mutation: SetImageVisibilityDocument, variables: { id: image.id, isPublic, rating: rating ?? null } });
        showToast(TOASTS.visibilityUpdated);
        void client.refetchQueries({ include: [MyImagesDocument, PublicImagesDocument] });
      } catch (error) {
        showFailure(error, toastForError(error, TOASTS.visibilityUpdateFailed));
      } finally {
        setUpdatingId(null);
      }
    },
    [client],
  );
  return { setVisibility, updatingId };
}

/** Likes on public images: one per member (liking again is harmless), and taking it back. */
export function useImageLike() {
  const client = useApolloClient();
  const [likingId, setLikingId] = useState<string | null>(null);
  const like = useCallback(
    async (image: Pick<ImageFieldsFragment, 'id'>) => {
      setLikingId(image.id);
      try {
        await client.mutate({ mutation: LikeImageDocument, variables: { id: image.id } });
        showToast(TOASTS.liked);
      } catch (error) {
        showFailure(error, TOASTS.likeFailed);
      } finally {
        setLikingId(null);
      }
    },
    [client],
  );
  const unlike = useCallback(
    async (image: Pick<ImageFieldsFragment, 'id'>) => {
      setLikingId(image.id);
      try {
        await client.mutate({ mutation: UnlikeImageDocument, variables: { id: image.id } });
      } catch (error) {
        showFailure(error, UNLIKE_FAILED);
      } finally {
        setLikingId(null);
      }
    },
    [client],
  );
  return { like, unlike, likingId };
}

const IMAGE_DELETED: ToastInput = { title: 'Image Deleted', description: 'The image and its likes are gone for good.' };
const DELETE_FAILED: ToastInput = {
  title: 'Delete Failed',
  description: 'Failed to delete image. Please try again.',
  variant: 'destructive',
};

/** The owner deletes an image: it leaves the cache at once and both lists refresh. */
export function useImageDelete() {
  const client = useApolloClient();
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const remove = useCallback(
    async (image: Pick<ImageFieldsFragment, 'id'>): Promise<boolean> => {
      setDeletingId(image.id);
      try {
        await client.mutate({ mutation: DeleteImageDocument, variables: { id: image.id } });
        client.cache.evict({ id: client.cache.identify({ __typename: 'Image', id: image.id }) });
        client.cache.gc();
        showToast(IMAGE_DELETED);
        void client.refetchQueries({ include: [MyImagesDocument, PublicImagesDocument] });
        return true;
      } catch (error) {
        showFailure(error, DELETE_FAILED);
        return false;
      } finally {
        setDeletingId(null);
      }
    },
    [client],
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
