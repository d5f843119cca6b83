import type { SqlSession } from '@app/kit';

export type StatsColumn = 'chat_messages' | 'characters_created' | 'images_generated' | 'public_images' | 'total_likes';

export interface StatsRow {
  images_generated: number;
  chat_messages: number;
  characters_created: number;
  stories_started: number;
  total_likes: number;
  public_images: number;
}

/** The dashboard counters and the ids of the events already counted in them. */
export class StatsRepository {
  constructor(private readonly session: SqlSession) {}

  async find(userId: string): Promise<StatsRow | null> {
    const rows = await this.session.query<StatsRow>(
      `SELECT "images_generated", "chat_messages", "characters_created", "stories_started", "total_likes", "public_images"
       FROM "identity"."user_stats" WHERE "user_id" = $1`,
      [userId],
    );
    return rows[0] ?? null;
  }

  /** Records that an event has been counted; false when it already was. */
  async markProcessed(eventId: string): Promise<boolean> {
    const fresh = await this.session.query(
      `INSERT INTO "identity"."processed_events" ("event_id") VALUES ($1) ON CONFLICT DO NOTHING RETURNING "event_id"`,
      [eventId],
    );
    return fresh.length > 0;
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
