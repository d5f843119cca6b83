import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { StoryFieldsFragment, StoryPassageFieldsFragment, StoryUpdatesSubscription } from '../../../gql/graphql';
import { applyLiveUpdate, createLiveState, mergeMessages, type LiveState, type LiveUpdate } from '../../chat/live-reply';
import { StoryByIdDocument, StoryPathDocument, StoryUpdatesDocument } from '../operations';
import { pathUpTo } from '../story-model';

export type StoryPassage = StoryPassageFieldsFragment;
export type StoryInfo = StoryFieldsFragment;

/** A passage as the chat's live-text reconciliation sees it: one reply, one version. */
type LivePassage = StoryPassage & { role: 'ASSISTANT'; swipeIndex: number };

/** Delay before fetching a passage again while its text has a gap (the server saves every ~250 ms). */
const STALE_REFETCH_DELAY_MS = 250;
/** A streaming passage with no news for this long is fetched again (a final update may have been missed). */
const SILENT_PASSAGE_CHECK_MS = 4000;
/** Fetches of stale passages before giving up (about 10 s); the silent check carries on after. */
const MAX_STALE_ATTEMPTS = 40;

const asLive = (passage: StoryPassage): LivePassage => ({ ...passage, role: 'ASSISTANT', swipeIndex: 0 });

interface StoryState {
  /** Every passage seen, with live text reconciled exactly as chat replies are. */
  live: LiveState<LivePassage>;
  /** The branch being read, opening first. */
  pathIds: string[];
  story: StoryInfo | null;
}

type Action =
  | { type: 'update'; update: LiveUpdate<LivePassage> }
  | { type: 'merge'; passages: readonly StoryPassage[] }
  | { type: 'path'; passages: readonly StoryPassage[] }
  | { type: 'cut'; passageId: string }
  | { type: 'extend'; passage: StoryPassage }
  | { type: 'story'; story: StoryInfo };

/** When the story was last changed or played; a copy older than the one on screen is out of date. */
const storyClock = (story: StoryInfo) => (story.lastPlayedAt > story.updatedAt ? story.lastPlayedAt : story.updatedAt);

function reducer(state: StoryState, action: Action): StoryState {
  switch (action.type) {
    case 'update':
      return { ...state, live: applyLiveUpdate(state.live, action.update) };
    case 'merge':
      return { ...state, live: mergeMessages(state.live, action.passages.map(asLive)) };
    case 'path':
      return {
        ...state,
        live: mergeMessages(state.live, action.passages.map(asLive)),
        pathIds: action.passages.map((passage) => passage.id),
      };
    case 'cut':
      return { ...state, pathIds: pathUpTo(state.pathIds, action.passageId) };
    case 'extend': {
      // A new continuation (or retelling) of a passage on the branch: the branch now ends with it.
      const { passage } = action;
      const parentPath = passage.parentId ? pathUpTo(state.pathIds, passage.parentId) : [];
      return {
        live: mergeMessages(state.live, [asLive(passage)]),
        pathIds: [...parentPath, passage.id],
        story: state.story ? { ...state.story, currentPassageId: passage.id } : state.story,
      };
    }
    case 'story':
      // Updates may arrive out of order: the copy changed last wins.
      if (state.story && storyClock(state.story) > storyClock(action.story)) return state;
      return { ...state, story: action.story };
  }
}

type RawUpdate = StoryUpdatesSubscription['storyUpdates'];

function toAction(raw: RawUpdate): Action | null {
  switch (raw.type) {
    case 'TYPING':
      return { type: 'update', update: { type: 'TYPING', typing: Boolean(raw.typing) } };
    case 'DELTA':
      if (!raw.passageId || raw.offset == null || raw.text == null) return null;
      return { type: 'update', update: { type: 'DELTA', messageId: raw.passageId, swipeIndex: 0, offset: raw.offset, text: raw.text } };
    case 'PASSAGE':
      return raw.passage ? { type: 'update', update: { type: 'MESSAGE', message: asLive(raw.passage) } } : null;
    case 'STORY':
      return raw.story ? { type: 'story', story: raw.story } : null;
    case 'DELETED':
      return { type: 'update', update: { type: 'DELETED' } };
    default:
      return null;
  }
}

export interface StoryLoadState {
  status: 'loading' | 'ready' | 'error';
  error?: unknown;
}

/**
 * One story kept live: subscribes to its updates before loading the story and the branch being read, reconciles
 * streamed text with refetches like the chat (see lib/live-reply.ts), and keeps the branch on screen ending at the
 * story's current passage, whichever tab or device moved it. Mount it once per story.
 */
