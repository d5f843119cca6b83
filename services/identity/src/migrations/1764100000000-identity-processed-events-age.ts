import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Counted event ids are pruned by age, oldest first. */
export class IdentityProcessedEventsAge1764100000000 implements MigrationInterface {
  name = 'IdentityProcessedEventsAge1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "processed_events_processed_at" ON "identity"."processed_events" ("processed_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "identity"."processed_events_processed_at"');
  }
}
