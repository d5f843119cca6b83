import { createHash } from 'node:crypto';
import { type Bus, type ObjectStorage, type Subscription, logger } from '@app/kit';
import {
  AppError,
  CONTENT_RATINGS,
  type ContentRating,
  type Image,
  type ImageCreator,
  type ImagePage,
  type ImageVariant,
  type PageArgs,
  RENDITION_WIDTHS,
  ViewerRatings,
  decodePageCursor,
  encodePageCursor,
  identityRpc,
  isTimestampText,
  isUuid,
  mediaEvents,
} from '@app/schema';
import type { MediaStore } from '../media.store';
import { blockedPictureRefusal, blockedPictureRejected } from '../moderation/blocked-pictures';
import { type PictureHashes, hashPicture } from '../moderation/picture-hash';
import { type ImageRow, type PageCursor, isShownToPublic, toImage } from './images.repository';

/** Ratings do not limit what owners see of their own images, nor what a like or a moderator reaches. */
export const EVERY_RATING: readonly ContentRating[] = CONTENT_RATINGS;
/** What a visitor who is not signed in may see: shared caches may keep only that, as they serve it to anyone. */
const VISITOR_RATINGS: readonly ContentRating[] = ViewerRatings.parse(undefined);

/** Object keys of an image's files; the id alone decides them, so nothing else needs storing. */
export const imageKeys = {
  original: (imageId: string) => `images/${imageId}/original.png`,
  rendition: (imageId: string, width: number) => `images/${imageId}/w${width}.webp`,
  /** Every key an image can have: the original and each rung of the ladder. */
  all: (imageId: string) => [imageKeys.original(imageId), ...RENDITION_WIDTHS.map((width) => imageKeys.rendition(imageId, width))],
};

/**
 * The id of the image a job's attempt makes: derived from the job and the attempt, so the files of
 * any attempt can be found (and removed) from the job alone, and a late write from an attempt that
 * lost its lease lands under its own id, never over the image another attempt committed.
 */
