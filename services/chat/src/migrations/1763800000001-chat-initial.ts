import { createOutboxTable } from '@app/kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ChatInitial1763800000001 implements MigrationInterface {
  name = 'ChatInitial1763800000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxTable(queryRunner, 'chat');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "chat"."outbox"');
  }
}
