import { randomUUID } from 'node:crypto';
import { type EventStreamExtent, type EventStreamReader, identityService, rebuildStats } from '@app/identity';
import { Database } from '@app/kit';
import { type EventEnvelope, mediaEvents } from '@app/schema';
import { embeddedTarget } from '../../kit/test/test-infra';

jest.setTimeout(60_000);

/** A stream that holds what it is given, as one read; `firstSeq` above 1 says retention dropped its start. */
class HeldStream implements EventStreamReader {
  private isRead = false;

  constructor(
    private readonly events: EventEnvelope[],
    private readonly firstSeq: number,
  ) {}

  async read(handle: (event: EventEnvelope) => void): Promise<void> {
    if (this.isRead) return;
    this.isRead = true;
    this.events.forEach(handle);
  }

  async extent(): Promise<EventStreamExtent> {
    return { firstSeq: this.firstSeq, firstEventAt: this.events[0]?.occurredAt ?? null, createdAt: null };
  }
}

const imageGenerated = (userId: string, occurredAt: string): EventEnvelope => ({
  id: randomUUID(),
  type: mediaEvents.imageGenerated.type,
  version: 1,
  occurredAt,
  actorId: userId,
  data: { userId },
});

/** Retention's effect on a rebuild: a member older than the stream's first event keeps their counters unless told otherwise. */
describe('stats rebuild against a stream that lost its start', () => {
  let db: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const created = await embeddedTarget.create();
    cleanup = created.cleanup;
    db = await Database.open(created.infra, identityService);
  });
  afterAll(async () => {
    await db.close();
    await cleanup();
  });

  async function memberJoined(at: string, imagesGenerated: number): Promise<string> {
    const [{ id }] = await db.query<{ id: string }>(
      `INSERT INTO "identity"."users" ("email", "password_hash", "date_of_birth", "terms_accepted_at", "created_at")
       VALUES ($1, 'x', '1990-01-01', $2, $2) RETURNING "id"`,
      [`m${randomUUID().slice(0, 8)}@example.com`, at],
    );
    await db.execute(`INSERT INTO "identity"."user_stats" ("user_id", "images_generated") VALUES ($1, $2)`, [id!, imagesGenerated]);
    return id!;
  }
  const imagesOf = async (userId: string) =>
    (
      await db.query<{ images_generated: number }>(`SELECT "images_generated" FROM "identity"."user_stats" WHERE "user_id" = $1`, [userId])
    )[0]?.images_generated;

  it('keeps the counters of members who joined before the oldest event held, and says so; --replace-all rebuilds them', async () => {
    const veteran = await memberJoined('2026-01-01T00:00:00Z', 40);
    const newcomer = await memberJoined('2026-03-01T00:00:00Z', 5);
    const events = [
      imageGenerated(veteran, '2026-02-01T00:00:00Z'),
      imageGenerated(newcomer, '2026-03-02T00:00:00Z'),
      imageGenerated(newcomer, '2026-03-03T00:00:00Z'),
    ];

    const kept = await rebuildStats(db, new HeldStream(events, 120));
    expect(kept).toMatchObject({ streamComplete: false, membersBeforeStream: 1, keptMembers: 1, members: 1, eventsReplayed: 3 });
    expect(kept.changes).toEqual([{ userId: newcomer, counter: 'images_generated', from: 5, to: 2 }]);
    expect([await imagesOf(veteran), await imagesOf(newcomer)]).toEqual([40, 2]);

    const replaced = await rebuildStats(db, new HeldStream(events, 120), { replaceAll: true });
    expect(replaced).toMatchObject({ streamComplete: false, membersBeforeStream: 1, keptMembers: 0, members: 2 });
    expect([await imagesOf(veteran), await imagesOf(newcomer)]).toEqual([1, 2]);

    // A stream that still starts at its first event is complete, whoever joined when.
    const complete = await rebuildStats(db, new HeldStream(events, 1));
    expect(complete).toMatchObject({ streamComplete: true, membersBeforeStream: 0, changes: [] });
    // A repeated event (an outbox relayed twice past the duplicate window) counts once, as it does live.
    await rebuildStats(db, new HeldStream([...events, events[1]!], 1));
    expect(await imagesOf(newcomer)).toBe(2);
  });
});
