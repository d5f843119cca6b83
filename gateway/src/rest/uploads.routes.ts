import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { logger } from '@app/kit';
import { AppError, UPLOAD_MAX_BYTES } from '@app/schema';
import { type Request, type Response, Router } from 'express';
import type { Services } from '../operations/caller';
import { readFormUpload } from '../uploads/form-upload';
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  createUploadTarget,
  deleteSelfAiPhoto,
  listSelfAiPhotos,
  listUploadParts,
  openAvatarFile,
  openSelfAiPhotoFile,
  receiveFormUpload,
  receiveUpload,
  registerSelfAiPhoto,
  setProfilePicture,
  signUploadPart,
  uploadParams,
} from '../uploads/uploads.operations';
import { type Route, bodyObject, jsonBody } from './route';

/** A body this far past the limit is not read to its end to answer 413: the connection is cut instead. */
const DRAIN_LIMIT_BYTES = 4 * UPLOAD_MAX_BYTES;

/** The site's own origin, as the browser addressed it (behind trusted proxies, their scheme). */
const originOf = (req: Request) => `${req.protocol}://${req.get('host')}`;

/**
 * A refused body is read to its end (up to a bound) before the refusal is sent, so the browser, still sending, gets the
 * 413 instead of a cut connection.
 */
async function drain(body: Readable): Promise<void> {
  if (body.readableEnded) return;
  let read = 0;
  await new Promise<void>((resolve) => {
    body.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_LIMIT_BYTES) {
        body.destroy();
        resolve();
      }
    });
    body.once('end', resolve);
    body.once('close', resolve);
    body.resume();
  });
}

/** Receives the body with `receive`; whatever is refused, the rest of the body is drained first. */
async function receiving<T>(req: Request, receive: () => Promise<T>): Promise<T> {
  const declared = Number(req.headers['content-length']);
  try {
    if (Number.isFinite(declared) && declared > DRAIN_LIMIT_BYTES)
      throw new AppError('PAYLOAD_TOO_LARGE', 'Each photo must be at most 10 MB.');
    return await receive();
  } catch (error) {
    await drain(req);
    throw error;
  }
}

/** Self-AI uploads (SPEC §7): upload targets, the Uppy S3 companion endpoints and the member's photos. */
export function uploadRoutes(services: Services, route: Route): Router {
  const router = Router();
  const privately = { noStore: true };
  const query = (req: Request, name: string) => (typeof req.query[name] === 'string' ? req.query[name] : undefined);

  router.post(
    '/objects/upload',
    route(async (req, res, caller) => res.json(await createUploadTarget(services, caller, originOf(req))), privately),
  );
  // Signed single-use targets of the local and memory drivers: the signature, not a session, allows the write.
  router.put(
    '/objects/upload/*key',
    route(async (req, res) => {
      const key = ([] as string[]).concat(req.params.key as string | string[]).join('/');
      const etag = await receiving(req, () => receiveUpload(services, key, req.query.expires, req.query.signature, req));
      res.setHeader('ETag', etag);
      res.setHeader('Access-Control-Expose-Headers', 'ETag');
      res.status(200).end();
    }, privately),
  );
  router.post(
    '/objects/form',
    route(async (req, res) => {
      await receiving(req, async () => {
        const form = await readFormUpload(req, req.headers['content-type']);
        return receiveFormUpload(services, form.fields, form.file);
      });
      res.status(204).end();
    }, privately),
  );

  // Uppy's S3 companion endpoints (@uppy/aws-s3 with `endpoint: '/api'`).
  router.get(
    '/s3/params',
    route(async (req, res, caller) => res.json(await uploadParams(services, caller, originOf(req))), privately),
  );
  router.post(
    '/s3/multipart',
    jsonBody,
    route(async (_req, res, caller) => res.json(await createMultipartUpload(services, caller)), privately),
  );
  router.get(
    '/s3/multipart/:uploadId',
    route(async (req, res, caller) => res.json(await listUploadParts(services, caller, query(req, 'key'), req.params.uploadId)), privately),
  );
  router.get(
    '/s3/multipart/:uploadId/:partNumber',
    route(
      async (req, res, caller) =>
        res.json(await signUploadPart(services, caller, originOf(req), query(req, 'key'), req.params.uploadId, req.params.partNumber)),
      privately,
    ),
  );
  router.post(
    '/s3/multipart/:uploadId/complete',
    jsonBody,
    route(
      async (req, res, caller) =>
        res.json(
          await completeMultipartUpload(services, caller, originOf(req), query(req, 'key'), req.params.uploadId, bodyObject(req).parts),
        ),
      privately,
    ),
  );
  router.delete(
    '/s3/multipart/:uploadId',
    route(
      async (req, res, caller) => res.json(await abortMultipartUpload(services, caller, query(req, 'key'), req.params.uploadId)),
      privately,
    ),
  );

  router.put(
    '/upload-self-ai',
    jsonBody,
    route(async (req, res, caller) => res.status(201).json(await registerSelfAiPhoto(services, caller, bodyObject(req))), privately),
  );
  router.get(
    '/self-ai/photos',
    route(async (_req, res, caller) => res.json(await listSelfAiPhotos(services, caller)), privately),
  );
  router.delete(
    '/self-ai/photos/:id',
    route(async (req, res, caller) => res.json({ id: await deleteSelfAiPhoto(services, caller, String(req.params.id)) }), privately),
  );
  // A member's own photos: never cached by anyone, never shown to anyone else (404).
  router.get(
    '/self-ai/photos/:id/:file',
    route(async (req, res, caller) => {
      const object = await openSelfAiPhotoFile(services, caller, String(req.params.id), String(req.params.file));
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Type', object.contentType);
      res.setHeader('Content-Length', String(object.size));
      await sendStream(object.stream, res, req.method);
    }),
  );

  router.put(
    '/profile/picture',
    jsonBody,
    route(async (req, res, caller) => res.json(await setProfilePicture(services, caller, bodyObject(req))), privately),
  );
  // Profile pictures are public and never change under their id.
  router.get(
    '/media/avatars/:id/:file',
    route(async (req, res) => {
      const object = await openAvatarFile(services, String(req.params.id), String(req.params.file));
      res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Type', 'image/webp');
      res.setHeader('Content-Length', String(object.size));
      await sendStream(object.stream, res, req.method);
    }),
  );
  return router;
}

async function sendStream(stream: Readable, res: Response, method: string): Promise<void> {
  if (method === 'HEAD') {
    stream.destroy();
    res.end();
    return;
  }
  await pipeline(stream, res).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') logger.warn({ err: error }, 'Photo file cut short');
  });
}
