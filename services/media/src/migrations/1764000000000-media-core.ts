import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Generation jobs (with leases), images (renditions, placeholder, visibility), likes, and the prompt search index. */
export class MediaCore1764000000000 implements MigrationInterface {
  name = 'MediaCore1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "media"."generation_jobs" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "status" text NOT NULL CHECK ("status" IN ('queued', 'running', 'storing', 'done', 'failed', 'cancelled')),
      "progress" real,
      "prompt" text NOT NULL,
      "size" text NOT NULL,
      "quality" text NOT NULL,
      "style" text NOT NULL,
      "provider" text NOT NULL,
      "model" text NOT NULL,
      "is_demo" boolean NOT NULL,
      "debit_key" text NOT NULL,
      "attempts" integer NOT NULL DEFAULT 0,
      "available_at" timestamptz NOT NULL DEFAULT now(),
      "lease_owner" text,
      "lease_expires_at" timestamptz,
      "cancel_requested" boolean NOT NULL DEFAULT false,
      "image_id" uuid,
      "error_code" text,
      "error_message" text,
      "refund_due" boolean NOT NULL DEFAULT false,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      "finished_at" timestamptz
    )`);
    await queryRunner.query(
      `CREATE INDEX "generation_jobs_pending" ON "media"."generation_jobs" ("available_at") WHERE "status" = 'queued'`,
    );
    await queryRunner.query(
      `CREATE INDEX "generation_jobs_leased" ON "media"."generation_jobs" ("lease_expires_at") WHERE "status" IN ('running', 'storing')`,
    );
    await queryRunner.query(`CREATE INDEX "generation_jobs_refund_due" ON "media"."generation_jobs" ("updated_at") WHERE "refund_due"`);
    await queryRunner.query(`CREATE INDEX "generation_jobs_owner" ON "media"."generation_jobs" ("user_id", "created_at" DESC)`);

    await queryRunner.query(`CREATE TABLE "media"."images" (
      "id" uuid PRIMARY KEY,
      "user_id" uuid NOT NULL,
      "job_id" uuid UNIQUE,
      "prompt" text NOT NULL,
      "model" text NOT NULL,
      "provider" text NOT NULL,
      "is_demo" boolean NOT NULL,
      "size" text NOT NULL,
      "quality" text NOT NULL,
      "style" text NOT NULL,
      "width" integer NOT NULL,
      "height" integer NOT NULL,
      "placeholder" text NOT NULL,
      "renditions" jsonb NOT NULL DEFAULT '[]',
      "byte_size" integer NOT NULL,
      "is_public" boolean NOT NULL DEFAULT false,
      "likes" integer NOT NULL DEFAULT 0 CHECK ("likes" >= 0),
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "images_owner_newest" ON "media"."images" ("user_id", "created_at" DESC, "id" DESC)`);
    await queryRunner.query(`CREATE INDEX "images_public_newest" ON "media"."images" ("created_at" DESC, "id" DESC) WHERE "is_public"`);
    await queryRunner.query(
      `CREATE INDEX "images_public_liked" ON "media"."images" ("likes" DESC, "created_at" DESC, "id" DESC) WHERE "is_public"`,
    );
    // Substring search (ILIKE '%term%') stays indexed at any size through trigrams.
    const [trgm]: unknown[] = await queryRunner.query(`SELECT 1 FROM pg_available_extensions WHERE "name" = 'pg_trgm'`);
    if (trgm) {
      await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`);
      // No pending list: images arrive a few a second at most, and every search would otherwise scan the unmerged entries.
      await queryRunner.query(
        `CREATE INDEX "images_prompt_trgm" ON "media"."images" USING gin ("prompt" public.gin_trgm_ops) WITH (fastupdate = off)`,
      );
    }
    await queryRunner.query(`CREATE TABLE "media"."image_likes" (
      "image_id" uuid NOT NULL REFERENCES "media"."images" ("id") ON DELETE CASCADE,
      "user_id" uuid NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY ("image_id", "user_id")
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "media"."image_likes"`);
    await queryRunner.query(`DROP TABLE "media"."images"`);
    await queryRunner.query(`DROP TABLE "media"."generation_jobs"`);
  }
}
