/**
 * Reconciles a conversation's messages with its live updates (typing, reply text deltas, whole
 * messages). Pure: the chat screen keeps a `LiveState` and feeds it page loads, refetched messages
 * and subscription updates; whatever the order, the visible text only grows until the final message.
 */

export type LiveStatus = 'STREAMING' | 'COMPLETE' | 'FAILED' | 'CANCELLED';

/** The fields reconciliation reads; the screen's message type carries more. */
export interface LiveMessage {
  id: string;
  role: 'USER' | 'ASSISTANT';
  content: string;
  status: LiveStatus;
  swipeIndex: number;
  createdAt: string;
}

export interface LiveDelta {
  messageId: string;
  swipeIndex: number;
  /** Where `text` starts in the reply. */
  offset: number;
  text: string;
}

export type LiveUpdate<M extends LiveMessage> =
  | { type: 'TYPING'; typing: boolean }
  | ({ type: 'DELTA' } & LiveDelta)
  | { type: 'MESSAGE'; message: M }
  | { type: 'DELETED' };

export interface LiveState<M extends LiveMessage> {
  /** Oldest first. */
  messages: M[];
  /** The server said a reply is being written. */
  typing: boolean;
  /** The conversation was deleted. */
  deleted: boolean;
  /** Deltas of each streaming reply's current version, kept to replay over a refetched (older) copy. */
  deltas: Record<string, LiveDelta[]>;
  /** Messages to fetch again with `message(id)`: unknown ones, and replies whose text has a gap. */
  stale: string[];
}

export function createLiveState<M extends LiveMessage>(messages: M[] = []): LiveState<M> {
  return { messages: sortMessages(messages), typing: false, deleted: false, deltas: {}, stale: [] };
}

const isFinal = (message: LiveMessage) => message.status !== 'STREAMING';

/** Oldest first; a member's message and the reply it started share a timestamp, so the member's goes first. */
function compareMessages(a: LiveMessage, b: LiveMessage): number {
  const byTime = Date.parse(a.createdAt) - Date.parse(b.createdAt);
  if (byTime !== 0 && !Number.isNaN(byTime)) return byTime;
  if (a.role !== b.role) return a.role === 'USER' ? -1 : 1;
  return 0;
}

function sortMessages<M extends LiveMessage>(messages: M[]): M[] {
  // Array.prototype.sort is stable: equal messages keep the order they arrived in.
  return [...messages].sort(compareMessages);
}

/**
 * `content` extended by one delta: unchanged when the delta is already in it, null when text before
 * the delta is missing (a gap).
 */
export function extendContent(content: string, delta: Pick<LiveDelta, 'offset' | 'text'>): string | null {
  if (delta.offset > content.length) return null;
  if (delta.offset + delta.text.length <= content.length) return content;
  return content.slice(0, delta.offset) + delta.text;
}

/** Applies deltas in text order as far as they reach; `gap` when some could not be placed yet. */
export function replayDeltas(content: string, deltas: readonly LiveDelta[]): { content: string; gap: boolean } {
  let text = content;
  const ordered = [...deltas].sort((a, b) => a.offset - b.offset);
  for (const delta of ordered) {
    const next = extendContent(text, delta);
    if (next === null) return { content: text, gap: true };
    text = next;
  }
  return { content: text, gap: false };
}

function withStale<M extends LiveMessage>(state: LiveState<M>, id: string, isStale: boolean): string[] {
  const has = state.stale.includes(id);
  if (isStale === has) return state.stale;
  return isStale ? [...state.stale, id] : state.stale.filter((staleId) => staleId !== id);
}

function withoutDeltas(deltas: Record<string, LiveDelta[]>, id: string): Record<string, LiveDelta[]> {
  if (!(id in deltas)) return deltas;
  const rest = { ...deltas };
  delete rest[id];
  return rest;
}

/**
 * Which copy of a message wins: a final copy always replaces a streaming one (and is replaced by a
 * newer version), a streaming copy of an older version or of a version that already ended is stale.
 */
function isOutdated(incoming: LiveMessage, current: LiveMessage): boolean {
  if (incoming.swipeIndex === current.swipeIndex) return !isFinal(incoming) && isFinal(current);
  // A new version only ever starts with a higher index; choosing an older version happens when nothing streams.
  if (!isFinal(incoming)) return incoming.swipeIndex < current.swipeIndex;
  return false;
}

/**
 * Merges a copy of a message (from a page, a refetch or a MESSAGE update): inserts it, or replaces the
 * copy on screen unless it is outdated, then replays the buffered deltas of a streaming reply.
 */