export function attemptImageId(jobId: string, attempt: number): string {
  const hex = createHash('sha256').update(`${jobId}:${attempt}`).digest('hex');
  // A version 8 (custom) UUID with the RFC 4122 variant.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Removes the files of a job's attempts (all of them, or all but the one that made its image); failures are logged. */
export async function discardAttemptFiles(
  storage: ObjectStorage,
  jobId: string,
  attempts: number,
  keep: string | null = null,
): Promise<void> {
  const ids = Array.from({ length: attempts }, (_, index) => attemptImageId(jobId, index + 1)).filter((id) => id !== keep);
  await Promise.all(
    ids.map((id) =>
      deleteImageFiles(storage, id).catch((error: unknown) =>
        logger.warn({ jobId, imageId: id, err: error }, 'files of an attempt not deleted'),
      ),
    ),
  );
}

/** Removes an image's files, present or not; rejects if one could not be removed (the caller decides whether to retry). */
export async function deleteImageFiles(storage: ObjectStorage, imageId: string): Promise<void> {
  await Promise.all(imageKeys.all(imageId).map((key) => storage.delete(key)));
}

/**
 * Files of deleted images go once the deletion is committed: from its event, redelivered until the
 * store has taken it, so a crash after the commit cannot leave files behind. Repeats are harmless.
 */
export function startImageFileCleanup(bus: Bus, storage: ObjectStorage): Promise<Subscription> {
  return bus.consumeEvents(
    { subjects: [mediaEvents.imageDeleted.type], durableName: 'media-image-files', deliver: 'all' },
    async (event) => {
      const { imageId } = mediaEvents.imageDeleted.data.parse(event.data);
      await deleteImageFiles(storage, imageId);
    },
  );
}

/** SPEC §5: the download name is the prompt cut to 50 characters plus `.png`. */
export const downloadFileName = (prompt: string, extension = 'png') => `${prompt.slice(0, 50)}.${extension}`;

/** Where a variant of the image is stored, and how to serve it; `isPublic` allows shared caches to keep it. */
export function locateVariant(row: ImageRow, variant: ImageVariant) {
  const isPublic = isShownToPublic(row, VISITOR_RATINGS);
  if (variant === 'original') {
    return { key: imageKeys.original(row.id), contentType: 'image/png', isPublic, fileName: downloadFileName(row.prompt) };
  }
  const width = Number(variant.slice(1));
  if (!row.renditions.some((rendition) => rendition.width === width)) throw new AppError('NOT_FOUND', 'This image has no such size');
  return { key: imageKeys.rendition(row.id, width), contentType: 'image/webp', isPublic, fileName: downloadFileName(row.prompt, 'webp') };
}

/** The listing's place of a row: [likes, created_at, id] (the newest-first order ignores the likes). */
const encodeCursor = (row: ImageRow) => encodePageCursor([row.likes, row.cursor_at, row.id]);

function decodeCursor(cursor: string): PageCursor {
  const [likes, at, id, ...rest] = decodePageCursor(cursor) ?? [];
  if (rest.length === 0 && typeof likes === 'number' && Number.isInteger(likes) && isTimestampText(at) && isUuid(id)) {
    return { likes, at, id };
  }
  throw new AppError('VALIDATION_FAILED', 'The page cursor is not valid');
}

/** The gallery's rules: who sees what, visibility, likes; creators' names come from identity. */
export class ImagesService {
  constructor(
    private readonly store: MediaStore,
    private readonly bus: Bus,
    private readonly storage: ObjectStorage,
  ) {}

  listMine(userId: string, args: PageArgs): Promise<ImagePage> {
    return this.list(userId, userId, EVERY_RATING, args);
  }

  listPublic(viewerId: string, args: PageArgs, ratings: readonly ContentRating[]): Promise<ImagePage> {
    return this.list(viewerId, null, ratings, args);
  }

  private async list(viewerId: string, ownerId: string | null, ratings: readonly ContentRating[], args: PageArgs): Promise<ImagePage> {
    const limit = args.first ?? 24;
    const search = args.search?.trim() || null;
    const after = args.after ? decodeCursor(args.after) : null;
    const rows = await this.store.run(({ images }) =>
      images.page({ ownerId, ratings, viewerId, search, order: args.order ?? 'newest', after, limit }),
    );
    const page = rows.slice(0, limit);
    const creators = await this.creators(page.filter((row) => row.is_public));
    return {
      images: page.map((row) => toImage(row, row.is_public ? (creators.get(row.user_id) ?? null) : null)),
      cursors: page.map(encodeCursor),
      nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]!) : null,
    };
  }

  /** The image if the viewer may see it: their own (unless removed), or shown to the public in the viewer's ratings. */
  async get(viewerId: string | null, imageId: string, ratings: readonly ContentRating[]): Promise<Image> {
    return this.present(await this.visibleRow(viewerId, imageId, ratings));
  }

  /** Publishing takes the rating given (or keeps the current one), unless a moderator set it; a removed picture stays off the site. */
  async setVisibility(userId: string, imageId: string, isPublic: boolean, rating: ContentRating | null): Promise<Image> {
    const row = await this.visibleRow(userId, imageId, EVERY_RATING);
    if (row.user_id !== userId) throw new AppError('FORBIDDEN', 'Only the owner can change who sees this image');
    if (isPublic) await this.assertNotBlocked(userId, imageId);
    await this.store.transaction(async ({ images }, tx) => {
      if (await images.setVisibility(imageId, userId, isPublic, rating)) {
        await tx.emit(mediaEvents.visibilityChanged, { imageId, userId, isPublic }, userId);
      }
    });
    return this.get(userId, imageId, EVERY_RATING);
  }

  /** The same picture as one moderators removed, under another image, is refused as the content policy refuses a text. */
  private async assertNotBlocked(userId: string, imageId: string): Promise<void> {
    const hashes = await this.pictureHashes(imageId);
    const match = hashes ? await this.store.run(({ moderation }) => moderation.findBlocked(hashes)) : null;
    if (!match) return;
    await this.bus
      .publishEvent(mediaEvents.contentRefused, blockedPictureRefusal('image.publish', userId, match), userId)
      .catch((error: unknown) => logger.warn({ imageId, err: error }, 'refusal not recorded'));
    throw blockedPictureRejected();
  }

  /**
   * The picture's hashes: those kept with the image, or, for an image stored before they were kept, computed from
   * its stored original (and kept from then on). Null when the original is gone.
   */
  async pictureHashes(imageId: string): Promise<PictureHashes | null> {
    const kept = await this.store.run(({ images }) => images.findHashes(imageId));
    if (kept) return kept;
    const original = await this.storage.get(imageKeys.original(imageId));
    if (!original) {
      logger.warn({ imageId }, 'no stored original to hash');
      return null;
    }
    const hashes = await hashPicture(original.body);
    await this.store.run(({ images }) => images.saveHashes(imageId, hashes));
    return hashes;
  }

  /** Owner only. The row and its likes go in one transaction with the event that removes the files (startImageFileCleanup). */
  async delete(userId: string, imageId: string): Promise<void> {
    const row = await this.visibleRow(userId, imageId, EVERY_RATING);
    if (row.user_id !== userId) throw new AppError('FORBIDDEN', 'Only the owner can delete this image');
    const deleted = await this.store.transaction(async ({ images }, tx) => {
      const gone = await images.delete(imageId, userId);
      if (gone) {
        await tx.emit(mediaEvents.imageDeleted, { imageId, userId, wasPublic: gone.is_public, likes: gone.likes }, userId);
      }
      return gone;
    });
    if (!deleted) throw new AppError('NOT_FOUND', 'Image not found');
  }

  /** One like per member: liking again changes nothing. Only public images can be liked. */
  async like(userId: string, imageId: string): Promise<Image> {
    return this.changeLike(userId, imageId, 'like');
  }

  async unlike(userId: string, imageId: string): Promise<Image> {
    return this.changeLike(userId, imageId, 'unlike');
  }

  private async changeLike(userId: string, imageId: string, change: 'like' | 'unlike'): Promise<Image> {
    const row = await this.visibleRow(userId, imageId, EVERY_RATING);
    if (!isShownToPublic(row, EVERY_RATING) && change === 'like') throw new AppError('CONFLICT', 'Only public images can be liked');
    await this.store.transaction(async ({ images }, tx) => {
      const likes = change === 'like' ? await images.addLike(imageId, userId) : await images.removeLike(imageId, userId);
      if (likes === null) return;
      const event = change === 'like' ? mediaEvents.imageLiked : mediaEvents.imageUnliked;
      await tx.emit(event, { imageId, ownerId: row.user_id, likerId: userId, likes }, userId);
    });
    return this.get(userId, imageId, EVERY_RATING);
  }

  /** Where a file of the image is, once the viewer is allowed to see it. */
  async locateFile(viewerId: string | null, imageId: string, variant: ImageVariant, ratings: readonly ContentRating[]) {
    return locateVariant(await this.visibleRow(viewerId, imageId, ratings), variant);
  }

  /** Others' images outside what the public sees, in the viewer's ratings, do not exist for the viewer; removed ones for nobody. */
  private async visibleRow(viewerId: string | null, imageId: string, ratings: readonly ContentRating[]): Promise<ImageRow> {
    const row = await this.store.run(({ images }) => images.find(imageId, viewerId));
    if (!row || row.moderation_state === 'removed') throw new AppError('NOT_FOUND', 'Image not found');
    if (row.user_id !== viewerId && !isShownToPublic(row, ratings)) throw new AppError('NOT_FOUND', 'Image not found');
    return row;
  }

  async present(row: ImageRow): Promise<Image> {
    const creators = row.is_public ? await this.creators([row]) : new Map<string, ImageCreator>();
    return toImage(row, creators.get(row.user_id) ?? null);
  }

  /** Creator names and avatars for a page, in one call to identity. */
  private async creators(rows: ImageRow[]): Promise<Map<string, ImageCreator>> {
    const userIds = [...new Set(rows.map((row) => row.user_id))];
    if (userIds.length === 0) return new Map();
    const { profiles } = await this.bus.request(identityRpc.getPublicProfiles, { userIds });
    return new Map(profiles.map(({ id, ...creator }) => [id, creator]));
  }
}
