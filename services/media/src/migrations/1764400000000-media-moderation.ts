import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ratings and moderation on images: the owner's rating (locked once a moderator changes it), the moderation
 * state, the owner's suspension, the picture's hashes, the blocklist of removed pictures, and which moderation
 * decision each image or member last had applied (so a redelivered older one cannot undo a newer one).
 */
export class MediaModeration1764400000000 implements MigrationInterface {
  name = 'MediaModeration1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "media"."images"
      ADD COLUMN "rating" text NOT NULL DEFAULT 'explicit' CONSTRAINT "images_rating_check" CHECK ("rating" IN ('safe', 'suggestive', 'explicit')),
      ADD COLUMN "rating_locked" boolean NOT NULL DEFAULT false,
      ADD COLUMN "moderation_state" text NOT NULL DEFAULT 'visible'
        CONSTRAINT "images_moderation_state_check" CHECK ("moderation_state" IN ('visible', 'hidden', 'removed')),
      ADD COLUMN "owner_suspended" boolean NOT NULL DEFAULT false,
      ADD COLUMN "sha256" text,
      ADD COLUMN "dhash" bigint`);
    // The public listings' indexes cover only what the public may see.
    await queryRunner.query(`DROP INDEX "media"."images_public_newest"`);
    await queryRunner.query(`DROP INDEX "media"."images_public_liked"`);
    const shown = `"is_public" AND "moderation_state" = 'visible' AND NOT "owner_suspended"`;
    await queryRunner.query(`CREATE INDEX "images_public_newest" ON "media"."images" ("created_at" DESC, "id" DESC) WHERE ${shown}`);
    await queryRunner.query(
      `CREATE INDEX "images_public_liked" ON "media"."images" ("likes" DESC, "created_at" DESC, "id" DESC) WHERE ${shown}`,
    );

    await queryRunner.query(`CREATE TABLE "media"."blocked_pictures" (
      "image_id" uuid PRIMARY KEY,
      "sha256" text NOT NULL,
      "dhash" bigint,
      "audit_id" uuid NOT NULL,
      "blocked_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "blocked_pictures_sha256" ON "media"."blocked_pictures" ("sha256")`);

    await queryRunner.query(`CREATE TABLE "media"."suspended_members" (
      "user_id" uuid PRIMARY KEY,
      "suspended_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE TABLE "media"."moderation_marks" (
      "subject_id" uuid NOT NULL,
      "aspect" text NOT NULL CONSTRAINT "moderation_marks_aspect_check" CHECK ("aspect" IN ('state', 'rating', 'suspension')),
      "occurred_at" timestamptz NOT NULL,
      PRIMARY KEY ("subject_id", "aspect")
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "media"."moderation_marks"`);
    await queryRunner.query(`DROP TABLE "media"."suspended_members"`);
    await queryRunner.query(`DROP TABLE "media"."blocked_pictures"`);
    await queryRunner.query(`DROP INDEX "media"."images_public_newest"`);
    await queryRunner.query(`DROP INDEX "media"."images_public_liked"`);
    await queryRunner.query(`CREATE INDEX "images_public_newest" ON "media"."images" ("created_at" DESC, "id" DESC) WHERE "is_public"`);
    await queryRunner.query(
      `CREATE INDEX "images_public_liked" ON "media"."images" ("likes" DESC, "created_at" DESC, "id" DESC) WHERE "is_public"`,
    );
    await queryRunner.query(`ALTER TABLE "media"."images"
      DROP COLUMN "rating", DROP COLUMN "rating_locked", DROP COLUMN "moderation_state",
      DROP COLUMN "owner_suspended", DROP COLUMN "sha256", DROP COLUMN "dhash"`);
  }
}
