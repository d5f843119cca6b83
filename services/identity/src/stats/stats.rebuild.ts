import type { Database } from '@app/kit';
import type { EventEnvelope } from '@app/schema';
import { openIdentityStore } from '../identity.store';
import { awardAchievements } from './achievements';
import { statsChangesOf } from './stats.projection';
import { EVENT_COUNTERS, type EventCounters, type StatsColumn, type StatsRow } from './stats.repository';

/** What the event stream holds now: the sequence and time of its oldest event, and when the stream itself was made. */
export interface EventStreamExtent {
  /** 1 while nothing has been dropped from the stream's start (retention drops the oldest first). */
  firstSeq: number;
  /** ISO time of the oldest event held; null when the stream holds none. */
  firstEventAt: string | null;
  /** ISO time the stream was created, when the transport knows it (JetStream does); null otherwise. */
  createdAt: string | null;
}

/** The event stream as a rebuild reads it: each `read` goes on from where the previous one stopped to the stream's end as of that call. */
export interface EventStreamReader {
  read(handle: (event: EventEnvelope) => void): Promise<void>;
  extent(): Promise<EventStreamExtent>;
}

export interface CounterChange {
  userId: string;
  counter: StatsColumn;
  from: number;
  to: number;
}

export interface StatsRebuildSummary {
  /** Members whose counters the rebuild set. */
  members: number;
  /** Events read from the stream, and those among them that moved a counter. */
  eventsRead: number;
  eventsReplayed: number;
  /** Every counter whose rebuilt figure differs from the live one. */
  changes: CounterChange[];
  /** Achievements the rebuilt counters reach that had not been earned (announced as they would be live). */
  achievementsAwarded: number;
  extent: EventStreamExtent;
  /** False when the stream no longer reaches back to the oldest member (retention dropped its start). */
  streamComplete: boolean;
  /** Members who joined before the stream's oldest event: their live counters were kept (unless `replaceAll`). */
  membersBeforeStream: number;
  keptMembers: number;
}

const ZERO: EventCounters = {
  chat_messages: 0,
  characters_created: 0,
  stories_started: 0,
  images_generated: 0,
  public_images: 0,
  total_likes: 0,
};
const ID_BATCH = 10_000;

/** The counters as the live projection computes them, event by event in stream order: counted once per id, never below zero. */
class CounterReplay {
  readonly counters = new Map<string, EventCounters>();
  readonly replayed = new Set<string>();
  eventsRead = 0;

  apply(event: EventEnvelope): void {
    this.eventsRead++;
    const changes = statsChangesOf(event);
    if (changes.length === 0 || this.replayed.has(event.id)) return;
    this.replayed.add(event.id);
    for (const { column, userId, delta } of changes) {
      const counters = this.counters.get(userId!) ?? { ...ZERO };
      counters[column] = Math.max(0, counters[column] + delta);
      this.counters.set(userId!, counters);
    }
  }
}

const liveCounters = (row: StatsRow | undefined): EventCounters =>
  row ? (Object.fromEntries(EVENT_COUNTERS.map((name) => [name, row[name]])) as EventCounters) : { ...ZERO };

/**
 * Replays the whole event stream into fresh counters and swaps them in, in one transaction that holds off the live
 * projection: inside it the stream is read on to its end (what arrived during the long read), so every event the
 * projection counted is replayed too, and the replayed ids are recorded so none is counted twice afterwards.
 * Achievements the rebuilt counters reach are recorded and announced; earned ones stay as they are. Members who joined
 * before the stream's oldest event, when retention has dropped its start, keep their live counters unless `replaceAll`.
 */
export async function rebuildStats(
  db: Database,
  stream: EventStreamReader,
  { replaceAll = false, clock = () => new Date() }: { replaceAll?: boolean; clock?: () => Date } = {},
): Promise<StatsRebuildSummary> {
  const store = openIdentityStore(db);
  const replay = new CounterReplay();
  await stream.read((event) => replay.apply(event));
  return store.transaction(async (repositories, tx) => {
    const { stats, accounts } = repositories;
    await stats.lockForRebuild();
    await stream.read((event) => replay.apply(event));
    const extent = await stream.extent();
    const members = await accounts.listJoinDates();
    const oldestMemberMs = members.reduce(
      (oldest, member) => Math.min(oldest, new Date(member.created_at).getTime()),
      Number.POSITIVE_INFINITY,
    );
    const createdAfterMembers = extent.createdAt !== null && Date.parse(extent.createdAt) > oldestMemberMs;
    const streamComplete = members.length === 0 || (extent.firstSeq <= 1 && !createdAfterMembers);
    const firstEventMs = extent.firstEventAt ? Date.parse(extent.firstEventAt) : Number.POSITIVE_INFINITY;
    const beforeStream = new Set(
      streamComplete ? [] : members.filter((member) => new Date(member.created_at).getTime() < firstEventMs).map((member) => member.id),
    );

    const live = await stats.findAll();
    const rebuilt = new Map<string, EventCounters>();
    const changes: CounterChange[] = [];
    for (const { id: userId } of members) {
      if (beforeStream.has(userId) && !replaceAll) continue;
      const counters = replay.counters.get(userId);
      if (!counters && !live.has(userId)) continue;
      const next = counters ?? { ...ZERO };
      const previous = liveCounters(live.get(userId));
      for (const counter of EVENT_COUNTERS) {
        if (previous[counter] !== next[counter]) changes.push({ userId, counter, from: previous[counter], to: next[counter] });
      }
      rebuilt.set(userId, next);
    }
    await stats.replaceEventCounters(rebuilt);
    const replayed = [...replay.replayed];
    for (let start = 0; start < replayed.length; start += ID_BATCH) await stats.markAllProcessed(replayed.slice(start, start + ID_BATCH));

    let achievementsAwarded = 0;
    const now = clock();
    for (const [userId, counters] of rebuilt) {
      if (Object.values(counters).some((value) => value > 0))
        achievementsAwarded += await awardAchievements(repositories, tx, null, userId, now);
    }
    return {
      members: rebuilt.size,
      eventsRead: replay.eventsRead,
      eventsReplayed: replay.replayed.size,
      changes,
      achievementsAwarded,
      extent,
      streamComplete,
      membersBeforeStream: beforeStream.size,
      keptMembers: replaceAll ? 0 : beforeStream.size,
    };
  });
}
