import {
  applyBranchUpdate,
  applyLiveUpdate,
  branchMessages,
  branchReadMark,
  createLiveBranch,
  createLiveState,
  invalidateBranch,
  mergeBranchCopies,
  needsBranchRead,
  placeMessages,
  prependBranch,
  showBranch,
  extendContent,
  isReplying,
  mergeMessage,
  mergeMessages,
  prependMessages,
  replayDeltas,
  streamingMessage,
  type LiveBranch,
  type LiveMessage,
  type LiveState,
  type LiveTreeMessage,
  type LiveUpdate,
} from './live-reply';

const AT = '2025-09-01T10:00:00.000Z';
const LATER = '2025-09-01T10:00:05.000Z';

function user(id: string, content: string, createdAt = AT): LiveMessage {
  return { id, role: 'USER', content, status: 'COMPLETE', createdAt };
}

function reply(id: string, content: string, overrides: Partial<LiveMessage> = {}): LiveMessage {
  return { id, role: 'ASSISTANT', content, status: 'STREAMING', createdAt: AT, ...overrides };
}

const delta = (messageId: string, offset: number, text: string): LiveUpdate<LiveMessage> => ({ type: 'DELTA', messageId, offset, text });

function apply(state: LiveState<LiveMessage>, ...updates: LiveUpdate<LiveMessage>[]): LiveState<LiveMessage> {
  return updates.reduce(applyLiveUpdate, state);
}

const contentOf = (state: LiveState<LiveMessage>, id: string) => state.messages.find((message) => message.id === id)?.content;

describe('extendContent', () => {
  it('appends a delta that starts at the end', () => {
    expect(extendContent('Hello', { offset: 5, text: ' there' })).toBe('Hello there');
  });

  it('replaces the tail from the offset when the delta overlaps it', () => {
    expect(extendContent('Hello th', { offset: 5, text: ' there' })).toBe('Hello there');
  });

  it('leaves text alone when the delta is already in it (a refetch got ahead)', () => {
    expect(extendContent('Hello there, friend', { offset: 5, text: ' there' })).toBe('Hello there, friend');
  });

  it('reports a gap when text before the delta is missing', () => {
    expect(extendContent('Hello', { offset: 9, text: 'friend' })).toBeNull();
  });
});

describe('replayDeltas', () => {
  it('applies deltas in text order whatever order they arrived in', () => {
    const deltas = [
      { messageId: 'a', offset: 6, text: 'world' },
      { messageId: 'a', offset: 0, text: 'Hello ' },
    ];
    expect(replayDeltas('', deltas)).toEqual({ content: 'Hello world', gap: false });
  });

  it('stops at a gap and says so', () => {
    const deltas = [
      { messageId: 'a', offset: 0, text: 'Hi' },
      { messageId: 'a', offset: 10, text: 'later' },
    ];
    expect(replayDeltas('', deltas)).toEqual({ content: 'Hi', gap: true });
  });
});

