import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which moderator decision each character, reply or member last had applied, per aspect, so an older decision
 * redelivered after a newer one cannot undo it.
 */
export class ChatModerationMarks1765000000000 implements MigrationInterface {
  name = 'ChatModerationMarks1765000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "chat"."moderation_marks" (
      "subject_id" uuid NOT NULL,
      "aspect" text NOT NULL CONSTRAINT "moderation_marks_aspect_check" CHECK ("aspect" IN ('state', 'rating', 'suspension')),
      "occurred_at" timestamptz NOT NULL,
      PRIMARY KEY ("subject_id", "aspect")
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "chat"."moderation_marks"`);
  }
}
