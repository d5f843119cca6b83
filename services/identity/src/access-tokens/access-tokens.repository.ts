import type { SqlSession } from '@app/kit';
import type { AccessToken, TokenScope } from '@app/schema';
import { USER_COLUMNS, type UserRow } from '../accounts/accounts.repository';

interface AccessTokenRow {
  id: string;
  name: string;
  scopes: TokenScope[];
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

const toAccessToken = (row: AccessTokenRow): AccessToken => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  prefix: row.prefix,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: iso(row.last_used_at),
  expiresAt: iso(row.expires_at),
});

const TOKEN_COLUMNS = `t."id", t."name", t."scopes", t."prefix", t."created_at", t."last_used_at", t."expires_at"`;
/** Usable now: not revoked, not expired. */
const ACTIVE = `t."revoked_at" IS NULL AND (t."expires_at" IS NULL OR t."expires_at" > $2)`;

export interface NewAccessToken {
  userId: string;
  name: string;
  scopes: TokenScope[];
  tokenHash: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
}

export class AccessTokensRepository {
  constructor(private readonly session: SqlSession) {}

  /** Locks the member's row so two creations at once cannot both pass the per-member limit. */
  async countActiveForUpdate(userId: string, now: Date): Promise<number> {
    await this.session.query(`SELECT 1 FROM "identity"."users" WHERE "id" = $1 FOR UPDATE`, [userId]);
    const rows = await this.session.query<{ count: string }>(
      `SELECT count(*) AS "count" FROM "identity"."access_tokens" t WHERE t."user_id" = $1 AND ${ACTIVE}`,
      [userId, now],
    );
    return Number(rows[0]?.count ?? 0);
  }

  async insert(token: NewAccessToken): Promise<AccessToken> {
    const rows = await this.session.query<AccessTokenRow>(
      `INSERT INTO "identity"."access_tokens" AS t ("user_id", "name", "scopes", "token_hash", "prefix", "created_at", "expires_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${TOKEN_COLUMNS}`,
      [token.userId, token.name, token.scopes, token.tokenHash, token.prefix, token.createdAt, token.expiresAt],
    );
    return toAccessToken(rows[0]!);
  }

  /** The member's usable tokens, newest first. */
  async listActive(userId: string, now: Date): Promise<AccessToken[]> {
    const rows = await this.session.query<AccessTokenRow>(
      `SELECT ${TOKEN_COLUMNS} FROM "identity"."access_tokens" t WHERE t."user_id" = $1 AND ${ACTIVE} ORDER BY t."created_at" DESC, t."id"`,
      [userId, now],
    );
    return rows.map(toAccessToken);
  }

  /** Revokes one of the member's tokens; returns its hash (to end it on every gateway), or null when none matched. */
  async revoke(userId: string, tokenId: string, now: Date): Promise<string | null> {
    const rows = await this.session.query<{ token_hash: string }>(
      `UPDATE "identity"."access_tokens" SET "revoked_at" = $3
       WHERE "id" = $1 AND "user_id" = $2 AND "revoked_at" IS NULL RETURNING "token_hash"`,
      [tokenId, userId, now],
    );
    return rows[0]?.token_hash ?? null;
  }

  /** Revokes every token of a member (suspension); returns their hashes. */
  async revokeAllOf(userId: string, now: Date): Promise<string[]> {
    const rows = await this.session.query<{ token_hash: string }>(
      `UPDATE "identity"."access_tokens" SET "revoked_at" = $2 WHERE "user_id" = $1 AND "revoked_at" IS NULL RETURNING "token_hash"`,
      [userId, now],
    );
    return rows.map((row) => row.token_hash);
  }

  /** The member and scopes behind a usable token of an unsuspended member. */
  async findActiveByHash(
    tokenHash: string,
    now: Date,
  ): Promise<(UserRow & { token_id: string; scopes: TokenScope[]; last_used_at: Date | null }) | null> {
    const rows = await this.session.query<UserRow & { token_id: string; scopes: TokenScope[]; last_used_at: Date | null }>(
      `SELECT t."id" AS "token_id", t."scopes", t."last_used_at", ${USER_COLUMNS}
       FROM "identity"."access_tokens" t JOIN "identity"."users" u ON u."id" = t."user_id"
       WHERE t."token_hash" = $1 AND ${ACTIVE} AND u."suspended_at" IS NULL`,
      [tokenHash, now],
    );
    return rows[0] ?? null;
  }

  async touch(tokenId: string, now: Date): Promise<void> {
    await this.session.execute(`UPDATE "identity"."access_tokens" SET "last_used_at" = $2 WHERE "id" = $1`, [tokenId, now]);
  }
}
