import type { SqlSession } from '@app/kit';
import { DHASH_MAX_DISTANCE, type PictureHashes, dhashToSql, isDistinctive } from './picture-hash';

/** What a moderator decision changes; each is ordered on its own (a rating change does not undo a hide). */
export type ModerationAspect = 'state' | 'rating' | 'suspension';

export interface BlockedMatch {
  imageId: string;
  /** `sha256` for the very same file, otherwise `dhash:<distance>`. */
  evidence: string;
}

/** The blocklist of removed pictures, suspended members, and the last moderator decision applied to each subject. */
export class ModerationRepository {
  constructor(private readonly session: SqlSession) {}

  /** The blocked picture these hashes match: the same file, or (for a picture with detail) a near-identical dHash. */
  async findBlocked(hashes: PictureHashes): Promise<BlockedMatch | null> {
    const dhash = isDistinctive(hashes.dhash) ? dhashToSql(hashes.dhash) : null;
    const rows = await this.session.query<{ image_id: string; same_file: boolean; distance: number | null }>(
      `SELECT "image_id", "sha256" = $1 AS "same_file",
         bit_count(("dhash" # $2::bigint)::bit(64))::int AS "distance"
       FROM "media"."blocked_pictures"
       WHERE "sha256" = $1 OR ($2::bigint IS NOT NULL AND bit_count(("dhash" # $2::bigint)::bit(64)) <= $3)
       ORDER BY "same_file" DESC, "distance" NULLS LAST LIMIT 1`,
      [hashes.sha256, dhash, DHASH_MAX_DISTANCE],
    );
    const row = rows[0];
    if (!row) return null;
    return { imageId: row.image_id, evidence: row.same_file ? 'sha256' : `dhash:${row.distance}` };
  }

  /** A plain picture's dHash is not kept: it would match every other plain picture. Blocking again changes nothing. */
  async block(imageId: string, hashes: PictureHashes, auditId: string): Promise<void> {
    await this.session.execute(
      `INSERT INTO "media"."blocked_pictures" ("image_id", "sha256", "dhash", "audit_id") VALUES ($1, $2, $3::bigint, $4)
       ON CONFLICT ("image_id") DO NOTHING`,
      [imageId, hashes.sha256, isDistinctive(hashes.dhash) ? dhashToSql(hashes.dhash) : null, auditId],
    );
  }

  async unblock(imageId: string): Promise<void> {
    await this.session.execute(`DELETE FROM "media"."blocked_pictures" WHERE "image_id" = $1`, [imageId]);
  }

  /** Images generated while their owner is suspended start out of public view too. */
  async setMemberSuspended(userId: string, suspended: boolean): Promise<void> {
    if (suspended) {
      await this.session.execute(`INSERT INTO "media"."suspended_members" ("user_id") VALUES ($1) ON CONFLICT DO NOTHING`, [userId]);
    } else {
      await this.session.execute(`DELETE FROM "media"."suspended_members" WHERE "user_id" = $1`, [userId]);
    }
  }

  /**
   * Records that a decision of `occurredAt` is being applied; false when a later one already was. JetStream
   * redelivers a failed event after the ones behind it, so an old hide must not undo a newer restore.
   */
  async markApplied(subjectId: string, aspect: ModerationAspect, occurredAt: string): Promise<boolean> {
    const rows = await this.session.query(
      `INSERT INTO "media"."moderation_marks" ("subject_id", "aspect", "occurred_at") VALUES ($1, $2, $3)
       ON CONFLICT ("subject_id", "aspect") DO UPDATE SET "occurred_at" = EXCLUDED."occurred_at"
       WHERE "moderation_marks"."occurred_at" <= EXCLUDED."occurred_at"
       RETURNING "subject_id"`,
      [subjectId, aspect, occurredAt],
    );
    return rows.length > 0;
  }
}