export function useLiveStory(storyId: string) {
  const client = useApolloClient();
  const [state, dispatch] = useReducer(reducer, undefined, () => ({ live: createLiveState<LivePassage>(), pathIds: [], story: null }));
  const [load, setLoad] = useState<StoryLoadState>({ status: 'loading' });
  const [staleTick, setStaleTick] = useState(0);
  const lastNewsAt = useRef(0);
  const staleAttempts = useRef(0);
  // The passage the branch on screen was last loaded for, so a story that points elsewhere is loaded once.
  const requestedPathEnd = useRef<string | null>(null);

  const fetchPath = useCallback(
    async (passageId: string | null) => {
      const { data } = await client.query({ query: StoryPathDocument, variables: { storyId, passageId }, fetchPolicy: 'no-cache' });
      if (!data) throw new Error('storyPath returned no data');
      return data.storyPath;
    },
    [client, storyId],
  );

  const fetchStory = useCallback(async () => {
    const { data } = await client.query({ query: StoryByIdDocument, variables: { id: storyId }, fetchPolicy: 'no-cache' });
    if (!data) throw new Error('story returned no data');
    return data.story;
  }, [client, storyId]);

  // Subscribe first, then load: nothing written between the load and the subscription is lost.
  useEffect(() => {
    let active = true;
    const subscription = client.subscribe({ query: StoryUpdatesDocument, variables: { storyId } }).subscribe({
      next: (result) => {
        const action = result.data?.storyUpdates ? toAction(result.data.storyUpdates) : null;
        if (!action) return;
        lastNewsAt.current = Date.now();
        dispatch(action);
      },
      // A dropped socket is retried by the client; missed text is caught up by the checks below.
      error: () => undefined,
    });
    Promise.all([fetchStory(), fetchPath(null)]).then(
      ([story, passages]) => {
        if (!active) return;
        lastNewsAt.current = Date.now();
        requestedPathEnd.current = story.currentPassageId ?? null;
        dispatch({ type: 'story', story });
        dispatch({ type: 'path', passages });
        setLoad({ status: 'ready' });
      },
      (error: unknown) => {
        if (active) setLoad({ status: 'error', error });
      },
    );
    return () => {
      active = false;
      subscription.unsubscribe();
    };
  }, [client, fetchPath, fetchStory, storyId]);

  // The story moved to another passage (here, in another tab, or through the map): show the branch that ends there.
  const currentPassageId = state.story?.currentPassageId ?? null;
  const pathEnd = state.pathIds[state.pathIds.length - 1] ?? null;
  useEffect(() => {
    if (load.status !== 'ready' || !currentPassageId || currentPassageId === pathEnd) return;
    if (requestedPathEnd.current === currentPassageId) return;
    requestedPathEnd.current = currentPassageId;
    if (state.pathIds.includes(currentPassageId)) {
      dispatch({ type: 'cut', passageId: currentPassageId });
      return;
    }
    void fetchPath(currentPassageId).then(
      (passages) => dispatch({ type: 'path', passages }),
      () => {
        requestedPathEnd.current = null;
      },
    );
  }, [currentPassageId, fetchPath, load.status, pathEnd, state.pathIds]);

  const fetchPassages = useCallback(
    async (ids: readonly string[]) => {
      const results = await Promise.allSettled(ids.map((id) => fetchPath(id)));
      return results.flatMap((result) => (result.status === 'fulfilled' ? result.value.slice(-1) : []));
    },
    [fetchPath],
  );

  // Unknown passages and passages with a gap in their text are fetched again until they join up.
  useEffect(() => {
    if (state.live.stale.length === 0) staleAttempts.current = 0;
    if (load.status !== 'ready' || state.live.stale.length === 0 || staleAttempts.current >= MAX_STALE_ATTEMPTS) return;
    staleAttempts.current += 1;
    let cancelled = false;
    const ids = state.live.stale;
    const timer = window.setTimeout(() => {
      // A passage we did not know may mean another tab moved the story on: the story says where.
      void Promise.all([fetchPassages(ids), fetchStory().catch(() => null)]).then(([passages, story]) => {
        if (cancelled) return;
        dispatch({ type: 'merge', passages });
        if (story) dispatch({ type: 'story', story });
        setStaleTick((tick) => tick + 1);
      });
    }, STALE_REFETCH_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [fetchPassages, fetchStory, load.status, state.live.stale, staleTick]);

  // A streaming passage that went quiet (a socket drop hid its end) is fetched again.
  const streamingKey = state.live.messages
    .filter((passage) => passage.status === 'STREAMING')
    .map((passage) => passage.id)
    .join(',');
  useEffect(() => {
    if (load.status !== 'ready' || !streamingKey) return;
    const ids = streamingKey.split(',');
    const timer = window.setInterval(() => {
      if (Date.now() - lastNewsAt.current < SILENT_PASSAGE_CHECK_MS) return;
      lastNewsAt.current = Date.now();
      void fetchPassages(ids).then((passages) => dispatch({ type: 'merge', passages }));
    }, SILENT_PASSAGE_CHECK_MS / 2);
    return () => window.clearInterval(timer);
  }, [fetchPassages, load.status, streamingKey]);

  // Back from a locked phone or another tab: catch up on whatever happened meanwhile.
  useEffect(() => {
    if (load.status !== 'ready') return;
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      void fetchStory().then(
        (story) => {
          dispatch({ type: 'story', story });
          return fetchPath(story.currentPassageId ?? null).then((passages) => dispatch({ type: 'merge', passages }));
        },
        () => undefined,
      );
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [fetchPath, fetchStory, load.status]);

  /** Shows a passage a mutation returned as the end of the branch being read (it also arrives live). */
  const showNewPassage = useCallback((passage: StoryPassage) => {
    requestedPathEnd.current = passage.id;
    dispatch({ type: 'extend', passage });
  }, []);

  /** Merges passages a mutation returned (a save point). */
  const mergeReturned = useCallback((passages: readonly StoryPassage[]) => dispatch({ type: 'merge', passages }), []);

  const setStory = useCallback((story: StoryInfo) => dispatch({ type: 'story', story }), []);

  const passages = useMemo(() => {
    const byId = new Map(state.live.messages.map((passage) => [passage.id, passage]));
    return state.pathIds.flatMap((id) => {
      const passage = byId.get(id);
      return passage ? [passage as StoryPassage] : [];
    });
  }, [state.live.messages, state.pathIds]);

  return {
    story: state.story,
    passages,
    typing: state.live.typing,
    deleted: state.live.deleted,
    load,
    showNewPassage,
    mergeReturned,
    setStory,
  };
}
