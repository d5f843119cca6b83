import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { ChatMessageFragment, ConversationUpdatesSubscription } from '../../gql/graphql';
import { applyLiveUpdate, createLiveState, mergeMessages, prependMessages, type LiveState, type LiveUpdate } from '../../lib/live-reply';
import { ChatMessageDocument, ConversationUpdatesDocument, MessagesPageDocument } from './chat-operations';

export type ChatMessage = ChatMessageFragment;

/** Long chats open at once: the newest page first, older pages on demand. */
export const MESSAGE_PAGE_SIZE = 30;
/** Delay before fetching a reply again while its text has a gap (the server saves every ~250 ms). */
const STALE_REFETCH_DELAY_MS = 250;
/** A streaming reply with no news for this long is fetched again (a final update may have been missed). */
const SILENT_REPLY_CHECK_MS = 4000;
/** Fetches of stale messages before giving up (about 10 s); the silent-reply check carries on after. */
const MAX_STALE_ATTEMPTS = 40;

type Action =
  | { type: 'update'; update: LiveUpdate<ChatMessage> }
  | { type: 'merge'; messages: readonly ChatMessage[] }
  | { type: 'prepend'; messages: readonly ChatMessage[] };

function reducer(state: LiveState<ChatMessage>, action: Action): LiveState<ChatMessage> {
  switch (action.type) {
    case 'update':
      return applyLiveUpdate(state, action.update);
    case 'merge':
      return mergeMessages(state, action.messages);
    case 'prepend':
      return prependMessages(state, action.messages);
  }
}

type RawUpdate = ConversationUpdatesSubscription['conversationUpdates'];

function toLiveUpdate(raw: RawUpdate): LiveUpdate<ChatMessage> | null {
  switch (raw.type) {
    case 'TYPING':
      return { type: 'TYPING', typing: Boolean(raw.typing) };
    case 'DELTA':
      if (!raw.messageId || raw.offset == null || raw.text == null) return null;
      return { type: 'DELTA', messageId: raw.messageId, swipeIndex: raw.swipeIndex ?? 0, offset: raw.offset, text: raw.text };
    case 'MESSAGE':
      return raw.message ? { type: 'MESSAGE', message: raw.message } : null;
    case 'DELETED':
      return { type: 'DELETED' };
    default:
      return null;
  }
}

export interface PageState {
  status: 'loading' | 'ready' | 'error';
  error?: unknown;
  hasOlder: boolean;
  olderCursor: string | null;
  loadingOlder: boolean;
}

/**
 * One conversation's messages kept live: subscribes to its updates before loading the newest page,
 * then reconciles page, live text and refetches (see live-reply.ts). Mount it once per conversation.
 */
