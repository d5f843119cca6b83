import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Achievements a member has earned: one row each, kept even if the counter that earned it falls later. */
export class IdentityAchievements1765300000000 implements MigrationInterface {
  name = 'IdentityAchievements1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."achievements" (
      "user_id" uuid NOT NULL REFERENCES "identity"."users" ("id") ON DELETE CASCADE,
      "key" text NOT NULL,
      "earned_at" timestamptz NOT NULL,
      PRIMARY KEY ("user_id", "key")
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "identity"."achievements"`);
  }
}
