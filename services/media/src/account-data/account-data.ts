import { type Bus, type Database, type ObjectStorage, type SqlSession, type Subscription, UnitOfWork, logger } from '@app/kit';
import { type ExportFile, type ExportPage, type MediaExportPart, accountDataEvents, accountDataRpc, mediaEvents } from '@app/schema';
import { deleteImageFiles, discardAttemptFiles, imageKeys } from '../images/images.service';
import { photoKeys } from '../photos/photos.service';
import { type PartQuery, memberTables, readPage, readTablesPage } from '@app/kit';

/** Tables this module handles by name; any other media table with a `user_id` column (photos…) is exported and erased as found. */
const HANDLED_TABLES = new Set(['images', 'image_likes', 'generation_jobs', 'pending_charges', 'suspended_members']);

type RowPart = Exclude<MediaExportPart, FilePart>;
type FilePart = 'imageFiles' | 'photoFiles' | 'avatarFiles';

const byMember = (table: string, select: string, orderBy = ['created_at', 'id']): PartQuery => ({
  table: `"media"."${table}"`,
  select,
  where: 't."user_id" = $1',
  orderBy,
});

/** What each row part of the export reads; leases, debit keys and picture hashes are the service's bookkeeping. */
const ROW_PARTS: Record<Exclude<RowPart, 'other'>, PartQuery> = {
  images: byMember('images', `to_jsonb(t) - 'dhash'`),
  likesGiven: byMember('image_likes', `jsonb_build_object('imageId', t."image_id", 'createdAt', t."created_at")`, [
    'created_at',
    'image_id',
  ]),
  generations: byMember('generation_jobs', `to_jsonb(t) - 'lease_owner' - 'lease_expires_at' - 'debit_key'`),
};

/** The rows whose files each file part gives back: `id` names an image, a photo, or a profile picture. */
const FILE_PARTS: Record<FilePart, PartQuery> = {
  // Originals of images a moderator removed are not given back.
  imageFiles: {
    ...byMember('images', `jsonb_build_object('id', t."id")`),
    where: `t."user_id" = $1 AND t."moderation_state" <> 'removed'`,
  },
  photoFiles: byMember('self_ai_photos', `jsonb_build_object('id', t."id")`),
  avatarFiles: byMember('avatars', `jsonb_build_object('id', t."avatar_id")`, ['user_id']),
};

const isFilePart = (part: MediaExportPart): part is FilePart => part in FILE_PARTS;

/** Storage folders named by the member (uploads being staged, Self-AI photos); images and profile pictures live under their own ids. */
export const memberPrefixes = (userId: string) => ['uploads', 'photos'].map((folder) => `${folder}/${userId}/`);

/** Media's side of a member's own data: images, likes, generation jobs and whatever else media keeps by member. */
export class MediaAccountDataRepository {
  constructor(private readonly session: SqlSession) {}

  /** A page of one of the member's row parts; file parts are read through `idsPage`. */
  async exportPage(part: RowPart, userId: string, after: string[] | null, limit: number): Promise<ExportPage> {
    if (part === 'other') return readTablesPage(this.session, 'media', await this.otherMemberTables(), 'to_jsonb(t)', userId, after, limit);
    const { rows, next } = await readPage(this.session, ROW_PARTS[part], userId, after, limit);
    return { rows, next };
  }

  /** A page of the ids behind one of the file parts (each names a file or a folder of files). */
  async idsPage(part: FilePart, userId: string, after: string[] | null, limit: number): Promise<{ ids: string[]; next: string[] | null }> {
    const { rows, next } = await readPage(this.session, FILE_PARTS[part], userId, after, limit);
    return { ids: rows.map((row) => String(row.id)), next };
  }

  /** Tables added since this module was written that keep rows by member (photos…). */
  otherMemberTables = () => memberTables(this.session, 'media', HANDLED_TABLES);

  /** The folder of the member's profile picture (`avatars/<avatarId>/`), if they have one. */
  async avatarFolders(userId: string): Promise<string[]> {
    const rows = await this.session.query<{ avatar_id: string }>(`SELECT "avatar_id" FROM "media"."avatars" WHERE "user_id" = $1`, [
      userId,
    ]);
    return rows.map((row) => `avatars/${row.avatar_id}/`);
  }

  async imageIds(userId: string): Promise<string[]> {
    return (await this.session.query<{ id: string }>(`SELECT "id" FROM "media"."images" WHERE "user_id" = $1`, [userId])).map((r) => r.id);
  }

  /** Jobs and how many attempts each made (each attempt may have left files under its own image id). */
  async jobAttempts(userId: string): Promise<{ id: string; attempts: number }[]> {
    return this.session.query<{ id: string; attempts: number }>(
      `SELECT "id", "attempts" FROM "media"."generation_jobs" WHERE "user_id" = $1`,
      [userId],
    );
  }

  /** Takes the member's likes back from others' images; answers each change so it can be announced like an unlike. */
  async removeLikesGiven(userId: string): Promise<{ imageId: string; ownerId: string; likes: number }[]> {
    const removed = await this.session.query<{ image_id: string }>(
      `DELETE FROM "media"."image_likes" WHERE "user_id" = $1 RETURNING "image_id"`,
      [userId],
    );
    const changes: { imageId: string; ownerId: string; likes: number }[] = [];
    for (const { image_id } of removed) {
      const [image] = await this.session.query<{ user_id: string; likes: number }>(
        `UPDATE "media"."images" SET "likes" = GREATEST("likes" - 1, 0) WHERE "id" = $1 RETURNING "user_id", "likes"`,
        [image_id],
      );
      if (image && image.user_id !== userId) changes.push({ imageId: image_id, ownerId: image.user_id, likes: image.likes });
    }
    return changes;
  }

