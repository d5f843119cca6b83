import { createOutboxTable } from '@app/kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MediaInitial1763800000001 implements MigrationInterface {
  name = 'MediaInitial1763800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxTable(queryRunner, 'media');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "media"."outbox"');
  }
}