export function useLiveConversation(conversationId: string) {
  const client = useApolloClient();
  const [state, dispatch] = useReducer(reducer, undefined, () => createLiveState<ChatMessage>());
  const [page, setPage] = useState<PageState>({ status: 'loading', hasOlder: false, olderCursor: null, loadingOlder: false });
  const [staleTick, setStaleTick] = useState(0);
  const lastNewsAt = useRef(0);
  const staleAttempts = useRef(0);

  const loadNewest = useCallback(async () => {
    const { data } = await client.query({
      query: MessagesPageDocument,
      variables: { conversationId, last: MESSAGE_PAGE_SIZE },
      fetchPolicy: 'no-cache',
    });
    if (!data) throw new Error('messages returned no data');
    return data.messages;
  }, [client, conversationId]);

  // Subscribe first, then load: nothing written between the page and the subscription is lost.
  useEffect(() => {
    let active = true;
    const subscription = client.subscribe({ query: ConversationUpdatesDocument, variables: { conversationId } }).subscribe({
      next: (result) => {
        const update = result.data?.conversationUpdates ? toLiveUpdate(result.data.conversationUpdates) : null;
        if (!update) return;
        lastNewsAt.current = Date.now();
        dispatch({ type: 'update', update });
      },
      // A dropped socket is retried by the client; missed text is caught up by the checks below.
      error: () => undefined,
    });
    loadNewest().then(
      (messages) => {
        if (!active) return;
        lastNewsAt.current = Date.now();
        dispatch({ type: 'merge', messages: messages.nodes });
        setPage({
          status: 'ready',
          hasOlder: messages.pageInfo.hasPreviousPage,
          olderCursor: messages.pageInfo.startCursor ?? null,
          loadingOlder: false,
        });
      },
      (error: unknown) => {
        if (active) setPage((current) => ({ ...current, status: 'error', error }));
      },
    );
    return () => {
      active = false;
      subscription.unsubscribe();
    };
  }, [client, conversationId, loadNewest]);

  const fetchMessages = useCallback(
    async (ids: readonly string[]) => {
      const results = await Promise.allSettled(
        ids.map((id) => client.query({ query: ChatMessageDocument, variables: { id }, fetchPolicy: 'no-cache' })),
      );
      return results.flatMap((result) => (result.status === 'fulfilled' && result.value.data ? [result.value.data.message] : []));
    },
    [client],
  );

  // Unknown replies and replies with a gap in their text are fetched again until they join up.
  useEffect(() => {
    if (state.stale.length === 0) staleAttempts.current = 0;
    if (page.status !== 'ready' || state.stale.length === 0 || staleAttempts.current >= MAX_STALE_ATTEMPTS) return;
    staleAttempts.current += 1;
    let cancelled = false;
    const ids = state.stale;
    const timer = window.setTimeout(() => {
      void fetchMessages(ids).then((messages) => {
        if (cancelled) return;
        dispatch({ type: 'merge', messages });
        setStaleTick((tick) => tick + 1);
      });
    }, STALE_REFETCH_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [fetchMessages, page.status, state.stale, staleTick]);

  // A streaming reply that went quiet (a socket drop hid its end) is fetched again.
  const streamingIds = state.messages.filter((message) => message.status === 'STREAMING').map((message) => message.id);
  const streamingKey = streamingIds.join(',');
  useEffect(() => {
    if (page.status !== 'ready' || !streamingKey) return;
    const ids = streamingKey.split(',');
    const timer = window.setInterval(() => {
      if (Date.now() - lastNewsAt.current < SILENT_REPLY_CHECK_MS) return;
      lastNewsAt.current = Date.now();
      void fetchMessages(ids).then((messages) => dispatch({ type: 'merge', messages }));
    }, SILENT_REPLY_CHECK_MS / 2);
    return () => window.clearInterval(timer);
  }, [fetchMessages, page.status, streamingKey]);

  // Back from a locked phone or another tab: catch up on whatever happened meanwhile.
  useEffect(() => {
    if (page.status !== 'ready') return;
    const onVisible = () => {
      if (document.visibilityState !== 'visible') return;
      loadNewest().then(
        (messages) => dispatch({ type: 'merge', messages: messages.nodes }),
        () => undefined,
      );
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [loadNewest, page.status]);

  const loadOlder = useCallback(async () => {
    if (page.status !== 'ready' || !page.hasOlder || page.loadingOlder || !page.olderCursor) return;
    setPage((current) => ({ ...current, loadingOlder: true }));
    try {
      const { data } = await client.query({
        query: MessagesPageDocument,
        variables: { conversationId, last: MESSAGE_PAGE_SIZE, before: page.olderCursor },
        fetchPolicy: 'no-cache',
      });
      if (!data) throw new Error('messages returned no data');
      dispatch({ type: 'prepend', messages: data.messages.nodes });
      setPage((current) => ({
        ...current,
        hasOlder: data.messages.pageInfo.hasPreviousPage,
        olderCursor: data.messages.pageInfo.startCursor ?? current.olderCursor,
        loadingOlder: false,
      }));
    } catch {
      setPage((current) => ({ ...current, loadingOlder: false }));
    }
  }, [client, conversationId, page]);

  /** Shows messages a mutation returned (they also arrive live; whichever is newer wins). */
  const mergeReturned = useCallback((messages: readonly ChatMessage[]) => dispatch({ type: 'merge', messages }), []);

  return { state, page, loadOlder, mergeReturned };
}
