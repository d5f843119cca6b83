import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A deleted account's ledger rows stay, under an anonymous id that names no member (decision 037), so the ledger no
 * longer references the users table.
 */
export class IdentityAccountErasure1766500000000 implements MigrationInterface {
  name = 'IdentityAccountErasure1766500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "identity"."token_ledger" DROP CONSTRAINT "token_ledger_user_id_fkey"`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Anonymised rows have no member to point to: they go before the reference comes back.
    await queryRunner.query(
      `DELETE FROM "identity"."token_ledger" l WHERE NOT EXISTS (SELECT 1 FROM "identity"."users" u WHERE u."id" = l."user_id")`,
    );
    await queryRunner.query(`ALTER TABLE "identity"."token_ledger"
      ADD CONSTRAINT "token_ledger_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "identity"."users" ("id") ON DELETE CASCADE`);
  }
}
