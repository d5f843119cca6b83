import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Event ids a projection has applied, so a redelivered event counts once. */
export class IdentityProcessedEvents1763900000001 implements MigrationInterface {
  name = 'IdentityProcessedEvents1763900000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "identity"."processed_events" (
      "event_id" uuid PRIMARY KEY,
      "processed_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "identity"."processed_events"');
  }
}