describe('live reply reconciliation', () => {
  it('grows a streaming reply delta by delta', () => {
    const state = apply(createLiveState([user('u1', 'Hi'), reply('a1', '')]), delta('a1', 0, 'Hello'), delta('a1', 5, ' there'));
    expect(contentOf(state, 'a1')).toBe('Hello there');
    expect(state.stale).toEqual([]);
  });

  it('ignores a repeated delta instead of cutting the text', () => {
    const state = apply(createLiveState([reply('a1', '')]), delta('a1', 0, 'Hello'), delta('a1', 5, ' there'), delta('a1', 0, 'Hello'));
    expect(contentOf(state, 'a1')).toBe('Hello there');
  });

  it('marks a reply stale on a gap, then converges on the refetched copy plus the buffered deltas', () => {
    // Reconnected mid-reply: the first words were missed.
    let state = apply(createLiveState([reply('a1', 'Once')]), delta('a1', 16, ', there'));
    expect(contentOf(state, 'a1')).toBe('Once');
    expect(state.stale).toEqual(['a1']);

    // The server had saved "Once upon" only: still a gap, still stale.
    state = mergeMessage(state, reply('a1', 'Once upon'));
    expect(contentOf(state, 'a1')).toBe('Once upon');
    expect(state.stale).toEqual(['a1']);

    // A later save reaches the buffered deltas: the text joins up.
    state = mergeMessage(state, reply('a1', 'Once upon a time'));
    expect(contentOf(state, 'a1')).toBe('Once upon a time, there');
    expect(state.stale).toEqual([]);

    state = apply(state, delta('a1', 23, ' was'));
    expect(contentOf(state, 'a1')).toBe('Once upon a time, there was');
  });

  it('never shortens a streaming reply when a refetch returns an older save', () => {
    let state = apply(createLiveState([reply('a1', '')]), delta('a1', 0, 'Hello'), delta('a1', 5, ' there'));
    state = mergeMessage(state, reply('a1', 'Hel'));
    expect(contentOf(state, 'a1')).toBe('Hello there');
  });

  it('lets the final MESSAGE replace the text and drops its buffered deltas', () => {
    let state = apply(createLiveState([reply('a1', '')]), delta('a1', 0, 'Hello'));
    state = apply(state, { type: 'MESSAGE', message: reply('a1', 'Hello there.', { status: 'COMPLETE' }) });
    expect(contentOf(state, 'a1')).toBe('Hello there.');
    expect(state.deltas).toEqual({});
    // A late delta of the finished reply changes nothing.
    state = apply(state, delta('a1', 5, ' th'));
    expect(contentOf(state, 'a1')).toBe('Hello there.');
  });

  it('keeps a finished reply when a slower refetch returns it still streaming', () => {
    let state = createLiveState([reply('a1', 'Done.', { status: 'COMPLETE' })]);
    state = mergeMessage(state, reply('a1', 'Do'));
    expect(state.messages[0]).toMatchObject({ content: 'Done.', status: 'COMPLETE' });
    expect(state.stale).toEqual([]);
  });

  it('fetches a reply it has not seen, then shows it with the deltas that came first', () => {
    let state = apply(createLiveState([user('u1', 'Hi')]), delta('a1', 0, 'Hey'), delta('a1', 3, ' you'));
    expect(state.messages).toHaveLength(1);
    expect(state.stale).toEqual(['a1']);
    state = mergeMessage(state, reply('a1', ''));
    expect(contentOf(state, 'a1')).toBe('Hey you');
    expect(state.stale).toEqual([]);
  });

  it('applies updates that arrived before the first page once the page loads', () => {
    // Subscribed first: the reply's deltas and the member's message came before the page.
    let state = apply(createLiveState(), delta('a1', 6, 'again'), { type: 'MESSAGE', message: user('u2', 'More?', LATER) });
    state = mergeMessages(state, [user('u1', 'Hi'), reply('a1', 'Hello ')]);
    expect(state.messages.map((message) => message.id)).toEqual(['u1', 'a1', 'u2']);
    expect(contentOf(state, 'a1')).toBe('Hello again');
    expect(state.stale).toEqual([]);
  });

  it('orders a member message before the reply it started when both share a timestamp', () => {
    let state = createLiveState([reply('g', 'Greetings', { status: 'COMPLETE', createdAt: '2025-09-01T09:00:00.000Z' })]);
    state = apply(state, { type: 'MESSAGE', message: reply('a1', '') }, { type: 'MESSAGE', message: user('u1', 'Hi') });
    expect(state.messages.map((message) => message.id)).toEqual(['g', 'u1', 'a1']);
  });

  it('keeps each version of a reply apart: a new version is a message of its own', () => {
    let state = createLiveState([reply('a1', 'First version.', { status: 'COMPLETE' })]);
    state = apply(state, { type: 'MESSAGE', message: reply('a2', '') }, delta('a2', 0, 'Second'), delta('a1', 5, 'x'));
    expect(contentOf(state, 'a1')).toBe('First version.');
    expect(contentOf(state, 'a2')).toBe('Second');
  });

  it('grows a continued reply from its first text: the deltas count from the start of it', () => {
    let state = createLiveState([reply('a2', 'Once upon a time')]);
    state = apply(state, delta('a2', 16, ', there'), delta('a2', 23, ' was'));
    expect(contentOf(state, 'a2')).toBe('Once upon a time, there was');
  });

  it('tracks typing, and ends it when the last reply is final', () => {
    let state = apply(createLiveState([reply('a1', '')]), { type: 'TYPING', typing: true });
    expect(isReplying(state)).toBe(true);
    expect(streamingMessage(state)?.id).toBe('a1');
    state = apply(state, { type: 'MESSAGE', message: reply('a1', 'Bye.', { status: 'CANCELLED' }) });
    expect(state.typing).toBe(false);
    expect(isReplying(state)).toBe(false);
    state = apply(state, { type: 'TYPING', typing: true });
    expect(isReplying(state)).toBe(true);
    state = apply(state, { type: 'TYPING', typing: false });
    expect(isReplying(state)).toBe(false);
  });

  it('treats a streaming reply as typing even before any TYPING update (after a reload)', () => {
    expect(isReplying(createLiveState([reply('a1', 'Half a')]))).toBe(true);
  });

  it('notes a deleted conversation', () => {
    expect(apply(createLiveState([user('u1', 'Hi')]), { type: 'DELETED' }).deleted).toBe(true);
  });

  it('prepends an older page without replacing newer copies', () => {
    let state = createLiveState([user('u3', 'Third', LATER), reply('a3', 'Live text', { createdAt: LATER })]);
    state = prependMessages(state, [user('u1', 'First', '2025-09-01T09:00:00.000Z'), reply('a3', '', { createdAt: LATER })]);
    expect(state.messages.map((message) => message.id)).toEqual(['u1', 'u3', 'a3']);
    expect(contentOf(state, 'a3')).toBe('Live text');
  });
});

