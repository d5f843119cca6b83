import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type ObjectStorage, type Subscription, logger } from '@app/kit';
import {
  AVATAR_SIZES,
  AppError,
  type PhotoVariant,
  type SelfAiAttestation,
  type SelfAiPhoto,
  UPLOAD_KEY_PATTERN,
  UPLOAD_MAX_BYTES,
  mediaEvents,
} from '@app/schema';
import type { MediaStore } from '../media.store';
import { type PhotoFormat, avatarRenditions, checkPhotoHeader, receivePhoto, reencodePhoto, tooLarge } from './photo-check';
import { PhotoQueue } from './photo-queue';
import { toPhoto } from './photos.repository';

/** Staged uploads nobody registered are removed after this long. */
export const STAGING_MAX_AGE_MS = 60 * 60 * 1000;
const STAGING_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
/** Photos one process checks and re-encodes at once, and how many may wait (a 10 MB photo takes about a second). */
export const PHOTOS_AT_ONCE = 1;
export const PHOTOS_WAITING = 8;
const PHOTO_RETRY_AFTER_SECONDS = 5;

const EXTENSION: Record<PhotoFormat, string> = { jpeg: 'jpg', png: 'png' };

/** Object keys of a photo's files (private: served to the owner only) and of profile pictures (public). */
export const photoKeys = {
  folder: (userId: string, photoId: string) => `photos/${userId}/${photoId}/`,
  original: (userId: string, photoId: string, format: PhotoFormat) => `photos/${userId}/${photoId}/original.${EXTENSION[format]}`,
  thumb: (userId: string, photoId: string) => `photos/${userId}/${photoId}/thumb.webp`,
  avatar: (avatarId: string, size: number) => `avatars/${avatarId}/w${size}.webp`,
};

const photoNotFound = () => new AppError('NOT_FOUND', 'Photo not found');

/** A staged upload copied to a temporary folder of this process, checked as far as its header. */
interface StagedPhoto {
  file: string;
  format: PhotoFormat;
  /** Where to write what is made from it; removed with the copy. */
  folder: string;
}

/** Members' own photos: checked and re-encoded from their staged uploads, kept privately, deleted with every file made from them. */
export class PhotosService {
  private readonly queue = new PhotoQueue(PHOTOS_AT_ONCE, PHOTOS_WAITING, PHOTO_RETRY_AFTER_SECONDS);

  constructor(
    private readonly store: MediaStore,
    private readonly storage: ObjectStorage,
  ) {}

  async register(userId: string, key: string, attestation: SelfAiAttestation): Promise<SelfAiPhoto> {
    const photoId = randomUUID();
    return this.withStaged(userId, key, async (staged) => {
      const encoded = await reencodePhoto(staged.file, staged.format, path.join(staged.folder, 'encoded'));
      try {
        // The re-encoded photo streams from its temporary file; only the small thumbnail is held.
        await this.storage.putStream(
          photoKeys.original(userId, photoId, staged.format),
          createReadStream(path.join(staged.folder, 'encoded')),
          encoded.bytes,
          { size: encoded.bytes },
        );
        await this.storage.put(photoKeys.thumb(userId, photoId), encoded.thumb, 'image/webp');
        const row = await this.store.transaction(async ({ photos }, tx) => {
          const inserted = await photos.insert({
            id: photoId,
            userId,
            format: staged.format,
            width: encoded.width,
            height: encoded.height,
            byteSize: encoded.bytes,
            attestedAt: new Date(),
          });
          await tx.emit(mediaEvents.photoAdded, { photoId, userId, bytes: encoded.bytes }, userId);
          return inserted;
        });
        logger.info({ photoId, userId, ofSelf: attestation.ofSelf, adult: attestation.adult }, 'self-ai photo stored');
        return toPhoto(row);
      } catch (error) {
        await this.removeFolder(photoKeys.folder(userId, photoId));
        throw error;
      }
    });
  }

  async list(userId: string): Promise<SelfAiPhoto[]> {
    return (await this.store.run(({ photos }) => photos.listByOwner(userId))).map(toPhoto);
  }

