import type { SqlSession } from '@app/kit';
import type { ExportPage, IdentityExportPart } from '@app/schema';
import { type PartQuery, memberTables, readPage, readTablesPage } from '@app/kit';

/** Tables whose member rows this module handles by name; any other table with a `user_id` column is exported and erased as found. */
const HANDLED_TABLES = new Set(['users', 'sessions', 'token_ledger', 'access_tokens', 'quota_uses', 'user_stats', 'member_notices']);

const byMember = (table: string, select = 'to_jsonb(t)'): PartQuery => ({
  table: `"identity"."${table}"`,
  select,
  where: 't."user_id" = $1',
  orderBy: ['created_at', 'id'],
});

/** What each part of the export reads. */
const EXPORT_PARTS: Record<Exclude<IdentityExportPart, 'other'>, PartQuery> = {
  account: { table: '"identity"."users"', select: `to_jsonb(t) - 'password_hash'`, where: 't."id" = $1', orderBy: ['id'] },
  ledger: byMember('token_ledger'),
  quotaUses: { ...byMember('quota_uses'), orderBy: ['created_at', 'idempotency_key'] },
  stats: { ...byMember('user_stats'), orderBy: ['user_id'] },
  accessTokens: byMember('access_tokens', `to_jsonb(t) - 'token_hash'`),
  notices: byMember('member_notices'),
  // Reports the member filed: what they reported and how it ended, not the moderators' notes or the evidence.
  reportsFiled: {
    table: '"identity"."moderation_cases"',
    select: `jsonb_build_object('id', t."id", 'reason', t."reason", 'details', t."details", 'targetKind', t."target_kind",
      'targetId', t."target_id", 'status', t."status", 'createdAt', t."created_at", 'resolvedAt', t."resolved_at")`,
    where: 't."reporter_id" = $1',
    orderBy: ['created_at', 'id'],
  },
};

/** Identity's side of a member's own data: the export, and the erasure's statements (run inside one transaction). */
export class AccountDataRepository {
  constructor(private readonly session: SqlSession) {}

  async findAccount(userId: string, lock = false): Promise<{ id: string; email: string; password_hash: string } | null> {
    const rows = await this.session.query<{ id: string; email: string; password_hash: string }>(
      `SELECT "id", "email", "password_hash" FROM "identity"."users" WHERE "id" = $1${lock ? ' FOR UPDATE' : ''}`,
      [userId],
    );
    return rows[0] ?? null;
  }

  /** A page of one part of the member's export; secrets (password and token hashes) are left out. */
  async exportPage(part: IdentityExportPart, userId: string, after: string[] | null, limit: number): Promise<ExportPage> {
    if (part === 'other') {
      const tables = await memberTables(this.session, 'identity', HANDLED_TABLES);
      return readTablesPage(this.session, 'identity', tables, `to_jsonb(t) - 'password_hash' - 'token_hash'`, userId, after, limit);
    }
    const { rows, next } = await readPage(this.session, EXPORT_PARTS[part], userId, after, limit);
    return { rows, next };
  }

  /** Tables added since this module was written that keep rows by member (achievements…). */
  otherMemberTables = () => memberTables(this.session, 'identity', HANDLED_TABLES);

  async deleteSessions(userId: string): Promise<string[]> {
    const rows = await this.session.query<{ token_hash: string }>(
      `DELETE FROM "identity"."sessions" WHERE "user_id" = $1 RETURNING "token_hash"`,
      [userId],
    );
    return rows.map((row) => row.token_hash);
  }

  async deleteAccessTokens(userId: string): Promise<string[]> {
    const rows = await this.session.query<{ token_hash: string }>(
      `DELETE FROM "identity"."access_tokens" WHERE "user_id" = $1 RETURNING "token_hash"`,
      [userId],
    );
    return rows.map((row) => row.token_hash);
  }

  /** Keeps the ledger's history (the platform's accounts must still add up) under an id that names no one. */
  async anonymiseLedger(userId: string, anonymousId: string): Promise<number> {
    return this.session.execute(
      `UPDATE "identity"."token_ledger" SET "user_id" = $2::uuid, "idempotency_key" = replace("idempotency_key", $1::text, $2::text)
       WHERE "user_id" = $1::uuid`,
      [userId, anonymousId],
    );
  }

  /**
   * Moderation cases about the member's content stay (evidence a takedown or a law-enforcement request may need), under the
   * anonymous id; reports the member filed lose their reporter.
   */
  async anonymiseCases(userId: string, anonymousId: string): Promise<void> {
    await this.session.execute(
      `UPDATE "identity"."moderation_cases" SET "target_owner_id" = $2::uuid, "snapshot" = replace("snapshot"::text, $1::text, $2::text)::jsonb
       WHERE "target_owner_id" = $1::uuid`,
      [userId, anonymousId],
    );
    await this.session.execute(`UPDATE "identity"."moderation_cases" SET "reporter_id" = NULL WHERE "reporter_id" = $1`, [userId]);
  }

  async deleteMemberRows(table: string, userId: string): Promise<number> {
    return this.session.execute(`DELETE FROM "identity"."${table}" WHERE "user_id" = $1`, [userId]);
  }

  /** Sign-in throttles are keyed by e-mail address. */
  async deleteThrottles(email: string): Promise<void> {
    await this.session.execute(`DELETE FROM "identity"."auth_throttle" WHERE "key" = $1`, [`login-account:${email}`]);
  }

  /** Relayed events that name the member; unrelayed ones must still go out, and go with the outbox's retention. */
  async deleteRelayedEvents(userId: string): Promise<number> {
    return this.session.execute(`DELETE FROM "identity"."outbox" WHERE "published_at" IS NOT NULL AND strpos("envelope"::text, $1) > 0`, [
      userId,
    ]);
  }

  async deleteUser(userId: string): Promise<boolean> {
    return (await this.session.execute(`DELETE FROM "identity"."users" WHERE "id" = $1`, [userId])) > 0;
  }
}
