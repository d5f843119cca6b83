import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Conversations become trees (decision 039): each message names its parent, a conversation the end of the branch
 * shown, and the versions of a reply (its swipes) become sibling messages, so nothing is ever overwritten. With them
 * come what a prompt is built from: sampler settings per character and conversation, a model per conversation, the
 * member's persona, and each reply's report of what made it into its prompt.
 */
export class ChatTreesAndPrompts1766100000000 implements MigrationInterface {
  name = 'ChatTreesAndPrompts1766100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "chat"."messages" ADD COLUMN "parent_id" uuid REFERENCES "chat"."messages" ("id") ON DELETE CASCADE`,
    );
    await queryRunner.query(`ALTER TABLE "chat"."messages" ADD COLUMN "edited" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "chat"."conversations" ADD COLUMN "active_leaf_id" uuid`);
    // Every message so far continued the one before it.
    await queryRunner.query(`UPDATE "chat"."messages" m SET "parent_id" = p."previous"
      FROM (SELECT "id", lag("id") OVER (PARTITION BY "conversation_id" ORDER BY "seq") AS "previous" FROM "chat"."messages") p
      WHERE p."id" = m."id" AND p."previous" IS NOT NULL`);
    await queryRunner.query(`UPDATE "chat"."conversations" c SET "active_leaf_id" =
      (SELECT m."id" FROM "chat"."messages" m WHERE m."conversation_id" = c."id" ORDER BY m."seq" DESC LIMIT 1)`);
    // The versions not shown become siblings of the one shown, in their order; a version still being written is dropped.
    await queryRunner.query(`INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status", "model",
        "error_code", "moderation_state", "created_at", "updated_at", "parent_id")
      SELECT gen_random_uuid(), m."conversation_id", m."owner_id", m."role", s."value" ->> 'content', s."value" ->> 'status',
        s."value" ->> 'model', s."value" ->> 'errorCode', m."moderation_state",
        COALESCE((s."value" ->> 'createdAt')::timestamptz, m."created_at"), m."updated_at", m."parent_id"
      FROM "chat"."messages" m CROSS JOIN LATERAL jsonb_array_elements(m."swipes") WITH ORDINALITY AS s("value", "position")
      WHERE jsonb_array_length(m."swipes") > 1 AND s."position" - 1 <> m."swipe_index" AND s."value" ->> 'status' <> 'streaming'
      ORDER BY m."seq", s."position"`);
    await queryRunner.query(`ALTER TABLE "chat"."messages" DROP COLUMN "swipes", DROP COLUMN "swipe_index"`);
    await queryRunner.query(`CREATE INDEX "messages_parent" ON "chat"."messages" ("parent_id", "seq")`);
    await queryRunner.query(`ALTER TABLE "chat"."messages" ADD COLUMN "prompt_report" jsonb`);
    await queryRunner.query(`ALTER TABLE "chat"."conversations" ADD COLUMN "sampling" jsonb, ADD COLUMN "model" text`);
    await queryRunner.query(`ALTER TABLE "chat"."characters" ADD COLUMN "sampling" jsonb`);
    await queryRunner.query(`CREATE TABLE "chat"."member_personas" (
      "owner_id" uuid PRIMARY KEY,
      "name" text NOT NULL DEFAULT '',
      "description" text NOT NULL DEFAULT '',
      "updated_at" timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "chat"."member_personas"`);
    await queryRunner.query(`ALTER TABLE "chat"."characters" DROP COLUMN "sampling"`);
    await queryRunner.query(`ALTER TABLE "chat"."conversations" DROP COLUMN "sampling", DROP COLUMN "model"`);
    await queryRunner.query(`ALTER TABLE "chat"."messages" DROP COLUMN "prompt_report"`);
    await queryRunner.query(`DROP INDEX "chat"."messages_parent"`);
    await queryRunner.query(`ALTER TABLE "chat"."messages" ADD COLUMN "swipes" jsonb NOT NULL DEFAULT '[]',
      ADD COLUMN "swipe_index" integer NOT NULL DEFAULT 0`);
    await queryRunner.query(`ALTER TABLE "chat"."conversations" DROP COLUMN "active_leaf_id"`);
    await queryRunner.query(`ALTER TABLE "chat"."messages" DROP COLUMN "edited", DROP COLUMN "parent_id"`);
  }
}
