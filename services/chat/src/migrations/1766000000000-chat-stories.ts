import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Interactive stories: a tree of passages per story (branches by parent), written and leased like chat replies. */
export class ChatStories1766000000000 implements MigrationInterface {
  name = 'ChatStories1766000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "chat"."stories" (
      "id" uuid PRIMARY KEY,
      "owner_id" uuid NOT NULL,
      "title" text NOT NULL,
      "premise" text NOT NULL,
      "genre" text,
      "tone" text,
      "language" text NOT NULL DEFAULT 'en',
      "characters" jsonb NOT NULL DEFAULT '[]',
      "current_passage_id" uuid,
      "passage_count" integer NOT NULL DEFAULT 0,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      "last_played_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "stories_owner_played" ON "chat"."stories" ("owner_id", "last_played_at" DESC, "id" DESC)`);
    await queryRunner.query(`CREATE TABLE "chat"."story_passages" (
      "id" uuid PRIMARY KEY,
      "seq" bigserial NOT NULL UNIQUE,
      "story_id" uuid NOT NULL REFERENCES "chat"."stories" ("id") ON DELETE CASCADE,
      "owner_id" uuid NOT NULL,
      "parent_id" uuid REFERENCES "chat"."story_passages" ("id") ON DELETE CASCADE,
      "depth" integer NOT NULL,
      "action_kind" text NOT NULL CHECK ("action_kind" IN ('opening', 'choice', 'action')),
      "action" text,
      "content" text NOT NULL DEFAULT '',
      "choices" jsonb NOT NULL DEFAULT '[]',
      "status" text NOT NULL CHECK ("status" IN ('complete', 'streaming', 'failed', 'cancelled')),
      "model" text,
      "error_code" text,
      "debit_key" text,
      "lease_until" timestamptz,
      "save_point" text,
      "moderation_state" text NOT NULL DEFAULT 'visible' CHECK ("moderation_state" IN ('visible', 'hidden', 'removed')),
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`ALTER TABLE "chat"."stories" ADD CONSTRAINT "stories_current_passage"
      FOREIGN KEY ("current_passage_id") REFERENCES "chat"."story_passages" ("id") ON DELETE SET NULL`);
    await queryRunner.query(`CREATE INDEX "story_passages_story" ON "chat"."story_passages" ("story_id", "seq")`);
    await queryRunner.query(`CREATE INDEX "story_passages_parent" ON "chat"."story_passages" ("parent_id")`);
    // The pace limit counts a member's passages of the last minute.
    await queryRunner.query(`CREATE INDEX "story_passages_owner_recent" ON "chat"."story_passages" ("owner_id", "created_at" DESC)`);
    await queryRunner.query(
      `CREATE INDEX "story_passages_streaming" ON "chat"."story_passages" ("lease_until") WHERE "status" = 'streaming'`,
    );
    // One passage of a story is written at a time, whatever two requests racing each other decide.
    await queryRunner.query(
      `CREATE UNIQUE INDEX "story_passages_one_streaming" ON "chat"."story_passages" ("story_id") WHERE "status" = 'streaming'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "chat"."stories" DROP CONSTRAINT "stories_current_passage"`);
    await queryRunner.query('DROP TABLE "chat"."story_passages"');
    await queryRunner.query('DROP TABLE "chat"."stories"');
  }
}