export function mergeMessage<M extends LiveMessage>(state: LiveState<M>, incoming: M): LiveState<M> {
  const index = state.messages.findIndex((message) => message.id === incoming.id);
  const current = index === -1 ? undefined : state.messages[index];
  if (current && isOutdated(incoming, current)) {
    return current.status === 'STREAMING' ? state : { ...state, stale: withStale(state, incoming.id, false) };
  }

  let merged = incoming;
  let deltas = state.deltas;
  let gap = false;
  if (isFinal(incoming)) {
    deltas = withoutDeltas(deltas, incoming.id);
  } else {
    const own = (deltas[incoming.id] ?? []).filter((delta) => delta.swipeIndex >= incoming.swipeIndex);
    const sameVersion = own.filter((delta) => delta.swipeIndex === incoming.swipeIndex);
    // Both copies are prefixes of the same reply: keep the longer one.
    const base =
      current && !isFinal(current) && current.swipeIndex === incoming.swipeIndex && current.content.length > incoming.content.length
        ? current.content
        : incoming.content;
    const replayed = replayDeltas(base, sameVersion);
    gap = replayed.gap || own.some((delta) => delta.swipeIndex > incoming.swipeIndex);
    merged = replayed.content === incoming.content ? incoming : { ...incoming, content: replayed.content };
    deltas = { ...deltas, [incoming.id]: own };
  }

  const messages =
    index === -1 ? sortMessages([...state.messages, merged]) : state.messages.map((message, i) => (i === index ? merged : message));
  const typing = isFinal(merged) && merged.role === 'ASSISTANT' && !messages.some((message) => !isFinal(message)) ? false : state.typing;
  return { ...state, messages, deltas, typing, stale: withStale(state, incoming.id, gap) };
}

/** Merges several copies, e.g. the first page of messages (which may arrive after live updates). */
export function mergeMessages<M extends LiveMessage>(state: LiveState<M>, incoming: readonly M[]): LiveState<M> {
  return incoming.reduce((next, message) => mergeMessage(next, message), state);
}

function applyDelta<M extends LiveMessage>(state: LiveState<M>, delta: LiveDelta): LiveState<M> {
  const index = state.messages.findIndex((message) => message.id === delta.messageId);
  const current = index === -1 ? undefined : state.messages[index];
  const buffered = state.deltas[delta.messageId] ?? [];
  const deltas = { ...state.deltas, [delta.messageId]: [...buffered, delta] };

  // A reply we have not seen yet: keep its text and fetch it.
  if (!current) return { ...state, deltas, stale: withStale(state, delta.messageId, true) };
  // A version that is no longer shown, or text of a reply that already ended: nothing to do.
  if (delta.swipeIndex < current.swipeIndex || (delta.swipeIndex === current.swipeIndex && isFinal(current))) return state;
  // A newer version than the copy on screen: its start is missing.
  if (delta.swipeIndex > current.swipeIndex) return { ...state, deltas, stale: withStale(state, current.id, true) };

  const direct = state.stale.includes(current.id) ? null : extendContent(current.content, delta);
  const replayed = direct === null ? replayDeltas(current.content, deltas[current.id]!) : { content: direct, gap: false };
  const messages =
    replayed.content === current.content
      ? state.messages
      : state.messages.map((message, i) => (i === index ? { ...message, content: replayed.content } : message));
  return { ...state, messages, deltas, stale: withStale(state, current.id, replayed.gap) };
}

/** Applies one live update of the conversation. */
export function applyLiveUpdate<M extends LiveMessage>(state: LiveState<M>, update: LiveUpdate<M>): LiveState<M> {
  switch (update.type) {
    case 'TYPING':
      return update.typing === state.typing ? state : { ...state, typing: update.typing };
    case 'DELTA':
      return applyDelta(state, update);
    case 'MESSAGE':
      return mergeMessage(state, update.message);
    case 'DELETED':
      return { ...state, deleted: true, typing: false };
  }
}

/** Adds an older page in front; copies already on screen (possibly newer) are kept. */
export function prependMessages<M extends LiveMessage>(state: LiveState<M>, older: readonly M[]): LiveState<M> {
  const known = new Set(state.messages.map((message) => message.id));
  const fresh = older.filter((message) => !known.has(message.id));
  if (fresh.length === 0) return state;
  return { ...state, messages: sortMessages([...fresh, ...state.messages]) };
}

/** True while a reply is being written: the server said so, or a reply is still streaming. */
export function isReplying(state: LiveState<LiveMessage>): boolean {
  return state.typing || state.messages.some((message) => message.status === 'STREAMING');
}

/** The reply currently streaming, if any. */
export function streamingMessage<M extends LiveMessage>(state: LiveState<M>): M | undefined {
  return state.messages.find((message) => message.status === 'STREAMING');
}
