import { type Bus, type Subscription, logger } from '@app/kit';
import { type EventEnvelope, chatEvents, mediaEvents, storyEvents } from '@app/schema';
import type { IdentityStore } from '../identity.store';
import { awardAchievements } from './achievements';
import type { StatsColumn } from './stats.repository';

export interface StatsChange {
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
  [storyEvents.storyStarted.type]: (event) => ({ column: 'stories_started', userId: event.actorId, delta: 1 }),
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

/** The event types the counters are fed by. */
export const STATS_EVENT_TYPES = Object.keys(COUNTERS);

/** Which counters one event moves, for whom, and which way (none for an event that moves nothing). */
export const statsChangesOf = (event: EventEnvelope): StatsChange[] =>
  [COUNTERS[event.type]?.(event) ?? []].flat().filter((change) => change.userId && change.delta !== 0);

/**
 * Feeds the dashboard counters from chat and media events, exactly once per event (ids recorded with the change),
 * and records the achievements a change makes a member reach.
 */
export async function startStatsProjection(bus: Bus, store: IdentityStore, clock: () => Date = () => new Date()): Promise<Subscription> {
  return bus.consumeEvents({ subjects: STATS_EVENT_TYPES, durableName: 'identity-stats', deliver: 'all' }, async (event) => {
    const changes = statsChangesOf(event);
    if (changes.length === 0) return;
    await store.transaction(async (repositories, tx) => {
      if (!(await repositories.stats.markProcessed(event.id))) return;
      for (const { column, userId, delta } of changes) await repositories.stats.add(userId!, column, delta);
      for (const userId of new Set(changes.map((change) => change.userId!))) {
        await awardAchievements(repositories, tx, bus, userId, clock());
      }
    });
    logger.debug({ type: event.type, eventId: event.id }, 'stats projected');
  });
}

/** How long after the event stream stops delivering an event its id is still kept (the embedded log seals and deletes by the day). */
const PROCESSED_EVENTS_MARGIN_MS = 48 * 3_600_000;
const PRUNE_INTERVAL_MS = 3_600_000;

/**
 * Forgets counted event ids once the stream can no longer redeliver them: older than the stream's age limit
 * plus a margin. Runs at start and hourly; a failure is retried at the next run.
 */
export function startProcessedEventsPruning(store: IdentityStore, streamMaxAgeMs: number): Subscription {
  const keepMs = streamMaxAgeMs + PROCESSED_EVENTS_MARGIN_MS;
  let running: Promise<void> | null = null;
  const prune = () => {
    running ??= (async () => {
      let total = 0;
      for (let deleted = -1; deleted !== 0; ) {
        deleted = await store.run(({ stats }) => stats.pruneProcessed(keepMs));
        total += deleted;
      }
      if (total > 0) logger.info({ deleted: total }, 'forgot counted event ids the stream no longer holds');
    })()
      .catch((error: unknown) => logger.warn({ err: error }, 'pruning processed events failed; will retry'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  void prune();
  const timer = setInterval(() => void prune(), PRUNE_INTERVAL_MS);
  timer.unref();
  return {
    unsubscribe: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
