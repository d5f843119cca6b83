import type { SqlSession } from '@app/kit';

/** What a moderator decision changes; each is ordered on its own (a rating change does not undo a hide). */
export type ModerationAspect = 'state' | 'rating' | 'suspension';

/** The last moderator decision applied to each character, reply and member. */
export class ModerationRepository {
  constructor(private readonly session: SqlSession) {}

  /**
   * Records that a decision of `occurredAt` is being applied; false when a later one already was. JetStream
   * redelivers a failed event after the ones behind it, so an old hide must not undo a newer restore.
   */
  async markApplied(subjectId: string, aspect: ModerationAspect, occurredAt: string): Promise<boolean> {
    const rows = await this.session.query(
      `INSERT INTO "chat"."moderation_marks" ("subject_id", "aspect", "occurred_at") VALUES ($1, $2, $3)
       ON CONFLICT ("subject_id", "aspect") DO UPDATE SET "occurred_at" = EXCLUDED."occurred_at"
       WHERE "moderation_marks"."occurred_at" <= EXCLUDED."occurred_at"
       RETURNING "subject_id"`,
      [subjectId, aspect, occurredAt],
    );
    return rows.length > 0;
  }
}
