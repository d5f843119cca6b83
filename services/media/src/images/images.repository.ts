import type { SqlSession } from '@app/kit';
import type { Image, ImageCreator, ImageOrder, ImageSettings, Rendition } from '@app/schema';

export interface ImageRow {
  id: string;
  user_id: string;
  job_id: string | null;
  prompt: string;
  model: string;
  provider: string;
  is_demo: boolean;
  size: ImageSettings['size'];
  quality: ImageSettings['quality'];
  style: ImageSettings['style'];
  width: number;
  height: number;
  placeholder: string;
  renditions: Rendition[];
  byte_size: number;
  is_public: boolean;
  likes: number;
  created_at: Date;
  /** created_at as PostgreSQL prints it (microseconds kept), for exact cursors. */
  cursor_at: string;
  liked_by_me: boolean;
}

export type NewImage = Omit<ImageRow, 'is_public' | 'likes' | 'cursor_at' | 'liked_by_me'>;

export const toImage = (row: ImageRow, user: ImageCreator | null): Image => ({
  id: row.id,
  ownerId: row.user_id,
  prompt: row.prompt,
  model: row.model,
  isDemo: row.is_demo,
  isPublic: row.is_public,
  likes: row.likes,
  likedByMe: row.liked_by_me,
  createdAt: new Date(row.created_at).toISOString(),
  settings: { size: row.size, quality: row.quality, style: row.style },
  width: row.width,
  height: row.height,
  placeholder: row.placeholder,
  renditions: row.renditions,
  user,
});

/** Where one page of a listing starts: after this row, in the listing's order. */
export interface PageCursor {
  likes: number;
  at: string;
  id: string;
}

export interface PageQuery {
  /** Only this owner's images; otherwise only public ones. */
  ownerId: string | null;
  viewerId: string;
  search: string | null;
  order: ImageOrder;
  after: PageCursor | null;
  limit: number;
}

const COLUMNS = (viewer: string) => `i.*, i."created_at"::text AS "cursor_at",
  EXISTS (SELECT 1 FROM "media"."image_likes" l WHERE l."image_id" = i."id" AND l."user_id" = ${viewer}) AS "liked_by_me"`;

/** `%`, `_` and `\` in a search term match themselves. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (match) => `\\${match}`)}%`;

export class ImagesRepository {
  constructor(private readonly session: SqlSession) {}

  /** One page in the listing's order (newest first, or most liked then newest), `limit + 1` rows to tell if more follow. */
  async page(query: PageQuery): Promise<ImageRow[]> {
    const params: unknown[] = [query.viewerId];
    const where: string[] = [];
    if (query.ownerId) {
      params.push(query.ownerId);
      where.push(`i."user_id" = $${params.length}`);
    } else {
      where.push(`i."is_public"`);
    }
    if (query.search) {
      params.push(likePattern(query.search));
      where.push(`i."prompt" ILIKE $${params.length}`);
    }
    if (query.after) {
      params.push(query.after.at, query.after.id);
      const [at, id] = [`$${params.length - 1}::timestamptz`, `$${params.length}::uuid`];
      if (query.order === 'most_liked') {
        params.push(query.after.likes);
        where.push(`(i."likes", i."created_at", i."id") < ($${params.length}::int, ${at}, ${id})`);
      } else {
        where.push(`(i."created_at", i."id") < (${at}, ${id})`);
      }
    }
    const orderBy = query.order === 'most_liked' ? `i."likes" DESC, i."created_at" DESC, i."id" DESC` : `i."created_at" DESC, i."id" DESC`;
    params.push(query.limit + 1);
    return this.session.query<ImageRow>(
      `SELECT ${COLUMNS('$1')} FROM "media"."images" i WHERE ${where.join(' AND ')} ORDER BY ${orderBy} LIMIT $${params.length}`,
      params,
    );
  }

  async find(imageId: string, viewerId: string | null): Promise<ImageRow | null> {
    const rows = await this.session.query<ImageRow>(`SELECT ${COLUMNS('$2::uuid')} FROM "media"."images" i WHERE i."id" = $1`, [
      imageId,
      viewerId,
    ]);
    return rows[0] ?? null;
  }

  async insert(image: NewImage): Promise<void> {
    await this.session.execute(
      `INSERT INTO "media"."images" ("id", "user_id", "job_id", "prompt", "model", "provider", "is_demo", "size", "quality", "style",
         "width", "height", "placeholder", "renditions", "byte_size", "created_at")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        image.id,
        image.user_id,
        image.job_id,
        image.prompt,
        image.model,
        image.provider,
        image.is_demo,
        image.size,
        image.quality,
        image.style,
        image.width,
        image.height,
        image.placeholder,
        JSON.stringify(image.renditions),
        image.byte_size,
        image.created_at,
      ],
    );
  }

  /** True when the visibility changed (the owner's image, and not already so). */
  async setVisibility(imageId: string, ownerId: string, isPublic: boolean): Promise<boolean> {
    const rows = await this.session.query(
      `UPDATE "media"."images" SET "is_public" = $3 WHERE "id" = $1 AND "user_id" = $2 AND "is_public" <> $3 RETURNING "id"`,
      [imageId, ownerId, isPublic],
    );
    return rows.length > 0;
  }

  /** The deleted row's visibility and likes, or null when the member owns no such image. */
  async delete(imageId: string, ownerId: string): Promise<{ is_public: boolean; likes: number } | null> {
    const rows = await this.session.query<{ is_public: boolean; likes: number }>(
      `DELETE FROM "media"."images" WHERE "id" = $1 AND "user_id" = $2 RETURNING "is_public", "likes"`,
      [imageId, ownerId],
    );
    return rows[0] ?? null;
  }

  /** The new like count when this member's like was added, null when they had already liked it. */
  async addLike(imageId: string, userId: string): Promise<number | null> {
    const added = await this.session.query(
      `INSERT INTO "media"."image_likes" ("image_id", "user_id") VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING "image_id"`,
      [imageId, userId],
    );
    if (added.length === 0) return null;
    const rows = await this.session.query<{ likes: number }>(
      `UPDATE "media"."images" SET "likes" = "likes" + 1 WHERE "id" = $1 RETURNING "likes"`,
      [imageId],
    );
    return rows[0]!.likes;
  }

  /** The new like count when this member's like was removed, null when there was none. */
  async removeLike(imageId: string, userId: string): Promise<number | null> {
    const removed = await this.session.query(
      `DELETE FROM "media"."image_likes" WHERE "image_id" = $1 AND "user_id" = $2 RETURNING "image_id"`,
      [imageId, userId],
    );
    if (removed.length === 0) return null;
    const rows = await this.session.query<{ likes: number }>(
      `UPDATE "media"."images" SET "likes" = GREATEST("likes" - 1, 0) WHERE "id" = $1 RETURNING "likes"`,
      [imageId],
    );
    return rows[0]!.likes;
  }
}
