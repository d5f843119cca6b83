import { useApolloClient } from '@apollo/client/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { ChatMessageFragment, ConversationUpdatesSubscription } from '../../../gql/graphql';
import {
  applyBranchUpdate,
  branchMessages,
  branchReadMark,
  createLiveBranch,
  invalidateBranch,
  mergeBranchCopies,
  needsBranchRead,
  placeMessages,
  prependBranch,
  showBranch,
  type BranchReadMark,
  type LiveBranch,
  type LiveUpdate,
} from '../live-reply';
import { ChatMessageDocument, ConversationUpdatesDocument, MessagesPageDocument } from '../operations';

export type ChatMessage = ChatMessageFragment;

/** Long chats open at once: the newest page first, older pages on demand. */
export const MESSAGE_PAGE_SIZE = 30;
/** Delay before fetching a reply again while its text has a gap (the server saves every ~250 ms). */
const STALE_REFETCH_DELAY_MS = 250;
/** A streaming reply with no news for this long is fetched again (a final update may have been missed). */
const SILENT_REPLY_CHECK_MS = 4000;
/** Fetches of stale messages before giving up (about 10 s); the silent-reply check carries on after. */
const MAX_STALE_ATTEMPTS = 40;
/** Wait before reading the branch again after a failed read. */
const BRANCH_RETRY_MS = 2000;

type Action =
  | { type: 'update'; update: LiveUpdate<ChatMessage> }
  /** Messages a mutation wrote or chose: they end the branch shown. */
  | { type: 'place'; messages: readonly ChatMessage[] }
  /** Refetched copies: their text is reconciled. */
  | { type: 'copies'; messages: readonly ChatMessage[] }
  | { type: 'read'; messages: readonly ChatMessage[]; mark: BranchReadMark }
  | { type: 'prepend'; messages: readonly ChatMessage[] }
  | { type: 'invalidate' };

type State = LiveBranch<ChatMessage>;

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'update':
      return applyBranchUpdate(state, action.update);
    case 'place':
      return placeMessages(state, action.messages);
    case 'copies':
      return mergeBranchCopies(state, action.messages);
    case 'read':
      return showBranch(state, action.messages, action.mark);
    case 'prepend':
      return prependBranch(state, action.messages);
    case 'invalidate':
      return invalidateBranch(state);
  }
}

type RawUpdate = ConversationUpdatesSubscription['conversationUpdates'];

