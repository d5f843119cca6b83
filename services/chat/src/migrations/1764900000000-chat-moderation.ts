import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Ratings and moderators' decisions on characters and replies, and the suspension of a character's owner. */
export class ChatModeration1764900000000 implements MigrationInterface {
  name = 'ChatModeration1764900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Characters made before ratings existed take UNRATED_DEFAULT: a wrong label should hide, never expose.
    await queryRunner.query(`ALTER TABLE "chat"."characters"
      ADD COLUMN "rating" text NOT NULL DEFAULT 'explicit' CHECK ("rating" IN ('safe', 'suggestive', 'explicit')),
      ADD COLUMN "rating_locked" boolean NOT NULL DEFAULT false,
      ADD COLUMN "moderation_state" text NOT NULL DEFAULT 'visible' CHECK ("moderation_state" IN ('visible', 'hidden', 'removed')),
      ADD COLUMN "owner_suspended" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "chat"."messages"
      ADD COLUMN "moderation_state" text NOT NULL DEFAULT 'visible' CHECK ("moderation_state" IN ('visible', 'hidden', 'removed'))`);
    // The public list reads only what everyone may see; the rating is filtered among those rows.
    await queryRunner.query(`DROP INDEX "chat"."characters_public"`);
    await queryRunner.query(`CREATE INDEX "characters_public" ON "chat"."characters" ("created_at" DESC)
      WHERE "is_public" AND "moderation_state" = 'visible' AND NOT "owner_suspended"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "chat"."characters_public"`);
    await queryRunner.query(`CREATE INDEX "characters_public" ON "chat"."characters" ("created_at" DESC) WHERE "is_public"`);
    await queryRunner.query(`ALTER TABLE "chat"."messages" DROP COLUMN "moderation_state"`);
    await queryRunner.query(`ALTER TABLE "chat"."characters"
      DROP COLUMN "owner_suspended", DROP COLUMN "moderation_state", DROP COLUMN "rating_locked", DROP COLUMN "rating"`);
  }
}
