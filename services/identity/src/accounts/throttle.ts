import type { Database } from '@app/kit';
import { AppError } from '@app/schema';

export interface ThrottleRule {
  limit: number;
  windowMs: number;
}

/** Fixed-window counters in the database, so every identity instance sees the same count. */
export class Throttle {
  constructor(
    private readonly db: Database,
    private readonly clock: () => Date,
  ) {}

  /** Throws RATE_LIMITED (with retryAfterSeconds) when `key` has reached its limit in the current window. */
  async assertAllowed(key: string, rule: ThrottleRule, message: string): Promise<void> {
    const now = this.clock();
    const rows: { hits: number; window_started_at: Date }[] = await this.db.manager.query(
      `SELECT "hits", "window_started_at" FROM "identity"."auth_throttle" WHERE "key" = $1`,
      [key],
    );
    const row = rows[0];
    if (!row) return;
    const windowEnds = new Date(row.window_started_at).getTime() + rule.windowMs;
    if (windowEnds > now.getTime() && row.hits >= rule.limit) {
      throw new AppError('RATE_LIMITED', message, { retryAfterSeconds: Math.ceil((windowEnds - now.getTime()) / 1000) });
    }
  }

  async hit(key: string, rule: ThrottleRule): Promise<void> {
    const now = this.clock();
    const windowFloor = new Date(now.getTime() - rule.windowMs);
    await this.db.manager.query(
      `INSERT INTO "identity"."auth_throttle" ("key", "window_started_at", "hits") VALUES ($1, $2, 1)
       ON CONFLICT ("key") DO UPDATE SET
         "hits" = CASE WHEN "auth_throttle"."window_started_at" <= $3 THEN 1 ELSE "auth_throttle"."hits" + 1 END,
         "window_started_at" = CASE WHEN "auth_throttle"."window_started_at" <= $3 THEN $2 ELSE "auth_throttle"."window_started_at" END`,
      [key, now, windowFloor],
    );
  }

  async clear(key: string): Promise<void> {
    await this.db.manager.query(`DELETE FROM "identity"."auth_throttle" WHERE "key" = $1`, [key]);
  }
}
