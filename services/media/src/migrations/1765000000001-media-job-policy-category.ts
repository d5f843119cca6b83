import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Which content rule refused a failed job (`blocked_hash`: the picture matches a removed one), so every edge can name it. */
export class MediaJobPolicyCategory1765000000001 implements MigrationInterface {
  name = 'MediaJobPolicyCategory1765000000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "media"."generation_jobs" ADD COLUMN "policy_category" text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "media"."generation_jobs" DROP COLUMN "policy_category"`);
  }
}
