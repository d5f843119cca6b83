import { createOutboxTable } from '@app/kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdentityInitial1763800000000 implements MigrationInterface {
  name = 'IdentityInitial1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."users" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "email" text NOT NULL UNIQUE,
      "password_hash" text NOT NULL,
      "first_name" text,
      "last_name" text,
      "profile_image_url" text,
      "date_of_birth" date NOT NULL,
      "terms_accepted_at" timestamptz NOT NULL,
      "token_balance" integer NOT NULL DEFAULT 0 CHECK ("token_balance" >= 0),
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await queryRunner.query(`CREATE TABLE "identity"."sessions" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL REFERENCES "identity"."users" ("id") ON DELETE CASCADE,
      "token_hash" text NOT NULL UNIQUE,
      "created_at" timestamptz NOT NULL,
      "last_seen_at" timestamptz NOT NULL,
      "expires_at" timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE INDEX "sessions_user" ON "identity"."sessions" ("user_id")`);
    await queryRunner.query(`CREATE TABLE "identity"."token_ledger" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL REFERENCES "identity"."users" ("id") ON DELETE CASCADE,
      "kind" text NOT NULL CHECK ("kind" IN ('grant', 'debit', 'refund')),
      "delta" integer NOT NULL,
      "balance_after" integer NOT NULL,
      "reason" text NOT NULL,
      "idempotency_key" text NOT NULL UNIQUE,
      "refunded" boolean NOT NULL DEFAULT false,
      "created_at" timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE INDEX "token_ledger_user" ON "identity"."token_ledger" ("user_id", "created_at")`);
    await queryRunner.query(`CREATE TABLE "identity"."quota_uses" (
      "idempotency_key" text PRIMARY KEY,
      "user_id" uuid NOT NULL REFERENCES "identity"."users" ("id") ON DELETE CASCADE,
      "kind" text NOT NULL,
      "period_start" date NOT NULL,
      "refunded" boolean NOT NULL DEFAULT false,
      "created_at" timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE INDEX "quota_uses_period" ON "identity"."quota_uses" ("user_id", "kind", "period_start")`);
    await queryRunner.query(`CREATE TABLE "identity"."auth_throttle" (
      "key" text PRIMARY KEY,
      "window_started_at" timestamptz NOT NULL,
      "hits" integer NOT NULL
    )`);
    await queryRunner.query(`CREATE TABLE "identity"."user_stats" (
      "user_id" uuid PRIMARY KEY REFERENCES "identity"."users" ("id") ON DELETE CASCADE,
      "images_generated" integer NOT NULL DEFAULT 0,
      "chat_messages" integer NOT NULL DEFAULT 0,
      "characters_created" integer NOT NULL DEFAULT 0,
      "stories_started" integer NOT NULL DEFAULT 0,
      "total_likes" integer NOT NULL DEFAULT 0,
      "public_images" integer NOT NULL DEFAULT 0
    )`);
    await createOutboxTable(queryRunner, 'identity');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['outbox', 'user_stats', 'auth_throttle', 'quota_uses', 'token_ledger', 'sessions', 'users']) {
      await queryRunner.query(`DROP TABLE "identity"."${table}"`);
    }
  }
}
