import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Members' own photos for Self-AI (with their attestation) and each member's current profile picture. */
export class MediaSelfAiPhotos1766600000000 implements MigrationInterface {
  name = 'MediaSelfAiPhotos1766600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "media"."self_ai_photos" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "format" text NOT NULL CONSTRAINT "self_ai_photos_format_check" CHECK ("format" IN ('jpeg', 'png')),
      "width" integer NOT NULL,
      "height" integer NOT NULL,
      "byte_size" integer NOT NULL,
      "attested_of_self" boolean NOT NULL CONSTRAINT "self_ai_photos_of_self_check" CHECK ("attested_of_self"),
      "attested_adult" boolean NOT NULL CONSTRAINT "self_ai_photos_adult_check" CHECK ("attested_adult"),
      "attested_at" timestamptz NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(
      `CREATE INDEX "self_ai_photos_owner_newest" ON "media"."self_ai_photos" ("user_id", "created_at" DESC, "id" DESC)`,
    );
    await queryRunner.query(`CREATE TABLE "media"."avatars" (
      "user_id" uuid PRIMARY KEY,
      "avatar_id" uuid NOT NULL,
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "media"."avatars"`);
    await queryRunner.query(`DROP TABLE "media"."self_ai_photos"`);
  }
}
