import type { SqlSession } from '@app/kit';
import type { SelfAiPhoto } from '@app/schema';

export interface PhotoRow {
  id: string;
  user_id: string;
  format: 'jpeg' | 'png';
  created_at: Date;
}

export interface NewPhoto {
  id: string;
  userId: string;
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  byteSize: number;
  attestedAt: Date;
}

export const toPhoto = (row: PhotoRow): SelfAiPhoto => ({
  id: row.id,
  createdAt: new Date(row.created_at).toISOString(),
  format: row.format,
});

export class PhotosRepository {
  constructor(private readonly session: SqlSession) {}

  /** The attestation columns only accept true: a photo without the member's word cannot be stored. */
  async insert(photo: NewPhoto): Promise<PhotoRow> {
    const rows = await this.session.query<PhotoRow>(
      `INSERT INTO "media"."self_ai_photos" ("id", "user_id", "format", "width", "height", "byte_size", "attested_of_self", "attested_adult", "attested_at")
       VALUES ($1, $2, $3, $4, $5, $6, true, true, $7) RETURNING "id", "user_id", "format", "created_at"`,
      [photo.id, photo.userId, photo.format, photo.width, photo.height, photo.byteSize, photo.attestedAt],
    );
    return rows[0]!;
  }

  listByOwner(userId: string): Promise<PhotoRow[]> {
    return this.session.query<PhotoRow>(
      `SELECT "id", "user_id", "format", "created_at" FROM "media"."self_ai_photos" WHERE "user_id" = $1 ORDER BY "created_at" DESC, "id" DESC`,
      [userId],
    );
  }

  async findOwned(photoId: string, userId: string): Promise<PhotoRow | null> {
    const rows = await this.session.query<PhotoRow>(
      `SELECT "id", "user_id", "format", "created_at" FROM "media"."self_ai_photos" WHERE "id" = $1 AND "user_id" = $2`,
      [photoId, userId],
    );
    return rows[0] ?? null;
  }

  async delete(photoId: string, userId: string): Promise<PhotoRow | null> {
    const rows = await this.session.query<PhotoRow>(
      `DELETE FROM "media"."self_ai_photos" WHERE "id" = $1 AND "user_id" = $2 RETURNING "id", "user_id", "format", "created_at"`,
      [photoId, userId],
    );
    return rows[0] ?? null;
  }

  /** Makes `avatarId` the member's profile picture; answers the one it replaced, if any. */
  async replaceAvatar(userId: string, avatarId: string): Promise<string | null> {
    const rows = await this.session.query<{ previous: string | null }>(
      `WITH "before" AS (SELECT "avatar_id" FROM "media"."avatars" WHERE "user_id" = $1 FOR UPDATE),
       "upsert" AS (
         INSERT INTO "media"."avatars" ("user_id", "avatar_id") VALUES ($1, $2)
         ON CONFLICT ("user_id") DO UPDATE SET "avatar_id" = EXCLUDED."avatar_id", "updated_at" = now()
       )
       SELECT (SELECT "avatar_id" FROM "before") AS "previous"`,
      [userId, avatarId],
    );
    return rows[0]?.previous ?? null;
  }
}
