import { type Bus, type Database, type Subscription, logger } from '@app/kit';
import { type EventEnvelope, chatEvents } from '@app/schema';

/** Which dashboard counter each event moves. */
const COUNTERS: Record<string, (event: EventEnvelope) => 'chat_messages' | 'characters_created' | null> = {
  [chatEvents.messageCreated.type]: (event) => ((event.data as { role?: string }).role === 'user' ? 'chat_messages' : null),
  [chatEvents.characterCreated.type]: () => 'characters_created',
};

/** Feeds the dashboard counters from chat events, exactly once per event (ids recorded with the increment). */
export async function startStatsProjection(bus: Bus, db: Database): Promise<Subscription> {
  return bus.consumeEvents({ subjects: Object.keys(COUNTERS), durableName: 'identity-stats', deliver: 'all' }, async (event) => {
    const column = COUNTERS[event.type]?.(event);
    if (!column || !event.actorId) return;
    await db.transaction(async (manager) => {
      const fresh: unknown[] = await manager.query(
        `INSERT INTO "identity"."processed_events" ("event_id") VALUES ($1) ON CONFLICT DO NOTHING RETURNING "event_id"`,
        [event.id],
      );
      if (fresh.length === 0) return;
      await manager.query(
        `INSERT INTO "identity"."user_stats" ("user_id", "${column}")
         SELECT "id", 1 FROM "identity"."users" WHERE "id" = $1
         ON CONFLICT ("user_id") DO UPDATE SET "${column}" = "user_stats"."${column}" + 1`,
        [event.actorId],
      );
    });
    logger.debug({ type: event.type, eventId: event.id }, 'stats projected');
  });
}
