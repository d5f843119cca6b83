/**
 * Reconciles a conversation's messages with its live updates (typing, reply text deltas, whole
 * messages). Pure: the chat screen keeps a `LiveState` and feeds it page loads, refetched messages
 * and subscription updates; whatever the order, the visible text only grows until the final message.
 * Every version of a message is a message of its own (its own id), so copies of one id are one text.
 * `LiveBranch` (below) keeps the branch of the conversation tree shown over those messages.
 */

export type LiveStatus = 'STREAMING' | 'COMPLETE' | 'FAILED' | 'CANCELLED';

/** The fields reconciliation reads; the screen's message type carries more. */
export interface LiveMessage {
  id: string;
  role: 'USER' | 'ASSISTANT';
  content: string;
  status: LiveStatus;
  createdAt: string;
}

export interface LiveDelta {
  messageId: string;
  /** The reply's place among its versions, as sent; reconciliation goes by `messageId`, which is one version. */
  swipeIndex?: number;
  /** Where `text` starts in the reply. */
  offset: number;
  text: string;
}

export type LiveUpdate<M extends LiveMessage> =
  | { type: 'TYPING'; typing: boolean }
  | ({ type: 'DELTA' } & LiveDelta)
  | { type: 'MESSAGE'; message: M }
  /** The branch shown changed (here or in another tab): read it again. */
  | { type: 'BRANCH' }
  | { type: 'DELETED' };

export interface LiveState<M extends LiveMessage> {
  /** Oldest first. */
  messages: M[];
  /** The server said a reply is being written. */
  typing: boolean;
  /** The conversation was deleted. */
  deleted: boolean;
  /** Deltas of each streaming reply, kept to replay over a refetched (older) copy. */
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

/** Which copy of a message wins: a final copy always replaces a streaming one; a streaming copy of a finished one is stale. */
const isOutdated = (incoming: LiveMessage, current: LiveMessage): boolean => !isFinal(incoming) && isFinal(current);

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
    const own = deltas[incoming.id] ?? [];
    // Both copies are prefixes of the same reply: keep the longer one.
    const base = current && !isFinal(current) && current.content.length > incoming.content.length ? current.content : incoming.content;
    const replayed = replayDeltas(base, own);
    gap = replayed.gap;
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

