import { LiveRouter } from './live-router';

describe('LiveRouter (the in-process bus live subscriptions)', () => {
  it('finds exact subscribers by subject and wildcard subscribers by pattern, nothing else', () => {
    const router = new LiveRouter();
    const exact = jest.fn();
    const other = jest.fn();
    const star = jest.fn();
    const rest = jest.fn();
    router.add('live.chat.conversation.a', exact);
    router.add('live.chat.conversation.b', other);
    router.add('live.chat.conversation.*', star);
    router.add('live.>', rest);
    for (const handler of router.handlersFor('live.chat.conversation.a')) handler('x', 'live.chat.conversation.a');
    expect([exact, other, star, rest].map((handler) => handler.mock.calls.length)).toEqual([1, 0, 1, 1]);
    expect(router.handlersFor('live.media.generation.u1')).toEqual([rest]);
  });

  it('delivers a handler subscribed twice twice, and one removal takes away only its own subscription', () => {
    const router = new LiveRouter();
    const handler = jest.fn();
    const removeFirst = router.add('live.identity.tokens.u1', handler);
    const removeSecond = router.add('live.identity.tokens.u1', handler);
    expect(router.handlersFor('live.identity.tokens.u1')).toHaveLength(2);
    removeFirst();
    removeFirst();
    expect(router.handlersFor('live.identity.tokens.u1')).toHaveLength(1);
    removeSecond();
    expect(router.handlersFor('live.identity.tokens.u1')).toEqual([]);
  });
});
