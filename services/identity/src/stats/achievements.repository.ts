import type { SqlSession } from '@app/kit';
import type { AchievementKey } from '@app/schema';

export interface EarnedRow {
  key: AchievementKey;
  earned_at: Date;
}

/** The achievements members have earned: recorded once each, never taken back. */
export class AchievementsRepository {
  constructor(private readonly session: SqlSession) {}

  async listEarned(userId: string): Promise<EarnedRow[]> {
    return this.session.query<EarnedRow>(`SELECT "key", "earned_at" FROM "identity"."achievements" WHERE "user_id" = $1`, [userId]);
  }

  /** Records the achievements not yet earned among `keys`; returns only those this call recorded. */
  async recordEarned(userId: string, keys: AchievementKey[], at: Date): Promise<EarnedRow[]> {
    if (keys.length === 0) return [];
    return this.session.query<EarnedRow>(
      `INSERT INTO "identity"."achievements" ("user_id", "key", "earned_at")
       SELECT u."id", k."key", $3 FROM "identity"."users" u, unnest($2::text[]) AS k ("key") WHERE u."id" = $1
       ON CONFLICT DO NOTHING RETURNING "key", "earned_at"`,
      [userId, keys, at],
    );
  }
}
