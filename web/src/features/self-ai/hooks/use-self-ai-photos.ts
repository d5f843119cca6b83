import { useCallback, useEffect, useState } from 'react';
import { handleUnauthorized } from '../../../lib/error-toasts';
import { isSignedOutError, listSelfAiPhotos, type SelfAiPhoto } from '../self-ai-api';

type PhotosState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; photos: SelfAiPhoto[] };

/** The member's Self-AI photos (`GET /api/self-ai/photos`), newest first, with local updates after uploads and deletes. */
export function useSelfAiPhotos() {
  const [state, setState] = useState<PhotosState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    listSelfAiPhotos().then(
      (photos) => current && setState({ status: 'ready', photos }),
      (error: unknown) => {
        if (!current) return;
        if (isSignedOutError(error)) handleUnauthorized();
        setState({ status: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [attempt]);

  const reload = useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  /** Newly registered photos go first; a photo already listed is not repeated. Before the list has loaded, it is asked again. */
  const add = useCallback(
    (added: SelfAiPhoto[]) => {
      if (state.status !== 'ready') {
        reload();
        return;
      }
      const ids = new Set(added.map((photo) => photo.id));
      setState({ status: 'ready', photos: [...added, ...state.photos.filter((photo) => !ids.has(photo.id))] });
    },
    [state, reload],
  );

  const remove = useCallback((id: string) => {
    setState((previous) =>
      previous.status === 'ready' ? { status: 'ready', photos: previous.photos.filter((p) => p.id !== id) } : previous,
    );
  }, []);

  return { state, reload, add, remove };
}
