import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type ContentRating, type PageWindow, chatRpc, encodePageCursor } from '@app/schema';
import { type TestTarget, testTargets } from '../../kit/test/test-infra';
import { createChatService } from '../src';
import { ScriptedProvider } from './scripted-provider';

jest.setTimeout(60_000);

const ALL_RATINGS: ContentRating[] = ['safe', 'suggestive', 'explicit'];

/** Rows as the listing should order them: newest first, and by id (descending) between rows of the same time. */
const listingOrder = (rows: { id: string; at: string }[]) =>
  [...rows].sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1)).map((row) => row.id);

/** The chat service's lists page by keyset in both directions, as the gateway calls them over the bus. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('chat paging on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      services: [createChatService({ provider: new ScriptedProvider(), sweepIntervalMs: 200, flushIntervalMs: 50 })],
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  const chatDb = () => platform.services.find((service) => service.name === 'chat')!.db;
  const meta = (userId: string) => ({ userId });

  /** Stores conversations last active at the given times (PostgreSQL timestamps, microseconds and ties included). */
  async function storeConversations(ownerId: string, times: string[]): Promise<{ id: string; at: string }[]> {
    const rows = times.map((at) => ({ id: randomUUID(), at }));
    for (const row of rows) {
      await chatDb().execute(
        `INSERT INTO "chat"."conversations" ("id", "owner_id", "title", "created_at", "updated_at") VALUES ($1, $2, 'Paged', $3, $3)`,
        [row.id, ownerId, row.at],
      );
    }
    return rows;
  }

  async function storeCharacter(ownerId: string, at: string, fields: { isPublic?: boolean; rating?: ContentRating; state?: string } = {}) {
    const id = randomUUID();
    await chatDb().execute(
      `INSERT INTO "chat"."characters" ("id", "owner_id", "name", "is_public", "rating", "moderation_state", "created_at", "updated_at")
       VALUES ($1, $2, 'Paged', $3, $4, $5, $6, $6)`,
      [id, ownerId, fields.isPublic ?? false, fields.rating ?? 'safe', fields.state ?? 'visible', at],
    );
    return { id, at };
  }

  const conversations = (userId: string, window: PageWindow) =>
    platform.bus.request(chatRpc.listConversations, { userId, ...window }, meta(userId));
  const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);

  // Two rows share a time (the id orders them), two are a microsecond apart (a millisecond cursor would merge them).
  const TIMES = [
    '2026-01-01 10:00:00.000001+00',
    '2026-01-01 10:00:00.000002+00',
    '2026-01-01 09:00:00+00',
    '2026-01-01 09:00:00+00',
    '2026-01-01 08:00:00+00',
  ];

  it('pages conversations forwards with first/after, most recently active first, with page info and the total', async () => {
    const owner = randomUUID();
    const expected = listingOrder(await storeConversations(owner, TIMES));
    await storeConversations(randomUUID(), ['2026-01-01 09:30:00+00']);

    const first = await conversations(owner, { first: 2 });
    expect(ids(first)).toEqual(expected.slice(0, 2));
    expect(first.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    expect(first.totalCount).toBe(5);
    expect([first.pageInfo.startCursor, first.pageInfo.endCursor]).toEqual([first.cursors[0], first.cursors[1]]);

    const second = await conversations(owner, { first: 2, after: first.pageInfo.endCursor });
    expect(ids(second)).toEqual(expected.slice(2, 4));
    expect(second.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });

    const third = await conversations(owner, { first: 2, after: second.pageInfo.endCursor });
    expect(ids(third)).toEqual(expected.slice(4));
    expect(third.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });

    // No page size: the whole list fits the default page.
    expect(ids(await conversations(owner, {}))).toEqual(expected);
  });

  it('pages conversations backwards with last/before, each page still in listing order', async () => {
    const owner = randomUUID();
    const expected = listingOrder(await storeConversations(owner, TIMES));

    const last = await conversations(owner, { last: 2 });
    expect(ids(last)).toEqual(expected.slice(3));
    expect(last.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });

    const middle = await conversations(owner, { last: 2, before: last.pageInfo.startCursor });
    expect(ids(middle)).toEqual(expected.slice(1, 3));
    expect(middle.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });

    const start = await conversations(owner, { last: 2, before: middle.pageInfo.startCursor });
    expect(ids(start)).toEqual(expected.slice(0, 1));
    expect(start.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    expect(start.totalCount).toBe(5);

    // Both cursors bound a window: what lies between them.
    const between = await conversations(owner, { first: 10, after: start.pageInfo.endCursor, before: last.pageInfo.startCursor });
    expect(ids(between)).toEqual(expected.slice(1, 3));
    expect(between.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it('a cursor still works once its conversation is deleted', async () => {
    const owner = randomUUID();
    const expected = listingOrder(await storeConversations(owner, TIMES));
    const first = await conversations(owner, { first: 2 });
    await chatDb().execute(`DELETE FROM "chat"."conversations" WHERE "id" = $1`, [expected[1]]);
    const next = await conversations(owner, { first: 2, after: first.pageInfo.endCursor });
    expect(ids(next)).toEqual(expected.slice(2, 4));
    expect(next.pageInfo.hasPreviousPage).toBe(true);
    expect(next.totalCount).toBe(4);
  });

  it("lists the owner's characters newest first, counted, leaving out ones a moderator removed", async () => {
    const owner = randomUUID();
    const kept = [
      await storeCharacter(owner, '2026-02-01 10:00:00+00'),
      await storeCharacter(owner, '2026-02-03 10:00:00+00'),
      await storeCharacter(owner, '2026-02-02 10:00:00+00'),
    ];
    await storeCharacter(owner, '2026-02-04 10:00:00+00', { state: 'removed' });
    const expected = listingOrder(kept);

    const first = await platform.bus.request(chatRpc.listCharacters, { userId: owner, first: 2 }, meta(owner));
    expect(ids(first)).toEqual(expected.slice(0, 2));
    expect(first.totalCount).toBe(3);
    const rest = await platform.bus.request(
      chatRpc.listCharacters,
      { userId: owner, first: 2, after: first.pageInfo.endCursor },
      meta(owner),
    );
    expect(ids(rest)).toEqual(expected.slice(2));
    expect(rest.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const back = await platform.bus.request(
      chatRpc.listCharacters,
      { userId: owner, last: 1, before: rest.pageInfo.startCursor },
      meta(owner),
    );
    expect(ids(back)).toEqual(expected.slice(1, 2));
    expect(back.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
  });

  it("pages public characters in the viewer's ratings, 8 by default, without a count", async () => {
    const owner = randomUUID();
    const viewer = randomUUID();
    const safe: { id: string; at: string }[] = [];
    for (let day = 10; day < 20; day++) safe.push(await storeCharacter(owner, `2030-03-${day} 10:00:00+00`, { isPublic: true }));
    const explicit = await storeCharacter(owner, '2030-03-25 10:00:00+00', { isPublic: true, rating: 'explicit' });
    await storeCharacter(owner, '2030-03-26 10:00:00+00', { isPublic: true, state: 'hidden' });
    await storeCharacter(owner, '2030-03-27 10:00:00+00');
    const publicPage = (ratings: ContentRating[], window: PageWindow) =>
      platform.bus.request(chatRpc.listPublicCharacters, { userId: viewer, ratings, ...window }, meta(viewer));

    const safeOnly = await publicPage(['safe'], {});
    expect(ids(safeOnly)).toEqual(listingOrder(safe).slice(0, 8));
    expect(safeOnly.totalCount).toBeNull();
    expect(safeOnly.pageInfo.hasNextPage).toBe(true);

    expect(ids(await publicPage(ALL_RATINGS, { first: 2 }))).toEqual([explicit.id, listingOrder(safe)[0]]);
    const oldest = await publicPage(['safe'], { last: 3 });
    expect(ids(oldest)).toEqual(listingOrder(safe).slice(7, 10));
    expect(oldest.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
  });

  it('refuses a malformed cursor, a page size out of 1-100, and first with last, as VALIDATION_FAILED', async () => {
    const owner = randomUUID();
    const refused = [
      { after: 'not-a-cursor' },
      { before: encodePageCursor(['yesterday', randomUUID()]) },
      { after: encodePageCursor([0, '2026-01-01 10:00:00+00', randomUUID()]) },
      { first: 0 },
      { last: 101 },
      { first: 2, last: 2 },
    ];
    for (const window of refused) {
      await expect(conversations(owner, window)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    await expect(
      platform.bus.request(chatRpc.listPublicCharacters, { userId: owner, ratings: ALL_RATINGS, after: '%%%' }, meta(owner)),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