function toLiveUpdate(raw: RawUpdate): LiveUpdate<ChatMessage> | null {
  switch (raw.type) {
    case 'TYPING':
      return { type: 'TYPING', typing: Boolean(raw.typing) };
    case 'DELTA':
      if (!raw.messageId || raw.offset == null || raw.text == null) return null;
      return { type: 'DELTA', messageId: raw.messageId, offset: raw.offset, text: raw.text };
    case 'MESSAGE':
      return raw.message ? { type: 'MESSAGE', message: raw.message } : null;
    case 'BRANCH':
      return { type: 'BRANCH' };
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
 * One conversation's branch kept live: subscribes to its updates before reading the branch shown (its newest page),
 * then reconciles page, live text and refetches (see live-reply.ts), and reads the branch again whenever it changed
 * (a switch, a deletion, an edit, here or in another tab). Mount it once per conversation.
 */
export function useLiveConversation(conversationId: string) {
  const client = useApolloClient();
  const [state, dispatch] = useReducer(reducer, undefined, () => createLiveBranch<ChatMessage>());
  const [page, setPage] = useState<PageState>({ status: 'loading', hasOlder: false, olderCursor: null, loadingOlder: false });
  const [staleTick, setStaleTick] = useState(0);
  const [readFailures, setReadFailures] = useState(0);
  // Counts finished reads: a change noted while one was under way is read once it ends.
  const [readsDone, setReadsDone] = useState(0);
  const lastNewsAt = useRef(0);
  const staleAttempts = useRef(0);
  const reading = useRef(false);
  // Where the branch stood at the last render: a read replays whatever is placed after it starts.
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  });

  const loadNewest = useCallback(async () => {
    const { data } = await client.query({
      query: MessagesPageDocument,
      variables: { conversationId, last: MESSAGE_PAGE_SIZE },
      fetchPolicy: 'no-cache',
    });
    if (!data) throw new Error('messages returned no data');
    return data.messages;
  }, [client, conversationId]);

  /** Reads the branch shown (its newest page), noting where the branch on screen stood when the read started. */
  const readBranch = useCallback(async () => {
    const mark = branchReadMark(latest.current);
    return { messages: await loadNewest(), mark };
  }, [loadNewest]);

  const showRead = useCallback(({ messages, mark }: Awaited<ReturnType<typeof readBranch>>) => {
    reading.current = false;
    lastNewsAt.current = Date.now();
    dispatch({ type: 'read', messages: messages.nodes, mark });
    setReadsDone((reads) => reads + 1);
    setPage({
      status: 'ready',
      hasOlder: messages.pageInfo.hasPreviousPage,
      olderCursor: messages.pageInfo.startCursor ?? null,
      loadingOlder: false,
    });
  }, []);

  // Subscribe first, then read: nothing written between the read and the subscription is lost.
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
    reading.current = true;
    readBranch().then(
      (read) => {
        if (active) showRead(read);
      },
      (error: unknown) => {
        reading.current = false;
        if (active) setPage((current) => ({ ...current, status: 'error', error }));
      },
    );
    return () => {
      active = false;
      subscription.unsubscribe();
    };
  }, [client, conversationId, readBranch, showRead]);

  // The branch shown changed (a BRANCH update, an action here, a message whose parent is not on screen): read it again.
  const mustRead = needsBranchRead(state);
  useEffect(() => {
    if (page.status !== 'ready' || !mustRead || reading.current) return;
    let cancelled = false;
    const timer = window.setTimeout(
      () => {
        reading.current = true;
        readBranch().then(
          (read) => {
            showRead(read);
            setReadFailures(0);
          },
          () => {
            reading.current = false;
            if (!cancelled) setReadFailures((failures) => failures + 1);
          },
        );
      },
      readFailures > 0 ? BRANCH_RETRY_MS : 0,
    );
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [mustRead, page.status, readBranch, readFailures, readsDone, showRead]);

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
  const { stale } = state.live;
  useEffect(() => {
    if (stale.length === 0) staleAttempts.current = 0;
    if (page.status !== 'ready' || stale.length === 0 || staleAttempts.current >= MAX_STALE_ATTEMPTS) return;
    staleAttempts.current += 1;
    let cancelled = false;
    const timer = window.setTimeout(() => {
      void fetchMessages(stale).then((messages) => {
        if (cancelled) return;
        dispatch({ type: 'copies', messages });
        setStaleTick((tick) => tick + 1);
      });
    }, STALE_REFETCH_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [fetchMessages, page.status, stale, staleTick]);

  // A streaming reply that went quiet (a socket drop hid its end) is fetched again.
  const streamingKey = state.live.messages
    .filter((message) => message.status === 'STREAMING')
    .map((message) => message.id)
    .join(',');
  useEffect(() => {
    if (page.status !== 'ready' || !streamingKey) return;
    const ids = streamingKey.split(',');
    const timer = window.setInterval(() => {
      if (Date.now() - lastNewsAt.current < SILENT_REPLY_CHECK_MS) return;
      lastNewsAt.current = Date.now();
      void fetchMessages(ids).then((messages) => dispatch({ type: 'copies', messages }));
    }, SILENT_REPLY_CHECK_MS / 2);
    return () => window.clearInterval(timer);
  }, [fetchMessages, page.status, streamingKey]);

  // Back from a locked phone or another tab: catch up on whatever happened meanwhile.
  useEffect(() => {
    if (page.status !== 'ready') return;
    const onVisible = () => {
      if (document.visibilityState === 'visible') dispatch({ type: 'invalidate' });
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [page.status]);

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

  /** Shows messages a mutation wrote or chose at the end of the branch shown (they also arrive live). */
  const placeReturned = useCallback((messages: readonly ChatMessage[]) => dispatch({ type: 'place', messages }), []);
  /** Reads the branch shown again (after a switch, a deletion or an edit). */
  const refreshBranch = useCallback(() => dispatch({ type: 'invalidate' }), []);

  const messages = useMemo(() => branchMessages(state), [state]);
  return { live: state.live, messages, page, loadOlder, placeReturned, refreshBranch };
}
