import { pipeline } from 'node:stream/promises';
import { logger } from '@app/kit';
import { AppError, ContentRating, type GenerationJob, IMAGE_VARIANTS, type ImageVariant, type User } from '@app/schema';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import { toRestImage, toRestJob } from '../graphql/media.mappers';
import type { MediaClient } from '../media-client';
import type { ContentAccess } from '../moderation/content-access';

type Handler = (req: Request, res: Response, user: User) => Promise<void>;

const FILE_PATTERN = /^(original\.png|w\d+\.webp)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIST_DEFAULT = 50;

/** A finished job as the REST answer: the image, or the job's failure as an error. */
function imageOrError(job: GenerationJob, viewerId: string) {
  if (job.status === 'done' && job.image) return toRestImage(job.image, viewerId);
  if (job.status === 'cancelled') throw new AppError('CONFLICT', 'The generation was cancelled');
  if (job.errorCode === 'CONTENT_REJECTED') {
    // The rule goes with it, as on every other refusal: clients translate by it.
    const details = job.policyCategory ? { policyCategory: job.policyCategory } : undefined;
    throw new AppError('CONTENT_REJECTED', job.errorMessage ?? 'The prompt was refused', details);
  }
  throw new AppError(
    job.errorCode === 'TIMEOUT' ? 'TIMEOUT' : 'UNAVAILABLE',
    job.errorMessage ?? 'Failed to generate image. Please try again.',
  );
}

/** `?limit&cursor&search&order` on the list endpoints; the next page's cursor goes in `X-Next-Cursor`. */
function pageArgs(req: Request) {
  const text = (name: string) => (typeof req.query[name] === 'string' ? (req.query[name] as string) : undefined);
  const limit = text('limit') === undefined ? LIST_DEFAULT : Number(text('limit'));
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('VALIDATION_FAILED', 'limit must be between 1 and 100');
  const order = text('order') ?? 'newest';
  if (order !== 'newest' && order !== 'most_liked') throw new AppError('VALIDATION_FAILED', 'order must be newest or most_liked');
  return { first: limit, after: text('cursor') ?? null, search: text('search') ?? null, order: order as 'newest' | 'most_liked' };
}

