import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Personal access tokens for third-party clients: stored as SHA-256, never as the secret. */
export class IdentityAccessTokens1765100000000 implements MigrationInterface {
  name = 'IdentityAccessTokens1765100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."access_tokens" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL REFERENCES "identity"."users" ("id") ON DELETE CASCADE,
      "name" text NOT NULL,
      "scopes" text[] NOT NULL CHECK ("scopes" <@ ARRAY['read', 'chat', 'generate']::text[] AND cardinality("scopes") > 0),
      "token_hash" text NOT NULL UNIQUE,
      "prefix" text NOT NULL,
      "created_at" timestamptz NOT NULL,
      "last_used_at" timestamptz,
      "expires_at" timestamptz,
      "revoked_at" timestamptz
    )`);
    await queryRunner.query(`CREATE INDEX "access_tokens_user" ON "identity"."access_tokens" ("user_id", "created_at" DESC)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."access_tokens"`);
  }
}
