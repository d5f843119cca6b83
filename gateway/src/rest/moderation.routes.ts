import { pipeline } from 'node:stream/promises';
import { AppError, IMAGE_VARIANTS, type ImageVariant, ReportInput, type User, hasRole, validationError } from '@app/schema';
import { type Request, type RequestHandler, type Response, Router } from 'express';
import type { ChatClient } from '../chat-client';
import type { IdentityClient } from '../identity-client';
import type { MediaClient } from '../media-client';
import type { ModerationTargets } from '../moderation/moderation-targets';

type Handler = (req: Request, res: Response, user: User | null) => Promise<void>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Reports (members), takedown requests (anyone), notices, and the moderators-only view of content files. */
export function moderationRoutes(
  services: { identity: IdentityClient; media: MediaClient; chat: ChatClient; targets: ModerationTargets },
  jsonBody: RequestHandler,
  bodyObject: (req: Request) => Record<string, unknown>,
  sendError: (res: Response, error: unknown) => void,
): Router {
  const { identity, media, chat, targets } = services;
  const router = Router();
  const meta = (req: Request, user: User | null) => ({ requestId: req.state.requestId, userId: user?.id });
  const id = (req: Request) => {
    const value = String(req.params.id);
    if (!UUID.test(value)) throw new AppError('NOT_FOUND', 'Not found');
    return value;
  };
  const on =
    (handler: Handler, needs: 'anyone' | 'member' | 'moderator'): RequestHandler =>
    (req, res) => {
      void (async () => {
        const user = await req.state.user();
        if (needs !== 'anyone' && !user) throw new AppError('UNAUTHENTICATED', 'Unauthorized');
        if (needs === 'moderator' && !hasRole(user!.role, 'moderator')) throw new AppError('FORBIDDEN', 'This needs the moderator role.');
        res.setHeader('Cache-Control', 'no-store');
        await handler(req, res, user);
      })().catch((error: unknown) => sendError(res, error));
    };

  router.post(
    '/reports',
    jsonBody,
    on(async (req, res, user) => {
      const body = bodyObject(req);
      const parsed = ReportInput.safeParse(body);
      if (!parsed.success) throw validationError(parsed.error);
      const target = await targets.forReport(parsed.data.targetKind, parsed.data.targetId, user!.id, meta(req, user));
      res.status(201).json(await identity.fileReport(user!.id, body, target, meta(req, user)));
    }, 'member'),
  );

  router.post(
    '/takedown',
    jsonBody,
    on(async (req, res, user) => {
      const body = bodyObject(req);
      const found = await targets.forTakedown(typeof body.content === 'string' ? body.content : '', meta(req, user));
      res.status(201).json(await identity.fileTakedown(body, found, req.state.clientIp, meta(req, user)));
    }, 'anyone'),
  );

  router.get(
    '/notices',
    on(async (req, res, user) => {
      res.json(await identity.listNotices(user!.id, meta(req, user)));
    }, 'member'),
  );
  router.delete(
    '/notices/:id',
    on(async (req, res, user) => {
      await identity.dismissNotice(user!.id, id(req), meta(req, user));
      res.status(204).end();
    }, 'member'),
  );

  // Moderators see the item in context whatever its state; never cached, never public.
  router.get(
    '/moderation/images/:id/file',
    on(async (req, res, user) => {
      const requested = typeof req.query.variant === 'string' ? req.query.variant : 'w512';
      const variant = (IMAGE_VARIANTS as readonly string[]).includes(requested) ? (requested as ImageVariant) : 'w512';
      const file = await media.locateModeratedImageFile(id(req), variant, meta(req, user));
      const object = await file.open();
      res.setHeader('Content-Type', file.contentType);
      res.setHeader('Content-Length', String(object.size));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await pipeline(object.stream, res).catch(() => undefined);
    }, 'moderator'),
  );
  router.get(
    '/moderation/characters/:id/avatar',
    on(async (req, res, user) => {
      const avatar = await chat.moderatedCharacterAvatar(id(req), meta(req, user));
      if (!avatar) throw new AppError('NOT_FOUND', 'This character has no avatar');
      res.setHeader('Content-Type', avatar.contentType);
      res.send(Buffer.from(avatar.bodyBase64, 'base64'));
    }, 'moderator'),
  );
  return router;
}
