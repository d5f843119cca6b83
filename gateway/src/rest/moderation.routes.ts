import { pipeline } from 'node:stream/promises';
import { type Request, Router } from 'express';
import {
  dismissNotice,
  listNotices,
  moderatedCharacterAvatar,
  moderatedImageFile,
  reportContent,
  requestTakedown,
} from '../moderation/moderation.operations';
import type { Services } from '../operations/caller';
import { type Route, bodyObject, jsonBody } from './route';

/** Reports (members), takedown requests (anyone), notices, and the moderators-only view of content files. */
export function moderationRoutes(services: Services, route: Route): Router {
  const router = Router();
  const id = (req: Request) => String(req.params.id);
  const privately = { noStore: true };

  router.post(
    '/reports',
    jsonBody,
    route(async (req, res, caller) => res.status(201).json(await reportContent(services, caller, bodyObject(req))), privately),
  );
  router.post(
    '/takedown',
    jsonBody,
    route(async (req, res, caller) => res.status(201).json(await requestTakedown(services, caller, bodyObject(req))), privately),
  );
  router.get(
    '/notices',
    route(async (_req, res, caller) => res.json(await listNotices(services, caller)), privately),
  );
  router.delete(
    '/notices/:id',
    route(async (req, res, caller) => {
      await dismissNotice(services, caller, id(req));
      res.status(204).end();
    }, privately),
  );

  // Moderators see the item in context whatever its state; never cached, never public.
  router.get(
    '/moderation/images/:id/file',
    route(async (req, res, caller) => {
      const file = await moderatedImageFile(services, caller, id(req), req.query.variant);
      const object = await file.open();
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Length', String(object.size));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await pipeline(object.stream, res).catch(() => undefined);
    }, privately),
  );
  router.get(
    '/moderation/characters/:id/avatar',
    route(async (req, res, caller) => {
      const avatar = await moderatedCharacterAvatar(services, caller, id(req));
      res.setHeader('Content-Type', avatar.contentType);
      res.send(Buffer.from(avatar.bodyBase64, 'base64'));
    }, privately),
  );
  return router;
}
