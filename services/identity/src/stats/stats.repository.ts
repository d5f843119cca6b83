import type { SqlSession } from '@app/kit';

/** The counters the chat (conversations, characters, stories) and media events move. */
export const EVENT_COUNTERS = [
  'chat_messages',
  'characters_created',
  'stories_started',
  'images_generated',
  'public_images',
  'total_likes',
] as const;
export type StatsColumn = (typeof EVENT_COUNTERS)[number];
export type EventCounters = Record<StatsColumn, number>;

export interface StatsRow {
  images_generated: number;
  chat_messages: number;
  characters_created: number;
  stories_started: number;
  total_likes: number;
  public_images: number;
}

const STATS_COLUMNS = `"images_generated", "chat_messages", "characters_created", "stories_started", "total_likes", "public_images"`;

/** The dashboard counters and the ids of the events already counted in them. */
export class StatsRepository {
  constructor(private readonly session: SqlSession) {}

  async find(userId: string): Promise<StatsRow | null> {
    const rows = await this.session.query<StatsRow>(`SELECT ${STATS_COLUMNS} FROM "identity"."user_stats" WHERE "user_id" = $1`, [userId]);
    return rows[0] ?? null;
  }

  /** Every member's counters (the rebuild compares them with what the stream gives). */
  async findAll(): Promise<Map<string, StatsRow>> {
    const rows = await this.session.query<StatsRow & { user_id: string }>(
      `SELECT "user_id", ${STATS_COLUMNS} FROM "identity"."user_stats"`,
    );
    return new Map(rows.map(({ user_id: userId, ...row }) => [userId, row]));
  }

  /** Records that an event has been counted; false when it already was. */
  async markProcessed(eventId: string): Promise<boolean> {
    const fresh = await this.session.query(
      `INSERT INTO "identity"."processed_events" ("event_id") VALUES ($1) ON CONFLICT DO NOTHING RETURNING "event_id"`,
      [eventId],
    );
    return fresh.length > 0;
  }

  /** Records many events as counted at once (a rebuild's replay), so none of them is counted again when redelivered. */
  async markAllProcessed(eventIds: string[]): Promise<void> {
    await this.session.execute(`INSERT INTO "identity"."processed_events" ("event_id") SELECT unnest($1::uuid[]) ON CONFLICT DO NOTHING`, [
      eventIds,
    ]);
  }

  /** Moves one counter, never below zero; a member who no longer exists is skipped. */
  async add(userId: string, column: StatsColumn, delta: number): Promise<void> {
    await this.session.execute(
      `INSERT INTO "identity"."user_stats" ("user_id", "${column}")
       SELECT "id", GREATEST($2::int, 0) FROM "identity"."users" WHERE "id" = $1
       ON CONFLICT ("user_id") DO UPDATE SET "${column}" = GREATEST("user_stats"."${column}" + $2::int, 0)`,
      [userId, delta],
    );
  }

  /** Sets the event-fed counters of these members outright (a rebuild); members who no longer exist are skipped. */
  async replaceEventCounters(counters: Map<string, EventCounters>): Promise<void> {
    if (counters.size === 0) return;
    const userIds = [...counters.keys()];
    const column = (name: StatsColumn) => userIds.map((userId) => counters.get(userId)![name]);
    const columns = EVENT_COUNTERS.map((name) => `"${name}"`).join(', ');
    await this.session.execute(
      `INSERT INTO "identity"."user_stats" ("user_id", ${columns})
       SELECT r."user_id", ${EVENT_COUNTERS.map((name) => `r."${name}"`).join(', ')}
       FROM unnest($1::uuid[], ${EVENT_COUNTERS.map((_name, index) => `$${index + 2}::int[]`).join(', ')}) AS r ("user_id", ${columns})
       JOIN "identity"."users" u ON u."id" = r."user_id"
       ON CONFLICT ("user_id") DO UPDATE SET ${EVENT_COUNTERS.map((name) => `"${name}" = EXCLUDED."${name}"`).join(', ')}`,
      [userIds, ...EVENT_COUNTERS.map(column)],
    );
  }

  /**
   * Holds off the live projection until the transaction ends: its next event waits to record itself, so a rebuild
   * swapping in its counters cannot interleave with it (and finds every event the projection has counted on the stream).
   */
  async lockForRebuild(): Promise<void> {
    await this.session.execute(
      `LOCK TABLE "identity"."processed_events", "identity"."user_stats", "identity"."achievements" IN SHARE ROW EXCLUSIVE MODE`,
    );
  }

  /** Forgets counted event ids older than `olderThanMs`, in batches; returns how many went. */
  async pruneProcessed(olderThanMs: number, batch = 5_000): Promise<number> {
    return this.session.execute(
      `DELETE FROM "identity"."processed_events" WHERE "event_id" IN (
         SELECT "event_id" FROM "identity"."processed_events"
         WHERE "processed_at" < now() - $1::bigint * interval '1 millisecond' LIMIT ${batch})`,
      [olderThanMs],
    );
  }
}
