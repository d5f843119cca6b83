import { pipeline } from 'node:stream/promises';
import { logger } from '@app/kit';
import { AppError, type GenerationJob } from '@app/schema';
import { type Request, Router } from 'express';
import { toRestImage, toRestJob } from '../graphql/media.mappers';
import {
  cancelGeneration,
  createGeneration,
  deleteImage,
  generateImageAndWait,
  getGeneration,
  getImage,
  likeImage,
  listMyImages,
  listPublicImages,
  locateImageFile,
  setImageVisibility,
  unlikeImage,
} from '../images/images.operations';
import type { Services } from '../operations/caller';
import { queryNumber, queryText } from '../operations/input';
import { type Route, bodyObject, jsonBody } from './route';

/** The compatible lists' page size when the client names none. */
const LIST_DEFAULT = 50;

/** A finished job as the REST answer: the image, or the job's failure as an error. */
function imageOrError(job: GenerationJob, viewerId: string | undefined) {
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
const listQuery = (req: Request) => ({
  limit: queryNumber(req.query.limit) ?? LIST_DEFAULT,
  after: queryText(req.query.cursor) ?? null,
  search: queryText(req.query.search) ?? null,
  order: queryText(req.query.order),
});

/** The compatible image endpoints (SPEC §7), extra generation endpoints, and the image file route. */
export function mediaRoutes(services: Services, route: Route): Router {
  const router = Router();
  const id = (req: Request) => String(req.params.id);
  const privately = { noStore: true };

  router.get(
    '/images',
    route(async (req, res, caller) => {
      const page = await listMyImages(services, caller, listQuery(req));
      if (page.nextCursor) res.setHeader('X-Next-Cursor', page.nextCursor);
      res.json(page.images.map((image) => toRestImage(image, caller.user?.id)));
    }, privately),
  );
  router.get(
    '/images/public',
    route(async (req, res, caller) => {
      const page = await listPublicImages(services, caller, listQuery(req));
      if (page.nextCursor) res.setHeader('X-Next-Cursor', page.nextCursor);
      res.json(page.images.map((image) => toRestImage(image, caller.user?.id)));
    }, privately),
  );
  router.get(
    '/images/:id',
    route(async (req, res, caller) => res.json(toRestImage(await getImage(services, caller, id(req)), caller.user?.id)), privately),
  );
  router.put(
    '/images/:id/visibility',
    jsonBody,
    route(
      async (req, res, caller) =>
        res.json(toRestImage(await setImageVisibility(services, caller, id(req), bodyObject(req)), caller.user?.id)),
      privately,
    ),
  );
  router.delete(
    '/images/:id',
    route(async (req, res, caller) => {
      await deleteImage(services, caller, id(req));
      res.status(204).end();
    }, privately),
  );
  router.post(
    '/images/:id/like',
    route(async (req, res, caller) => res.json(toRestImage(await likeImage(services, caller, id(req)), caller.user?.id)), privately),
  );
  router.delete(
    '/images/:id/like',
    route(async (req, res, caller) => res.json(toRestImage(await unlikeImage(services, caller, id(req)), caller.user?.id)), privately),
  );

  router.post(
    '/generate/image',
    jsonBody,
    route(
      async (req, res, caller) =>
        res.status(201).json(imageOrError(await generateImageAndWait(services, caller, bodyObject(req)), caller.user?.id)),
      privately,
    ),
  );
  router.post(
    '/generations',
    jsonBody,
    route(
      async (req, res, caller) =>
        res.status(202).json(toRestJob(await createGeneration(services, caller, bodyObject(req)), caller.user?.id)),
      privately,
    ),
  );
  router.get(
    '/generations/:id',
    route(async (req, res, caller) => res.json(toRestJob(await getGeneration(services, caller, id(req)), caller.user?.id)), privately),
  );
  router.delete(
    '/generations/:id',
    route(async (req, res, caller) => res.json(toRestJob(await cancelGeneration(services, caller, id(req)), caller.user?.id)), privately),
  );

  // Public images to anyone (cacheable); private ones only to their owner, else 404.
  router.get(
    '/media/images/:id/:file',
    route(async (req, res, caller) => {
      const image = await locateImageFile(services, caller, id(req), String(req.params.file));
      // A stored file never changes: its id and variant name it for good.
      const etag = `"${image.imageId}-${image.variant}"`;
      const revalidated = req.headers['if-none-match'] === etag;
      // Opened before any header is set, so a missing file or a storage failure is answered as a plain error.
      const object = revalidated ? null : await image.open();
      res.setHeader('ETag', etag);
      res.setHeader('Cache-Control', image.isPublic ? 'public, max-age=300, stale-while-revalidate=3600' : 'private, no-cache');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      if (!object) return res.status(304).end();
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Content-Length', String(object.size));
      if (req.query.download !== undefined) {
        res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(image.fileName)}`);
      }
      if (req.method === 'HEAD') {
        object.stream.destroy();
        return res.end();
      }
      // Streamed from storage: memory stays flat however large the file or however many are served at once.
      await pipeline(object.stream, res).catch((error: unknown) => {
        // A client that goes away mid-file is not a server error; a storage failure mid-file can only cut the answer short.
        if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.warn({ err: error }, 'Image file cut short');
      });
    }),
  );
  return router;
}
