import type { SqlSession } from '@app/kit';
import type { AgeAssuranceLevel, RatingPreferences, Role, User } from '@app/schema';
import type { AgeCheck } from '../age-assurance/age-assurance';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  first_name: string | null;
  last_name: string | null;
  profile_image_url: string | null;
  created_at: Date;
  token_balance: number;
  role: Role;
  suspended_at: Date | null;
  rating_preferences: RatingPreferences;
  age_assurance_level: AgeAssuranceLevel;
  age_assurance_method: string;
  age_checked_at: Date | null;
}

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  profileImageUrl: row.profile_image_url,
  createdAt: new Date(row.created_at).toISOString(),
  tokens: row.token_balance,
  role: row.role,
  ratingPreferences: row.rating_preferences,
  ageAssurance: {
    level: row.age_assurance_level,
    method: row.age_assurance_method,
    // Self-declaration happened at sign-up.
    checkedAt: new Date(row.age_checked_at ?? row.created_at).toISOString(),
  },
});

export const USER_COLUMNS = `u."id", u."email", u."password_hash", u."first_name", u."last_name", u."profile_image_url", u."created_at", u."token_balance",
  u."role", u."suspended_at", u."rating_preferences", u."age_assurance_level", u."age_assurance_method", u."age_checked_at"`;

export interface NewUser {
  email: string;
  passwordHash: string;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string;
  termsAcceptedAt: Date;
  createdAt: Date;
  /** How the member's age is known at sign-up (self-declaration). */
  ageCheck: AgeCheck;
}

export class AccountsRepository {
  constructor(private readonly session: SqlSession) {}

  async findUserByEmail(email: string): Promise<UserRow | null> {
    const rows = await this.session.query<UserRow>(`SELECT ${USER_COLUMNS} FROM "identity"."users" u WHERE u."email" = $1`, [email]);
    return rows[0] ?? null;
  }

  async findUsersByIds(ids: string[]): Promise<UserRow[]> {
    return this.session.query<UserRow>(`SELECT ${USER_COLUMNS} FROM "identity"."users" u WHERE u."id" = ANY($1::uuid[])`, [ids]);
  }

  async findUserById(id: string): Promise<UserRow | null> {
    const rows = await this.session.query<UserRow>(`SELECT ${USER_COLUMNS} FROM "identity"."users" u WHERE u."id" = $1`, [id]);
    return rows[0] ?? null;
  }

  /** Every member's id and when they joined (a statistics rebuild writes for members only, and knows whose history the stream holds). */
  async listJoinDates(): Promise<{ id: string; created_at: Date }[]> {
    return this.session.query<{ id: string; created_at: Date }>(`SELECT "id", "created_at" FROM "identity"."users"`);
  }

  /** Changes only the given profile fields; returns the member as they now are, or null when they no longer exist. */
  async updateProfile(
    userId: string,
    changes: { firstName?: string | null; lastName?: string | null; profileImageUrl?: string | null },
  ): Promise<UserRow | null> {
    const columns = { firstName: 'first_name', lastName: 'last_name', profileImageUrl: 'profile_image_url' } as const;
    const fields = (Object.keys(columns) as (keyof typeof columns)[]).filter((field) => changes[field] !== undefined);
    const assignments = fields.map((field, index) => `"${columns[field]}" = $${index + 2}`);
    const rows = await this.session.query<UserRow>(
      fields.length > 0
        ? `UPDATE "identity"."users" u SET ${assignments.join(', ')} WHERE u."id" = $1 RETURNING ${USER_COLUMNS}`
        : `SELECT ${USER_COLUMNS} FROM "identity"."users" u WHERE u."id" = $1`,
      [userId, ...fields.map((field) => changes[field])],
    );
    return rows[0] ?? null;
  }

  /** Inserts the user; returns null when the e-mail is already registered. */
  async insertUser(user: NewUser): Promise<UserRow | null> {
    const rows = await this.session.query<UserRow>(
      `INSERT INTO "identity"."users" AS u ("email", "password_hash", "first_name", "last_name", "date_of_birth", "terms_accepted_at", "created_at",
         "age_assurance_level", "age_assurance_method", "age_checked_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT ("email") DO NOTHING RETURNING ${USER_COLUMNS}`,
      [
        user.email,
        user.passwordHash,
        user.firstName,
        user.lastName,
        user.dateOfBirth,
        user.termsAcceptedAt,
        user.createdAt,
        user.ageCheck.level,
        user.ageCheck.method,
        user.ageCheck.checkedAt,
      ],
    );
    return rows[0] ?? null;
  }

  async insertSession(userId: string, tokenHash: string, now: Date, expiresAt: Date): Promise<void> {
    await this.session.execute(
      `INSERT INTO "identity"."sessions" ("user_id", "token_hash", "created_at", "last_seen_at", "expires_at") VALUES ($1, $2, $3, $3, $4)`,
      [userId, tokenHash, now, expiresAt],
    );
  }

  async findSession(tokenHash: string): Promise<(UserRow & { session_id: string; last_seen_at: Date; expires_at: Date }) | null> {
    const rows = await this.session.query<UserRow & { session_id: string; last_seen_at: Date; expires_at: Date }>(
      `SELECT s."id" AS "session_id", s."last_seen_at", s."expires_at", ${USER_COLUMNS}
       FROM "identity"."sessions" s JOIN "identity"."users" u ON u."id" = s."user_id"
       WHERE s."token_hash" = $1 AND u."suspended_at" IS NULL`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  async touchSession(sessionId: string, now: Date): Promise<void> {
    await this.session.execute(`UPDATE "identity"."sessions" SET "last_seen_at" = $2 WHERE "id" = $1`, [sessionId, now]);
  }

  async deleteSession(tokenHash: string): Promise<boolean> {
    return (await this.session.execute(`DELETE FROM "identity"."sessions" WHERE "token_hash" = $1`, [tokenHash])) > 0;
  }

  /** Ends every session of the member; returns their token hashes so the gateways can drop them. */
  async deleteSessionsOf(userId: string): Promise<string[]> {
    const rows = await this.session.query<{ token_hash: string }>(
      `DELETE FROM "identity"."sessions" WHERE "user_id" = $1 RETURNING "token_hash"`,
      [userId],
    );
    return rows.map((row) => row.token_hash);
  }

  async setSuspended(userId: string, at: Date | null): Promise<void> {
    await this.session.execute(`UPDATE "identity"."users" SET "suspended_at" = $2 WHERE "id" = $1`, [userId, at]);
  }

  async setRole(userId: string, role: Role): Promise<void> {
    await this.session.execute(`UPDATE "identity"."users" SET "role" = $2 WHERE "id" = $1`, [userId, role]);
  }

  async setRatingPreferences(userId: string, preferences: RatingPreferences): Promise<UserRow | null> {
    const rows = await this.session.query<UserRow>(
      `UPDATE "identity"."users" u SET "rating_preferences" = $2::jsonb WHERE u."id" = $1 RETURNING ${USER_COLUMNS}`,
      [userId, JSON.stringify(preferences)],
    );
    return rows[0] ?? null;
  }

  async setAgeAssurance(userId: string, check: AgeCheck): Promise<void> {
    await this.session.execute(
      `UPDATE "identity"."users" SET "age_assurance_level" = $2, "age_assurance_method" = $3, "age_checked_at" = $4 WHERE "id" = $1`,
      [userId, check.level, check.method, check.checkedAt],
    );
  }

  async deleteSessionById(sessionId: string): Promise<void> {
    await this.session.execute(`DELETE FROM "identity"."sessions" WHERE "id" = $1`, [sessionId]);
  }
}
