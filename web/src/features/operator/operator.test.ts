import {
  canOperate,
  createEventFeed,
  eventFeedReducer,
  formatEventData,
  formatSince,
  groupByService,
  shortId,
  type EventFeed,
} from './operator';

describe('canOperate', () => {
  it('lets only admins in', () => {
    expect(canOperate('ADMIN')).toBe(true);
    expect(canOperate('MODERATOR')).toBe(false);
    expect(canOperate('MEMBER')).toBe(false);
    expect(canOperate(null)).toBe(false);
  });
});

describe('shortId', () => {
  it('keeps the first eight characters of a long id and leaves short ones alone', () => {
    expect(shortId('0c4b1b9e-5d1f-4c55-9a40-3f0d1b7f2e11')).toBe('0c4b1b9e');
    expect(shortId('abc')).toBe('abc');
  });
});

describe('groupByService', () => {
  const instance = (name: string, id: string, startedAt: string) => ({ name, id, startedAt });

  it('orders identity, chat and media first, then others by name, each oldest instance first', () => {
    const groups = groupByService([
      instance('media', 'm1', '2025-01-01T10:00:00Z'),
      instance('billing', 'b1', '2025-01-01T10:00:00Z'),
      instance('chat', 'c2', '2025-01-01T12:00:00Z'),
      instance('identity', 'i1', '2025-01-01T10:00:00Z'),
      instance('chat', 'c1', '2025-01-01T09:00:00Z'),
    ]);
    expect(groups.map((group) => [group.name, group.instances.map((each) => each.id)])).toEqual([
      ['identity', ['i1']],
      ['chat', ['c1', 'c2']],
      ['media', ['m1']],
      ['billing', ['b1']],
    ]);
  });

  it('has no groups when nothing answered', () => {
    expect(groupByService([])).toEqual([]);
  });
});

describe('formatSince', () => {
  const now = Date.parse('2025-06-01T12:00:00Z');

  it('says the largest whole unit, in the chosen language', () => {
    expect(formatSince('2025-06-01T11:55:30Z', now, 'en')).toBe('4 minutes ago');
    expect(formatSince('2025-06-01T09:00:00Z', now, 'en')).toBe('3 hours ago');
    expect(formatSince('2025-05-29T12:00:00Z', now, 'en')).toBe('3 days ago');
    expect(formatSince('2025-05-29T12:00:00Z', now, 'de')).toBe('vor 3 Tagen');
  });

  it('says "now" for an instance that just started, and never speaks of the future', () => {
    expect(formatSince('2025-06-01T12:00:00Z', now, 'en')).toBe('now');
    expect(formatSince('2025-06-01T12:00:05Z', now, 'en')).toBe('now');
  });
});

describe('formatEventData', () => {
  it('indents the fields and leaves markup as text', () => {
    expect(formatEventData({ userId: 'u1', note: '<img src=x onerror=alert(1)>' })).toBe(
      '{\n  "userId": "u1",\n  "note": "<img src=x onerror=alert(1)>"\n}',
    );
  });
});

describe('eventFeedReducer', () => {
  const LIMIT = 3;
  const run = (feed: EventFeed<number>, ...actions: Parameters<typeof eventFeedReducer<number>>[1][]) =>
    actions.reduce((current, action) => eventFeedReducer(current, action, LIMIT), feed);
  const receive = (...events: number[]) => events.map((event) => ({ type: 'received' as const, event }));

  it('shows the newest event first', () => {
    expect(run(createEventFeed(), ...receive(1, 2)).events).toEqual([2, 1]);
  });

  it('keeps at most the limit and counts the older events it let go', () => {
    const feed = run(createEventFeed(), ...receive(1, 2, 3, 4, 5));
    expect(feed.events).toEqual([5, 4, 3]);
    expect(feed.dropped).toBe(2);
  });

  it('holds events back while paused and shows them on resume, newest first', () => {
    const paused = run(createEventFeed(), ...receive(1), { type: 'pause' }, ...receive(2, 3));
    expect(paused.events).toEqual([1]);
    expect(paused.held).toEqual([3, 2]);
    const resumed = run(paused, { type: 'resume' });
    expect(resumed).toEqual({ events: [3, 2, 1], dropped: 0, paused: false, held: [] });
  });

  it('keeps a long pause within the limit too', () => {
    const feed = run(createEventFeed(), { type: 'pause' }, ...receive(1, 2, 3, 4), { type: 'resume' });
    expect(feed.events).toEqual([4, 3, 2]);
    expect(feed.dropped).toBe(1);
  });

  it('clears shown and held events and the dropped count, staying paused if it was', () => {
    const feed = run(createEventFeed(), ...receive(1, 2, 3, 4), { type: 'pause' }, ...receive(5), { type: 'clear' });
    expect(feed).toEqual({ events: [], dropped: 0, paused: true, held: [] });
  });
});