function tree(
  id: string,
  parentId: string | null,
  role: 'USER' | 'ASSISTANT',
  content: string,
  status: LiveTreeMessage['status'] = 'COMPLETE',
) {
  return { id, parentId, role, content, status, createdAt: AT } satisfies LiveTreeMessage;
}

const idsOf = (branch: LiveBranch<LiveTreeMessage>) => branchMessages(branch).map((message) => message.id);
const read = (branch: LiveBranch<LiveTreeMessage>, page: LiveTreeMessage[]) => showBranch(branch, page, branchReadMark(branch));
const messageUpdate = (message: LiveTreeMessage): LiveUpdate<LiveTreeMessage> => ({ type: 'MESSAGE', message });

// g: greeting; u1 → a1, u2 → a2 on the branch shown.
const G = tree('g', null, 'ASSISTANT', 'Welcome.');
const U1 = tree('u1', 'g', 'USER', 'Hi');
const A1 = tree('a1', 'u1', 'ASSISTANT', 'Hello.');
const U2 = tree('u2', 'a1', 'USER', 'How are you?');
const A2 = tree('a2', 'u2', 'ASSISTANT', 'Fine.');
const shown = () => read(createLiveBranch<LiveTreeMessage>(), [G, U1, A1, U2, A2]);

describe('the branch shown', () => {
  it('shows the branch as read, first message first', () => {
    expect(idsOf(shown())).toEqual(['g', 'u1', 'a1', 'u2', 'a2']);
  });

  it('adds a sent message and its reply at the end', () => {
    const branch = placeMessages(shown(), [tree('u3', 'a2', 'USER', 'Bye'), tree('a3', 'u3', 'ASSISTANT', '', 'STREAMING')]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
  });

  it('puts a new version of a reply in place of the one shown, and drops what followed it', () => {
    const branch = applyBranchUpdate(shown(), messageUpdate(tree('a1b', 'u1', 'ASSISTANT', '', 'STREAMING')));
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1b']);
  });

  it("shows an edited member's message as a new version with its reply streaming after it", () => {
    const branch = placeMessages(shown(), [tree('u1b', 'g', 'USER', 'Hi again'), tree('a1c', 'u1b', 'ASSISTANT', '', 'STREAMING')]);
    expect(idsOf(branch)).toEqual(['g', 'u1b', 'a1c']);
  });

  it('replaces the whole branch with another first message', () => {
    const branch = applyBranchUpdate(shown(), messageUpdate(tree('g2', null, 'ASSISTANT', 'Another greeting.')));
    expect(idsOf(branch)).toEqual(['g2']);
  });

  it('reads again when a message follows one that is not on screen, or the server says the branch changed', () => {
    let branch = shown();
    expect(needsBranchRead(branch)).toBe(false);
    branch = applyBranchUpdate(branch, messageUpdate(tree('x2', 'elsewhere', 'ASSISTANT', '')));
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2']);
    expect(needsBranchRead(branch)).toBe(true);
    branch = read(branch, [G, U1, A1, U2, A2]);
    expect(needsBranchRead(branch)).toBe(false);
    expect(needsBranchRead(applyBranchUpdate(branch, { type: 'BRANCH' }))).toBe(true);
    expect(needsBranchRead(invalidateBranch(branch))).toBe(true);
  });

  it('shows another chosen version with the branch read below it, and the version left keeps its text', () => {
    let branch = applyBranchUpdate(shown(), messageUpdate(tree('a1b', 'u1', 'ASSISTANT', 'Second.')));
    branch = placeMessages(invalidateBranch(branch), [A1]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1']);
    branch = read(branch, [G, U1, A1, U2, A2]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2']);
    expect(needsBranchRead(branch)).toBe(false);
    expect(branch.live.messages.find((message) => message.id === 'a1b')?.content).toBe('Second.');
  });

  it('ends the branch where a read says it ends (a branch from an earlier message), and the next message follows it', () => {
    let branch = read(invalidateBranch(shown()), [G, U1, A1]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1']);
    branch = placeMessages(branch, [tree('u2b', 'a1', 'USER', 'Something else')]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2b']);
  });

  it('keeps what was placed while a read was under way', () => {
    let branch = shown();
    const mark = branchReadMark(branch);
    branch = applyBranchUpdate(branch, messageUpdate(tree('u3', 'a2', 'USER', 'Bye')));
    branch = applyBranchUpdate(branch, messageUpdate(tree('a3', 'u3', 'ASSISTANT', '', 'STREAMING')));
    branch = applyBranchUpdate(branch, delta('a3', 0, 'See you') as LiveUpdate<LiveTreeMessage>);
    // The read started before the new messages were written.
    branch = showBranch(branch, [G, U1, A1, U2, A2], mark);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    expect(branchMessages(branch).at(-1)?.content).toBe('See you');
  });

  it('places updates that arrived before the first read once it lands', () => {
    let branch = createLiveBranch<LiveTreeMessage>();
    const mark = branchReadMark(branch);
    branch = applyBranchUpdate(branch, delta('a2', 6, 'again') as LiveUpdate<LiveTreeMessage>);
    branch = applyBranchUpdate(branch, messageUpdate(tree('u3', 'a2', 'USER', 'More?')));
    branch = showBranch(branch, [U2, tree('a2', 'u2', 'ASSISTANT', 'Hello ', 'STREAMING')], mark);
    expect(idsOf(branch)).toEqual(['u2', 'a2', 'u3']);
    expect(branchMessages(branch)[1]?.content).toBe('Hello again');
  });

  it('does not bring back a version switched away from when its final text arrives', () => {
    let branch = applyBranchUpdate(shown(), messageUpdate(tree('a2b', 'u2', 'ASSISTANT', '', 'STREAMING')));
    branch = read(invalidateBranch(branch), [G, U1, A1, U2, A2]);
    branch = applyBranchUpdate(branch, messageUpdate(tree('a2b', 'u2', 'ASSISTANT', 'Done.')));
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2']);
    expect(branch.live.messages.find((message) => message.id === 'a2b')?.content).toBe('Done.');
  });

  it('adds a refetched message only when it follows the last message shown', () => {
    let branch = mergeBranchCopies(shown(), [tree('a1b', 'u1', 'ASSISTANT', 'Elsewhere.')]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2']);
    branch = mergeBranchCopies(branch, [tree('u3', 'a2', 'USER', 'Next')]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2', 'u3']);
  });

  it('puts an older page in front of the branch', () => {
    let branch = read(createLiveBranch<LiveTreeMessage>(), [U2, A2]);
    branch = prependBranch(branch, [G, U1, A1]);
    expect(idsOf(branch)).toEqual(['g', 'u1', 'a1', 'u2', 'a2']);
  });

  it('needs a read for a first message when older messages are not loaded', () => {
    const branch = applyBranchUpdate(
      read(createLiveBranch<LiveTreeMessage>(), [U2, A2]),
      messageUpdate(tree('g2', null, 'ASSISTANT', 'Hi.')),
    );
    expect(idsOf(branch)).toEqual(['u2', 'a2']);
    expect(needsBranchRead(branch)).toBe(true);
  });
});
