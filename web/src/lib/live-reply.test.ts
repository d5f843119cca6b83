import {
  applyLiveUpdate,
  createLiveState,
  extendContent,
  isReplying,
  mergeMessage,
  mergeMessages,
  prependMessages,
  replayDeltas,
  streamingMessage,
  type LiveMessage,
  type LiveState,
  type LiveUpdate,
} from './live-reply';

const AT = '2025-09-01T10:00:00.000Z';
const LATER = '2025-09-01T10:00:05.000Z';

function user(id: string, content: string, createdAt = AT): LiveMessage {
  return { id, role: 'USER', content, status: 'COMPLETE', swipeIndex: 0, createdAt };
}

function reply(id: string, content: string, overrides: Partial<LiveMessage> = {}): LiveMessage {
  return { id, role: 'ASSISTANT', content, status: 'STREAMING', swipeIndex: 0, createdAt: AT, ...overrides };
}

const delta = (messageId: string, offset: number, text: string, swipeIndex = 0): LiveUpdate<LiveMessage> => ({
  type: 'DELTA',
  messageId,
  swipeIndex,
  offset,
  text,
});

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
      { messageId: 'a', swipeIndex: 0, offset: 6, text: 'world' },
      { messageId: 'a', swipeIndex: 0, offset: 0, text: 'Hello ' },
    ];
    expect(replayDeltas('', deltas)).toEqual({ content: 'Hello world', gap: false });
  });

  it('stops at a gap and says so', () => {
    const deltas = [
      { messageId: 'a', swipeIndex: 0, offset: 0, text: 'Hi' },
      { messageId: 'a', swipeIndex: 0, offset: 10, text: 'later' },
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

  it('starts a regenerated version from empty text and ignores deltas of the old one', () => {
    let state = createLiveState([reply('a1', 'First version.', { status: 'COMPLETE' })]);
    state = apply(
      state,
      { type: 'MESSAGE', message: reply('a1', '', { swipeIndex: 1 }) },
      delta('a1', 0, 'Second', 1),
      delta('a1', 5, 'x', 0),
    );
    expect(state.messages[0]).toMatchObject({ content: 'Second', swipeIndex: 1, status: 'STREAMING' });
  });

  it('refetches when deltas of a newer version arrive before its MESSAGE', () => {
    let state = createLiveState([reply('a1', 'First version.', { status: 'COMPLETE' })]);
    state = apply(state, delta('a1', 0, 'Second', 1));
    expect(contentOf(state, 'a1')).toBe('First version.');
    expect(state.stale).toEqual(['a1']);
    state = mergeMessage(state, reply('a1', '', { swipeIndex: 1 }));
    expect(contentOf(state, 'a1')).toBe('Second');
    expect(state.stale).toEqual([]);
  });

  it('shows another chosen version', () => {
    let state = createLiveState([reply('a1', 'Second.', { status: 'COMPLETE', swipeIndex: 1 })]);
    state = apply(state, { type: 'MESSAGE', message: reply('a1', 'First.', { status: 'COMPLETE', swipeIndex: 0 }) });
    expect(state.messages[0]).toMatchObject({ content: 'First.', swipeIndex: 0 });
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