  // A reply we have not seen yet (a new version, perhaps): keep its text and fetch it.
  if (!current) return { ...state, deltas, stale: withStale(state, delta.messageId, true) };
  // Text of a reply that already ended: nothing to do.
  if (isFinal(current)) return state;

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
    case 'BRANCH':
      return state;
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

/** A message of a conversation tree: it follows its parent (null for the first message of a branch). */
export interface LiveTreeMessage extends LiveMessage {
  parentId: string | null;
}

/** Messages placed on the branch by live updates or mutations that a read started earlier would not show. */
const PLACED_KEPT = 50;
/** Messages that left the branch shown, remembered so a late update of one does not bring it back. */
const LEFT_KEPT = 200;

/**
 * The branch of a conversation tree on screen, over the live messages (which hold every message seen, on any
 * branch, so a version switched away from keeps reconciling quietly). A read of the branch replaces it; a new
 * message takes its place after its parent, ending the branch there (every new message ends the branch shown).
 */
export interface LiveBranch<M extends LiveTreeMessage> {
  live: LiveState<M>;
  /** The branch shown, its first message first. */
  ids: string[];
  /** The last messages placed (by a live update or a mutation's answer), with their order, newest last. */
  placed: { seq: number; id: string }[];
  placedSeq: number;
  /** Changes that only a fresh read of the branch shows: BRANCH updates, a message whose parent is not on screen. */
  changes: number;
  /** `changes` when the read on screen started. */
  readAt: number;
  /** Messages that were on the branch shown and left it (a version switched away from, a branch left), newest last. */
  left: string[];
}

/** Where the branch stood when a read started: `showBranch` replays what was placed after it. */
export interface BranchReadMark {
  changes: number;
  placedSeq: number;
}

export function createLiveBranch<M extends LiveTreeMessage>(): LiveBranch<M> {
  return { live: createLiveState<M>(), ids: [], placed: [], placedSeq: 0, changes: 0, readAt: 0, left: [] };
}

export const branchReadMark = (branch: LiveBranch<LiveTreeMessage>): BranchReadMark => ({
  changes: branch.changes,
  placedSeq: branch.placedSeq,
});

/** True when the branch shown may be out of date until it is read again. */
export const needsBranchRead = (branch: LiveBranch<LiveTreeMessage>): boolean => branch.changes > branch.readAt;

/** The messages of the branch shown, first first. */
export function branchMessages<M extends LiveTreeMessage>(branch: LiveBranch<M>): M[] {
  const byId = new Map(branch.live.messages.map((message) => [message.id, message]));
  return branch.ids.flatMap((id) => {
    const message = byId.get(id);
    return message ? [message] : [];
  });
}

/** The ids of the branch once `message` is placed on it, or null when its parent is not on screen. */
function idsWith<M extends LiveTreeMessage>(branch: LiveBranch<M>, message: M): string[] | null {
  const { ids } = branch;
  if (ids.includes(message.id)) return ids;
  if (ids.length === 0) return [message.id];
  if (message.parentId === null) {
    // A first message of another branch; the one on screen must be a first message too, or older ones are not loaded.
    const first = branch.live.messages.find((candidate) => candidate.id === ids[0]);
    return first?.parentId === null ? [message.id] : null;
  }
  const parentAt = ids.indexOf(message.parentId);
  return parentAt === -1 ? null : [...ids.slice(0, parentAt + 1), message.id];
}

/** The branch shown becomes `ids`; the messages that leave it are remembered. */
function withIds<M extends LiveTreeMessage>(branch: LiveBranch<M>, ids: string[]): LiveBranch<M> {
  const shown = new Set(ids);
  const departed = branch.ids.filter((id) => !shown.has(id));
  const left = [...branch.left.filter((id) => !shown.has(id) && !departed.includes(id)), ...departed].slice(-LEFT_KEPT);
  return { ...branch, ids, left };
}

function place<M extends LiveTreeMessage>(branch: LiveBranch<M>, message: M): LiveBranch<M> {
  const ids = idsWith(branch, message);
  if (!ids) return { ...branch, changes: branch.changes + 1 };
  if (ids === branch.ids) return branch;
  const placedSeq = branch.placedSeq + 1;
  const placed = [...branch.placed, { seq: placedSeq, id: message.id }].slice(-PLACED_KEPT);
  return { ...withIds(branch, ids), placed, placedSeq };
}

/**
 * Shows messages that were just written or chosen (a mutation's answer): each ends the branch shown, after its
 * parent; a version replaces its sibling and the messages that followed it.
 */
export function placeMessages<M extends LiveTreeMessage>(branch: LiveBranch<M>, messages: readonly M[]): LiveBranch<M> {
  return messages.reduce((next, message) => place({ ...next, live: mergeMessage(next.live, message) }, message), branch);
}

/** A MESSAGE update: a new message is placed; a later copy of one that left the branch (its final text) only updates it. */
function applyMessageUpdate<M extends LiveTreeMessage>(branch: LiveBranch<M>, message: M): LiveBranch<M> {
  const live = mergeMessage(branch.live, message);
  return branch.left.includes(message.id) ? { ...branch, live } : place({ ...branch, live }, message);
}

/**
 * Merges refetched copies: their text is reconciled wherever they are; a message not on screen joins the branch only
 * when it follows its last message (a copy of a version switched away from must not come back).
 */
export function mergeBranchCopies<M extends LiveTreeMessage>(branch: LiveBranch<M>, messages: readonly M[]): LiveBranch<M> {
  let next = { ...branch, live: mergeMessages(branch.live, messages) };
  for (const message of messages) {
    const last = next.ids[next.ids.length - 1];
    const follows = last !== undefined && message.parentId === last;
    if (follows && !next.ids.includes(message.id) && !next.left.includes(message.id)) next = place(next, message);
  }
  return next;
}

/**
 * The branch as read (its newest page, first message first), with the messages placed after the read started
 * replayed over it.
 */
export function showBranch<M extends LiveTreeMessage>(branch: LiveBranch<M>, page: readonly M[], mark: BranchReadMark): LiveBranch<M> {
  const read: LiveBranch<M> = {
    ...withIds(
      branch,
      page.map((message) => message.id),
    ),
    live: mergeMessages(branch.live, page),
    readAt: Math.max(branch.readAt, mark.changes),
  };
  const byId = new Map(read.live.messages.map((message) => [message.id, message]));
  return branch.placed
    .filter((entry) => entry.seq > mark.placedSeq)
    .reduce((next, entry) => {
      const message = byId.get(entry.id);
      return message ? place(next, message) : next;
    }, read);
}

/** Adds an older page of the branch in front of it. */
export function prependBranch<M extends LiveTreeMessage>(branch: LiveBranch<M>, older: readonly M[]): LiveBranch<M> {
  const known = new Set(branch.ids);
  const fresh = older.filter((message) => !known.has(message.id)).map((message) => message.id);
  return { ...branch, live: prependMessages(branch.live, older), ids: [...fresh, ...branch.ids] };
}

/** Applies one live update of the conversation to its messages and to the branch shown. */
export function applyBranchUpdate<M extends LiveTreeMessage>(branch: LiveBranch<M>, update: LiveUpdate<M>): LiveBranch<M> {
  switch (update.type) {
    case 'MESSAGE':
      return applyMessageUpdate(branch, update.message);
    case 'BRANCH':
      return { ...branch, changes: branch.changes + 1 };
    default: {
      const live = applyLiveUpdate(branch.live, update);
      return live === branch.live ? branch : { ...branch, live };
    }
  }
}

/** Asks for a fresh read of the branch shown (after a switch, a deletion or an edit made here). */
export const invalidateBranch = <M extends LiveTreeMessage>(branch: LiveBranch<M>): LiveBranch<M> => ({
  ...branch,
  changes: branch.changes + 1,
});
