import type { SqlSession } from '@app/kit';

/** Fixed-window counters, one row per key. */
export class ThrottleRepository {
  constructor(private readonly session: SqlSession) {}

  async find(key: string): Promise<{ hits: number; window_started_at: Date } | null> {
    const rows = await this.session.query<{ hits: number; window_started_at: Date }>(
      `SELECT "hits", "window_started_at" FROM "identity"."auth_throttle" WHERE "key" = $1`,
      [key],
    );
    return rows[0] ?? null;
  }

  /** Counts a hit, starting a new window when the current one began at or before `windowFloor`. */
  async hit(key: string, now: Date, windowFloor: Date): Promise<void> {
    await this.session.execute(
      `INSERT INTO "identity"."auth_throttle" ("key", "window_started_at", "hits") VALUES ($1, $2, 1)
       ON CONFLICT ("key") DO UPDATE SET
         "hits" = CASE WHEN "auth_throttle"."window_started_at" <= $3 THEN 1 ELSE "auth_throttle"."hits" + 1 END,
         "window_started_at" = CASE WHEN "auth_throttle"."window_started_at" <= $3 THEN $2 ELSE "auth_throttle"."window_started_at" END`,
      [key, now, windowFloor],
    );
  }

  async clear(key: string): Promise<void> {
    await this.session.execute(`DELETE FROM "identity"."auth_throttle" WHERE "key" = $1`, [key]);
  }
}
