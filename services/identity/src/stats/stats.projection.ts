import { type Bus, type Database, type Subscription, logger } from '@app/kit';
import { type EventEnvelope, chatEvents, mediaEvents } from '@app/schema';

type StatsColumn = 'chat_messages' | 'characters_created' | 'images_generated' | 'public_images' | 'total_likes';
interface StatsChange {
  column: StatsColumn;
  userId: string | null;
  delta: number;
}

const data = (event: EventEnvelope) => event.data as Record<string, unknown>;
const asId = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** Which dashboard counter each event moves, for whom, and which way. */
const COUNTERS: Record<string, (event: EventEnvelope) => StatsChange | StatsChange[] | null> = {
  [chatEvents.messageCreated.type]: (event) =>
    data(event).role === 'user' ? { column: 'chat_messages', userId: event.actorId, delta: 1 } : null,
  [chatEvents.characterCreated.type]: (event) => ({ column: 'characters_created', userId: event.actorId, delta: 1 }),
  [mediaEvents.imageGenerated.type]: (event) => ({ column: 'images_generated', userId: asId(data(event).userId), delta: 1 }),
  [mediaEvents.visibilityChanged.type]: (event) => ({
    column: 'public_images',
    userId: asId(data(event).userId),
    delta: data(event).isPublic ? 1 : -1,
  }),
  // Likes count toward the image owner's total, not the liker's.
  [mediaEvents.imageLiked.type]: (event) => ({ column: 'total_likes', userId: asId(data(event).ownerId), delta: 1 }),
  [mediaEvents.imageUnliked.type]: (event) => ({ column: 'total_likes', userId: asId(data(event).ownerId), delta: -1 }),
  // A deleted image takes its likes and its place among public images with it (images generated stays: it happened).
  [mediaEvents.imageDeleted.type]: (event) => [
    { column: 'total_likes', userId: asId(data(event).userId), delta: -Number(data(event).likes ?? 0) },
    ...(data(event).wasPublic ? [{ column: 'public_images' as const, userId: asId(data(event).userId), delta: -1 }] : []),
  ],
};

/** Feeds the dashboard counters from chat and media events, exactly once per event (ids recorded with the change). */
export async function startStatsProjection(bus: Bus, db: Database): Promise<Subscription> {
  return bus.consumeEvents({ subjects: Object.keys(COUNTERS), durableName: 'identity-stats', deliver: 'all' }, async (event) => {
    const changes = [COUNTERS[event.type]?.(event) ?? []].flat().filter((change) => change.userId && change.delta !== 0);
    if (changes.length === 0) return;
    await db.transaction(async (manager) => {
      const fresh: unknown[] = await manager.query(
        `INSERT INTO "identity"."processed_events" ("event_id") VALUES ($1) ON CONFLICT DO NOTHING RETURNING "event_id"`,
        [event.id],
      );
      if (fresh.length === 0) return;
      for (const { column, userId, delta } of changes) {
        await manager.query(
          `INSERT INTO "identity"."user_stats" ("user_id", "${column}")
           SELECT "id", GREATEST($2::int, 0) FROM "identity"."users" WHERE "id" = $1
           ON CONFLICT ("user_id") DO UPDATE SET "${column}" = GREATEST("user_stats"."${column}" + $2::int, 0)`,
          [userId, delta],
        );
      }
    });
    logger.debug({ type: event.type, eventId: event.id }, 'stats projected');
  });
}
