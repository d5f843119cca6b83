import { type Database, type SqlSession, UnitOfWork } from '@app/kit';
import { JobsRepository } from './generations/jobs.repository';
import { ImagesRepository } from './images/images.repository';
import { ModerationRepository } from './moderation/moderation.repository';
import { PhotosRepository } from './photos/photos.repository';

/** The media service's repositories, bound to the session of one unit of work. */
export const mediaRepositories = (session: SqlSession) => ({
  jobs: new JobsRepository(session),
  images: new ImagesRepository(session),
  moderation: new ModerationRepository(session),
  photos: new PhotosRepository(session),
});

export type MediaRepositories = ReturnType<typeof mediaRepositories>;

/** The only way to reach media's tables: `read` on the pool, or `transaction` with its events. */
export type MediaStore = UnitOfWork<MediaRepositories>;

export const createMediaStore = (db: Database): MediaStore => new UnitOfWork(db, mediaRepositories);