  /** The row and its event commit together; then every file under the photo's folder goes (a failure is logged, the sweep of the folder is idempotent). */
  async delete(userId: string, photoId: string): Promise<void> {
    const deleted = await this.store.transaction(async ({ photos }, tx) => {
      const gone = await photos.delete(photoId, userId);
      if (gone) await tx.emit(mediaEvents.photoDeleted, { photoId, userId }, userId);
      return gone;
    });
    if (!deleted) throw photoNotFound();
    await this.removeFolder(photoKeys.folder(userId, photoId));
  }

  async locateFile(userId: string, photoId: string, variant: PhotoVariant): Promise<{ key: string; contentType: string }> {
    const row = await this.store.run(({ photos }) => photos.findOwned(photoId, userId));
    if (!row) throw photoNotFound();
    if (variant === 'thumb') return { key: photoKeys.thumb(userId, photoId), contentType: 'image/webp' };
    return { key: photoKeys.original(userId, photoId, row.format), contentType: row.format === 'jpeg' ? 'image/jpeg' : 'image/png' };
  }

  /** Square renditions under a new id (so caches never show the old picture), then the previous picture's files go. */
  async setAvatar(userId: string, key: string): Promise<{ avatarId: string }> {
    const avatarId = randomUUID();
    return this.withStaged(userId, key, async (staged) => {
      const renditions = await avatarRenditions(staged.file, AVATAR_SIZES);
      try {
        for (const { size, body } of renditions) await this.storage.put(photoKeys.avatar(avatarId, size), body, 'image/webp');
        const previous = await this.store.transaction(({ photos }) => photos.replaceAvatar(userId, avatarId));
        if (previous) await this.removeFolder(`avatars/${previous}/`);
        return { avatarId };
      } catch (error) {
        await this.removeFolder(`avatars/${avatarId}/`);
        throw error;
      }
    });
  }

  /** Staged objects older than STAGING_MAX_AGE_MS (abandoned uploads, multipart parts) are removed. */
  async sweepStaging(now = Date.now()): Promise<number> {
    const stale = (await this.storage.list('uploads/')).filter((object) => now - object.lastModified.getTime() > STAGING_MAX_AGE_MS);
    await Promise.all(stale.map((object) => this.storage.delete(object.key)));
    return stale.length;
  }

  startStagingSweep(): Subscription {
    const sweep = () => void this.sweepStaging().catch((error: unknown) => logger.warn({ err: error }, 'staged uploads not swept'));
    sweep();
    const timer = setInterval(sweep, STAGING_SWEEP_INTERVAL_MS);
    timer.unref();
    return { unsubscribe: async () => clearInterval(timer) };
  }

  /**
   * Waits for this process's turn (PhotoQueue), then copies the member's staged upload to a temporary file (counted,
   * magic bytes read from its first chunk) and removes the staged object whatever happens next: a refused file leaves
   * nothing behind. Then checks the header and hands the copy to `work`; the temporary folder goes in the end. Only keys
   * under the member's own staging folder are read.
   */
  private async withStaged<T>(userId: string, key: string, work: (staged: StagedPhoto) => Promise<T>): Promise<T> {
    const match = UPLOAD_KEY_PATTERN.exec(key);
    if (!match || match[1] !== userId) throw new AppError('NOT_FOUND', 'The upload was not found.');
    return this.queue.run(async () => {
      const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'photo-'));
      try {
        const file = path.join(folder, 'upload');
        const { format } = await this.receiveStaged(key, file);
        await checkPhotoHeader(file, format);
        return await work({ file, format, folder });
      } finally {
        await fs.rm(folder, { recursive: true, force: true });
      }
    });
  }

  private async receiveStaged(key: string, file: string): Promise<{ format: PhotoFormat }> {
    try {
      const object = await this.storage.openStream(key);
      if (!object) throw new AppError('NOT_FOUND', 'The upload was not found.');
      if (object.size > UPLOAD_MAX_BYTES) {
        object.stream.destroy();
        throw tooLarge();
      }
      return await receivePhoto(object.stream, file);
    } finally {
      await this.storage.delete(key).catch((error: unknown) => logger.warn({ key, err: error }, 'staged upload not removed'));
    }
  }

  private async removeFolder(prefix: string): Promise<void> {
    try {
      const objects = await this.storage.list(prefix);
      await Promise.all(objects.map((object) => this.storage.delete(object.key)));
    } catch (error) {
      logger.warn({ prefix, err: error }, 'files not removed');
    }
  }
}
