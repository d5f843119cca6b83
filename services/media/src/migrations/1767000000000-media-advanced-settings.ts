import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The advanced image settings (negative prompt, seed, steps, CFG scale, sampler) a member asked for, on the job,
 * and the ones the picture was drawn with (the seed actually used), on the image. NULL: none were given or recorded.
 */
export class MediaAdvancedSettings1767000000000 implements MigrationInterface {
  name = 'MediaAdvancedSettings1767000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "media"."generation_jobs" ADD COLUMN "advanced" jsonb`);
    await queryRunner.query(`ALTER TABLE "media"."images" ADD COLUMN "advanced" jsonb`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "media"."images" DROP COLUMN "advanced"`);
    await queryRunner.query(`ALTER TABLE "media"."generation_jobs" DROP COLUMN "advanced"`);
  }
}