  /** Every row media keeps by the member (likes given excepted: see removeLikesGiven); returns the image ids that went. */
  async eraseRows(userId: string): Promise<string[]> {
    await this.session.execute(
      `DELETE FROM "media"."moderation_marks" WHERE "subject_id" = $1
         OR "subject_id" IN (SELECT "id" FROM "media"."images" WHERE "user_id" = $1)`,
      [userId],
    );
    // Likes others gave the member's images go with them (ON DELETE CASCADE).
    const images = await this.session.query<{ id: string }>(`DELETE FROM "media"."images" WHERE "user_id" = $1 RETURNING "id"`, [userId]);
    for (const table of ['generation_jobs', 'pending_charges', 'suspended_members', ...(await this.otherMemberTables())]) {
      await this.session.execute(`DELETE FROM "media"."${table}" WHERE "user_id" = $1`, [userId]);
    }
    await this.session.execute(`DELETE FROM "media"."outbox" WHERE "published_at" IS NOT NULL AND strpos("envelope"::text, $1) > 0`, [
      userId,
    ]);
    return images.map((row) => row.id);
  }
}

export type MediaAccountDataStore = UnitOfWork<MediaAccountDataRepository>;

export const openMediaAccountDataStore = (db: Database): MediaAccountDataStore =>
  new UnitOfWork(db, (session) => new MediaAccountDataRepository(session));

/** Every stored file under `folder`, placed in the archive under `archiveFolder`. */
async function filesUnder(storage: ObjectStorage, folder: string, archiveFolder: string): Promise<ExportFile[]> {
  return (await storage.list(folder)).map((object) => ({ key: object.key, path: `${archiveFolder}${object.key.slice(folder.length)}` }));
}

/** The stored files behind a page of ids of one file part, with their place in the archive. */
async function filesOf(storage: ObjectStorage, part: FilePart, userId: string, ids: string[]): Promise<ExportFile[]> {
  if (part === 'imageFiles') return ids.map((id) => ({ key: imageKeys.original(id), path: `images/${id}.png` }));
  const files: ExportFile[] = [];
  for (const id of ids) {
    if (part === 'photoFiles') files.push(...(await filesUnder(storage, photoKeys.folder(userId, id), `photos/${id}/`)));
    else files.push(...(await filesUnder(storage, `avatars/${id}/`, 'avatars/')));
  }
  return files;
}

/** Media's export endpoint: rows as JSON, and the keys of the files the gateway puts in the archive, a page at a time. */
export function serveMediaAccountData(bus: Bus, store: MediaAccountDataStore, storage: ObjectStorage): Promise<Subscription[]> {
  return Promise.all([
    bus.serve(accountDataRpc.exportMedia, async ({ userId, part, after, limit }): Promise<ExportPage> => {
      if (!isFilePart(part)) return store.run((data) => data.exportPage(part, userId, after, limit));
      const { ids, next } = await store.run((data) => data.idsPage(part, userId, after, limit));
      return { rows: await filesOf(storage, part, userId, ids), next };
    }),
  ]);
}

/** Removes every stored file of the member: their images', their jobs' attempts', and their own folders. */
async function deleteMemberFiles(storage: ObjectStorage, imageIds: string[], jobs: { id: string; attempts: number }[], folders: string[]) {
  for (const imageId of imageIds) await deleteImageFiles(storage, imageId);
  for (const job of jobs) await discardAttemptFiles(storage, job.id, job.attempts);
  for (const prefix of folders) {
    for (const object of await storage.list(prefix)) await storage.delete(object.key);
  }
}

/**
 * Erases a deleted member's media from identity's event: files first (a failure leaves the rows, so the redelivered event
 * finds them again), then every row in one transaction, then the files of anything a job committed in between.
 * Likes the member gave are taken back and announced as unlikes, so their owners' counters follow.
 */
export function startMediaErasure(bus: Bus, store: MediaAccountDataStore, storage: ObjectStorage): Promise<Subscription> {
  return bus.consumeEvents(
    { subjects: [accountDataEvents.accountDeleted.type], durableName: 'media-account-erasure', deliver: 'all' },
    async (event) => {
      const { userId } = accountDataEvents.accountDeleted.data.parse(event.data);
      const before = await store.run(async (data) => ({
        images: await data.imageIds(userId),
        jobs: await data.jobAttempts(userId),
        folders: [...memberPrefixes(userId), ...(await data.avatarFolders(userId))],
      }));
      await deleteMemberFiles(storage, before.images, before.jobs, before.folders);
      const erased = await store.transaction(async (data, tx) => {
        const jobs = await data.jobAttempts(userId);
        for (const change of await data.removeLikesGiven(userId)) {
          await tx.emit(mediaEvents.imageUnliked, { ...change, likerId: userId }, null);
        }
        const folders = await data.avatarFolders(userId);
        return { images: await data.eraseRows(userId), jobs, folders };
      });
      const known = new Set(before.images);
      const knownJobs = new Set(before.jobs.map((job) => `${job.id}:${job.attempts}`));
      await deleteMemberFiles(
        storage,
        erased.images.filter((id) => !known.has(id)),
        erased.jobs.filter((job) => !knownJobs.has(`${job.id}:${job.attempts}`)),
        [...memberPrefixes(userId), ...erased.folders.filter((folder) => !before.folders.includes(folder))],
      );
      logger.info({ eventId: event.id, images: erased.images.length }, 'media data of a deleted account erased');
    },
  );
}
