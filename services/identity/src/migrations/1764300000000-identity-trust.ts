import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Roles, suspensions, age assurance and rating preferences on members; the moderation queue, notices and audit log. */
export class IdentityTrust1764300000000 implements MigrationInterface {
  name = 'IdentityTrust1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."users"
      ADD COLUMN "role" text NOT NULL DEFAULT 'member' CHECK ("role" IN ('member', 'moderator', 'admin')),
      ADD COLUMN "suspended_at" timestamptz,
      ADD COLUMN "rating_preferences" jsonb NOT NULL DEFAULT '{"suggestive":"blur","explicit":"blur"}',
      ADD COLUMN "age_assurance_level" text NOT NULL DEFAULT 'declared' CHECK ("age_assurance_level" IN ('declared', 'verified')),
      ADD COLUMN "age_assurance_method" text NOT NULL DEFAULT 'self_declaration',
      ADD COLUMN "age_checked_at" timestamptz`);
    await queryRunner.query(`CREATE TABLE "identity"."takedown_requests" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "reference" text NOT NULL UNIQUE,
      "kind" text NOT NULL CHECK ("kind" IN ('intimate_image', 'rights')),
      "requester_name" text NOT NULL,
      "requester_email" text NOT NULL,
      "signature" text NOT NULL,
      "requester_role" text NOT NULL,
      "content" text NOT NULL,
      "statement" text NOT NULL,
      "work" text,
      "created_at" timestamptz NOT NULL,
      "removal_deadline" timestamptz NOT NULL,
      "resolution_deadline" timestamptz NOT NULL
    )`);
    await queryRunner.query(`CREATE TABLE "identity"."moderation_cases" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "kind" text NOT NULL CHECK ("kind" IN ('report', 'takedown')),
      "reason" text NOT NULL,
      "details" text,
      "target_kind" text NOT NULL CHECK ("target_kind" IN ('image', 'character', 'reply')),
      "target_id" uuid NOT NULL,
      "target_owner_id" uuid NOT NULL,
      "snapshot" jsonb NOT NULL,
      "reporter_id" uuid REFERENCES "identity"."users" ("id") ON DELETE SET NULL,
      "takedown_id" uuid REFERENCES "identity"."takedown_requests" ("id"),
      "status" text NOT NULL DEFAULT 'open' CHECK ("status" IN ('open', 'resolved')),
      "created_at" timestamptz NOT NULL,
      "deadline_at" timestamptz NOT NULL,
      "resolve_by" timestamptz,
      "resolved_at" timestamptz,
      "resolved_by" uuid,
      "resolution" text
    )`);
    await queryRunner.query(`CREATE INDEX "moderation_cases_queue" ON "identity"."moderation_cases" ("status", "deadline_at", "id")`);
    await queryRunner.query(
      `CREATE INDEX "moderation_cases_target" ON "identity"."moderation_cases" ("target_id") WHERE "status" = 'open'`,
    );
    // A member's second report of the same item while the first is open adds nothing to the queue.
    await queryRunner.query(`CREATE UNIQUE INDEX "moderation_cases_one_open_report" ON "identity"."moderation_cases" ("reporter_id", "target_id")
      WHERE "status" = 'open' AND "kind" = 'report'`);
    await queryRunner.query(`CREATE TABLE "identity"."member_notices" (
      "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      "user_id" uuid NOT NULL REFERENCES "identity"."users" ("id") ON DELETE CASCADE,
      "kind" text NOT NULL,
      "target_kind" text NOT NULL,
      "target_id" uuid NOT NULL,
      "label" text NOT NULL,
      "reason" text NOT NULL,
      "rating" text,
      "created_at" timestamptz NOT NULL,
      "dismissed_at" timestamptz
    )`);
    await queryRunner.query(
      `CREATE INDEX "member_notices_user" ON "identity"."member_notices" ("user_id", "created_at") WHERE "dismissed_at" IS NULL`,
    );
    // No foreign keys: the log outlives the accounts and cases it names.
    await queryRunner.query(`CREATE TABLE "identity"."moderation_audit" (
      "seq" bigserial PRIMARY KEY,
      "id" uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
      "occurred_at" timestamptz NOT NULL,
      "actor_id" uuid,
      "actor_label" text NOT NULL,
      "action" text NOT NULL,
      "target_kind" text NOT NULL,
      "target_id" text NOT NULL,
      "case_id" uuid,
      "reason" text NOT NULL,
      "detail" text
    )`);
    // Append-only, enforced by the database itself: no code path (or operator with SQL) edits history unnoticed.
    await queryRunner.query(`CREATE FUNCTION "identity"."moderation_audit_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'moderation_audit is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
    $$`);
    await queryRunner.query(`CREATE TRIGGER "moderation_audit_no_change" BEFORE UPDATE OR DELETE ON "identity"."moderation_audit"
      FOR EACH ROW EXECUTE FUNCTION "identity"."moderation_audit_append_only"()`);
    await queryRunner.query(`CREATE TRIGGER "moderation_audit_no_truncate" BEFORE TRUNCATE ON "identity"."moderation_audit"
      FOR EACH STATEMENT EXECUTE FUNCTION "identity"."moderation_audit_append_only"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."moderation_audit"`);
    await queryRunner.query(`DROP FUNCTION "identity"."moderation_audit_append_only"()`);
    for (const table of ['member_notices', 'moderation_cases', 'takedown_requests']) {
      await queryRunner.query(`DROP TABLE "identity"."${table}"`);
    }
    await queryRunner.query(`ALTER TABLE "identity"."users" DROP COLUMN "role", DROP COLUMN "suspended_at",
      DROP COLUMN "rating_preferences", DROP COLUMN "age_assurance_level", DROP COLUMN "age_assurance_method", DROP COLUMN "age_checked_at"`);
  }
}
