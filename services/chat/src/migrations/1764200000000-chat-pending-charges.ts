import { createPendingChargesTable } from '@app/kit';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Charges asked of identity before the work they pay for is recorded (refunded if it never is). */
export class ChatPendingCharges1764200000000 implements MigrationInterface {
  name = 'ChatPendingCharges1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await createPendingChargesTable(queryRunner, 'chat');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "chat"."pending_charges"');
  }
}