/** The compatible image endpoints (SPEC §7), extra generation endpoints, and the image file route. */
export function mediaRoutes(
  media: MediaClient,
  access: ContentAccess,
  jsonBody: RequestHandler,
  bodyObject: (req: Request) => Record<string, unknown>,
  sendError: (res: Response, error: unknown) => void,
): Router {
  const router = Router();
  const meta = (req: Request, user: User | null) => ({ requestId: req.state.requestId, userId: user?.id });
  // An id that cannot exist is simply not found, like someone else's private image.
  const id = (req: Request) => {
    const value = String(req.params.id);
    if (!UUID.test(value)) throw new AppError('NOT_FOUND', 'Not found');
    return value;
  };
  const on =
    (handler: Handler): RequestHandler =>
    (req, res) => {
      void (async () => {
        const user = await req.state.user();
        if (!user) throw new AppError('UNAUTHENTICATED', 'Unauthorized');
        res.setHeader('Cache-Control', 'no-store');
        await handler(req, res, user);
      })().catch((error: unknown) => sendError(res, error));
    };

  router.get(
    '/images',
    on(async (req, res, user) => {
      const page = await media.listMyImages(user.id, pageArgs(req), meta(req, user));
      if (page.nextCursor) res.setHeader('X-Next-Cursor', page.nextCursor);
      res.json(page.images.map((image) => toRestImage(image, user.id)));
    }),
  );
  router.get(
    '/images/public',
    on(async (req, res, user) => {
      const page = await media.listPublicImages(user.id, pageArgs(req), access.ratingsFor(user), meta(req, user));
      if (page.nextCursor) res.setHeader('X-Next-Cursor', page.nextCursor);
      res.json(page.images.map((image) => toRestImage(image, user.id)));
    }),
  );
  router.get(
    '/images/:id',
    on(async (req, res, user) => {
      res.json(toRestImage(await media.getImage(user.id, id(req), access.ratingsFor(user), meta(req, user)), user.id));
    }),
  );
  router.put(
    '/images/:id/visibility',
    jsonBody,
    on(async (req, res, user) => {
      const { isPublic, rating } = bodyObject(req);
      if (typeof isPublic !== 'boolean') throw new AppError('VALIDATION_FAILED', 'isPublic must be true or false');
      const parsedRating = ContentRating.nullish().safeParse(rating);
      if (!parsedRating.success) throw new AppError('VALIDATION_FAILED', 'rating must be safe, suggestive or explicit');
      res.json(toRestImage(await media.setVisibility(user.id, id(req), isPublic, parsedRating.data ?? null, meta(req, user)), user.id));
    }),
  );
  router.delete(
    '/images/:id',
    on(async (req, res, user) => {
      await media.deleteImage(user.id, id(req), meta(req, user));
      res.status(204).end();
    }),
  );
  router.post(
    '/images/:id/like',
    on(async (req, res, user) => {
      res.json(toRestImage(await media.likeImage(user.id, id(req), meta(req, user)), user.id));
    }),
  );
  router.delete(
    '/images/:id/like',
    on(async (req, res, user) => {
      res.json(toRestImage(await media.unlikeImage(user.id, id(req), meta(req, user)), user.id));
    }),
  );

  router.post(
    '/generate/image',
    jsonBody,
    on(async (req, res, user) => {
      const job = await media.generateAndWait(user.id, bodyObject(req), meta(req, user), req.state.clientIp);
      res.status(201).json(imageOrError(job, user.id));
    }),
  );
  router.post(
    '/generations',
    jsonBody,
    on(async (req, res, user) => {
      res.status(202).json(toRestJob(await media.createGeneration(user.id, bodyObject(req), meta(req, user), req.state.clientIp), user.id));
    }),
  );
  router.get(
    '/generations/:id',
    on(async (req, res, user) => {
      res.json(toRestJob(await media.getGeneration(user.id, id(req), meta(req, user)), user.id));
    }),
  );
  router.delete(
    '/generations/:id',
    on(async (req, res, user) => {
      res.json(toRestJob(await media.cancelGeneration(user.id, id(req), meta(req, user)), user.id));
    }),
  );

  // Public images to anyone (cacheable); private ones only to their owner, else 404.
  router.get('/media/images/:id/:file', (req, res) => {
    void (async () => {
      const file = String(req.params.file);
      if (!FILE_PATTERN.test(file)) throw new AppError('NOT_FOUND', 'Not found');
      const variant = file.slice(0, file.lastIndexOf('.')) as ImageVariant;
      if (!IMAGE_VARIANTS.includes(variant)) throw new AppError('NOT_FOUND', 'Not found');
      const user = await req.state.user();
      const image = await media.locateImageFile(user?.id ?? null, id(req), variant, access.ratingsFor(user), meta(req, user));
      // A stored file never changes: its id and variant name it for good.
      const etag = `"${id(req)}-${variant}"`;
      const revalidated = req.headers['if-none-match'] === etag;
      // Opened before any header is set, so a missing file or a storage failure is answered as a plain error.
      const object = revalidated ? null : await image.open();
      res.setHeader('ETag', etag);
      res.setHeader('Cache-Control', image.isPublic ? 'public, max-age=300, stale-while-revalidate=3600' : 'private, no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (!object) {
        res.status(304).end();
        return;
      }
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Content-Length', String(object.size));
      if (req.query.download !== undefined) {
        res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(image.fileName)}`);
      }
      if (req.method === 'HEAD') {
        object.stream.destroy();
        res.end();
        return;
      }
      // Streamed from storage: memory stays flat however large the file or however many are served at once.
      await pipeline(object.stream, res).catch((error: unknown) => {
        // A client that goes away mid-file is not a server error; a storage failure mid-file can only cut the answer short.
        if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.warn({ err: error }, 'Image file cut short');
      });
    })().catch((error: unknown) => sendError(res, error));
  });
  return router;
}
