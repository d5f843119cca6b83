import type { SqlSession } from '@app/kit';
import type {
  AdvancedImageSettings,
  ContentRating,
  Image,
  ImageCreator,
  ImageOrder,
  ImageSettings,
  ModerationState,
  Rendition,
} from '@app/schema';
import { settingsOf } from '../generations/advanced-settings';
import { type PictureHashes, dhashFromSql, dhashToSql } from '../moderation/picture-hash';

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
  /** The advanced settings it was drawn with (the seed the provider used); null when none were given or reported. */
  advanced: AdvancedImageSettings | null;
  width: number;
  height: number;
  placeholder: string;
  renditions: Rendition[];
  byte_size: number;
  is_public: boolean;
  rating: ContentRating;
  /** Set once a moderator changed the rating: the owner's choice no longer applies. */
  rating_locked: boolean;
  moderation_state: ModerationState;
  owner_suspended: boolean;
  likes: number;
  created_at: Date;
  /** created_at as PostgreSQL prints it (microseconds kept), for exact cursors. */
  cursor_at: string;
  liked_by_me: boolean;
}

export type NewImage = Omit<
  ImageRow,
  'is_public' | 'rating' | 'rating_locked' | 'moderation_state' | 'owner_suspended' | 'likes' | 'cursor_at' | 'liked_by_me'
> & { hashes: PictureHashes };

export const toImage = (row: ImageRow, user: ImageCreator | null): Image => ({
  id: row.id,
  ownerId: row.user_id,
  prompt: row.prompt,
  model: row.model,
  isDemo: row.is_demo,
  isPublic: row.is_public,
  rating: row.rating,
  moderationState: row.moderation_state,
  likes: row.likes,
  likedByMe: row.liked_by_me,
  createdAt: new Date(row.created_at).toISOString(),
  settings: settingsOf(row),
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
  /** Only this owner's images (removed ones aside); otherwise only those the public may see, in `ratings`. */
  ownerId: string | null;
  ratings: readonly ContentRating[];
  viewerId: string;
  search: string | null;
  order: ImageOrder;
  after: PageCursor | null;
  limit: number;
}

/** What the public may see of an image: published, not taken down, its owner not suspended. */
export const SHOWN_TO_PUBLIC = `i."is_public" AND i."moderation_state" = 'visible' AND NOT i."owner_suspended"`;

/** SHOWN_TO_PUBLIC for a row already read, in the viewer's ratings. */
export const isShownToPublic = (row: ImageRow, ratings: readonly ContentRating[]): boolean =>
  row.is_public && row.moderation_state === 'visible' && !row.owner_suspended && ratings.includes(row.rating);

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
      where.push(`i."user_id" = $${params.length}`, `i."moderation_state" <> 'removed'`);
    } else {
      params.push(query.ratings);
      where.push(SHOWN_TO_PUBLIC, `i."rating" = ANY($${params.length}::text[])`);
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
         "width", "height", "placeholder", "renditions", "byte_size", "created_at", "sha256", "dhash", "owner_suspended", "advanced")
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::bigint,
         EXISTS (SELECT 1 FROM "media"."suspended_members" WHERE "user_id" = $2), $19::jsonb)`,
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
        image.hashes.sha256,
        dhashToSql(image.hashes.dhash),
        image.advanced && JSON.stringify(image.advanced),
      ],
    );
  }

  /**
   * The owner's choice of visibility; publishing with a rating sets it unless a moderator locked it. Null when the
   * member owns no such image, otherwise whether the visibility changed.
   */
  async setVisibility(imageId: string, ownerId: string, isPublic: boolean, rating: ContentRating | null): Promise<boolean | null> {
    const rows = await this.session.query<{ was_public: boolean }>(
      `WITH "before" AS (SELECT "id", "is_public" FROM "media"."images" WHERE "id" = $1 AND "user_id" = $2 FOR UPDATE)
       UPDATE "media"."images" i SET "is_public" = $3,
         "rating" = CASE WHEN $3 AND $4::text IS NOT NULL AND NOT i."rating_locked" THEN $4::text ELSE i."rating" END
       FROM "before" WHERE i."id" = "before"."id" RETURNING "before"."is_public" AS "was_public"`,
      [imageId, ownerId, isPublic, rating],
    );
    return rows[0] ? rows[0].was_public !== isPublic : null;
  }

  /** The picture's hashes, or null for an image stored before they were kept (or no such image). */
  async findHashes(imageId: string): Promise<PictureHashes | null> {
    const rows = await this.session.query<{ sha256: string | null; dhash: string | null }>(
      `SELECT "sha256", "dhash"::text AS "dhash" FROM "media"."images" WHERE "id" = $1`,
      [imageId],
    );
    const row = rows[0];
    return row?.sha256 && row.dhash !== null ? { sha256: row.sha256, dhash: dhashFromSql(row.dhash) } : null;
  }

  async saveHashes(imageId: string, hashes: PictureHashes): Promise<void> {
    await this.session.execute(`UPDATE "media"."images" SET "sha256" = $2, "dhash" = $3::bigint WHERE "id" = $1`, [
      imageId,
      hashes.sha256,
      dhashToSql(hashes.dhash),
    ]);
  }

  /** Images by id, whatever their state (moderators' view); unknown ids are left out. */
  async findMany(imageIds: readonly string[]): Promise<ImageRow[]> {
    if (imageIds.length === 0) return [];
    return this.session.query<ImageRow>(`SELECT ${COLUMNS('NULL::uuid')} FROM "media"."images" i WHERE i."id" = ANY($1::uuid[])`, [
      imageIds,
    ]);
  }

  /** A moderator's decision on the image; false when there is no such image. */
  async setModerationState(imageId: string, state: ModerationState): Promise<boolean> {
    return (await this.session.execute(`UPDATE "media"."images" SET "moderation_state" = $2 WHERE "id" = $1`, [imageId, state])) > 0;
  }

  /** A moderator's rating, which the owner can no longer change. */
  async lockRating(imageId: string, rating: ContentRating): Promise<boolean> {
    const changed = await this.session.execute(`UPDATE "media"."images" SET "rating" = $2, "rating_locked" = true WHERE "id" = $1`, [
      imageId,
      rating,
    ]);
    return changed > 0;
  }

  /** All of a member's images leave (or return to) public view with their suspension. */
  async setOwnerSuspended(userId: string, suspended: boolean): Promise<number> {
    return this.session.execute(`UPDATE "media"."images" SET "owner_suspended" = $2 WHERE "user_id" = $1 AND "owner_suspended" <> $2`, [
      userId,
      suspended,
    ]);
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
