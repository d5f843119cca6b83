import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Characters, conversations and messages (with swipes and reply leases). */
export class ChatCore1763900000000 implements MigrationInterface {
  name = 'ChatCore1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "chat"."characters" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "owner_id" uuid NOT NULL,
      "name" text NOT NULL,
      "description" text,
      "traits" jsonb NOT NULL DEFAULT '[]',
      "personality_text" text,
      "is_public" boolean NOT NULL DEFAULT false,
      "scenario" text NOT NULL DEFAULT '',
      "greeting" text NOT NULL DEFAULT '',
      "example_dialogue" text NOT NULL DEFAULT '',
      "system_prompt" text NOT NULL DEFAULT '',
      "card" jsonb NOT NULL DEFAULT '{}',
      "has_avatar" boolean NOT NULL DEFAULT false,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "characters_owner" ON "chat"."characters" ("owner_id", "created_at" DESC)`);
    await queryRunner.query(`CREATE INDEX "characters_public" ON "chat"."characters" ("created_at" DESC) WHERE "is_public"`);
    await queryRunner.query(`CREATE TABLE "chat"."character_avatars" (
      "character_id" uuid PRIMARY KEY REFERENCES "chat"."characters" ("id") ON DELETE CASCADE,
      "content_type" text NOT NULL,
      "body" bytea NOT NULL
    )`);
    await queryRunner.query(`CREATE TABLE "chat"."conversations" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "owner_id" uuid NOT NULL,
      "title" text NOT NULL,
      "character_id" uuid REFERENCES "chat"."characters" ("id") ON DELETE SET NULL,
      "character_snapshot" jsonb,
      "summary" text,
      "summary_upto_seq" bigint,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "conversations_owner" ON "chat"."conversations" ("owner_id", "updated_at" DESC)`);
    await queryRunner.query(`CREATE TABLE "chat"."messages" (
      "id" uuid PRIMARY KEY,
      "seq" bigserial NOT NULL UNIQUE,
      "conversation_id" uuid NOT NULL REFERENCES "chat"."conversations" ("id") ON DELETE CASCADE,
      "owner_id" uuid NOT NULL,
      "role" text NOT NULL CHECK ("role" IN ('user', 'assistant')),
      "content" text NOT NULL,
      "status" text NOT NULL CHECK ("status" IN ('complete', 'streaming', 'failed', 'cancelled')),
      "model" text,
      "error_code" text,
      "swipe_index" integer NOT NULL DEFAULT 0,
      "swipes" jsonb NOT NULL DEFAULT '[]',
      "debit_key" text,
      "lease_until" timestamptz,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE INDEX "messages_conversation" ON "chat"."messages" ("conversation_id", "seq" DESC)`);
    await queryRunner.query(`CREATE INDEX "messages_owner_recent" ON "chat"."messages" ("owner_id", "updated_at" DESC)`);
    await queryRunner.query(`CREATE INDEX "messages_streaming" ON "chat"."messages" ("lease_until") WHERE "status" = 'streaming'`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "chat"."messages"');
    await queryRunner.query('DROP TABLE "chat"."conversations"');
    await queryRunner.query('DROP TABLE "chat"."character_avatars"');
    await queryRunner.query('DROP TABLE "chat"."characters"');
  }
}
