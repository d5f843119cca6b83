import { ACCESS_TOKEN_PREFIX, AppError, type User } from '@app/schema';
import { assertRequestAllowed } from '../access/token-scopes';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { clearedSessionCookie, sessionCookie } from '../http/cookies';
import { requestReadError } from '../http/error-handler';
import type { ChatClient } from '../chat-client';
import type { IdentityClient } from '../identity-client';
import type { MediaClient } from '../media-client';
import { chatRoutes } from './chat.routes';
import { mediaRoutes } from './media.routes';
import { moderationRoutes } from './moderation.routes';
import type { ContentAccess } from '../moderation/content-access';
import type { ModerationTargets } from '../moderation/moderation-targets';
import { sendError } from './send-error';

type Handler = (req: Request, res: Response) => Promise<void>;

/** Wraps a handler so every failure takes the one error path. */
const handle =
  (handler: Handler) =>
  (req: Request, res: Response): void => {
    handler(req, res).catch((error: unknown) => sendError(res, error));
  };

async function requireUser(req: Request): Promise<User> {
  const user = await req.state.user();
  if (!user) throw new AppError('UNAUTHENTICATED', 'Unauthorized');
  return user;
}

/** JSON bodies only: anything else is 415, malformed JSON is 400, and a body over 100 kB is 413. */
function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    sendError(res, new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send a JSON body with Content-Type: application/json'));
    return;
  }
  express.json({ limit: '100kb' })(req, res, (error?: unknown) => {
    if (error) return sendError(res, requestReadError(error, req) ?? error);
    if (isNestedDeeperThan(req.body, MAX_JSON_DEPTH))
      return sendError(res, new AppError('VALIDATION_FAILED', 'The request body is nested too deeply.'));
    next();
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Bodies are form-shaped; anything deeper is not ours, and would exhaust the stack when serialised for the bus. */
const MAX_JSON_DEPTH = 32;

function isNestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (!current || typeof current !== 'object') continue;
    if (depth >= maxDepth) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Only a navigation from the site itself, or one the member typed or bookmarked, signs out: not another site's link or image. */
const SIGN_OUT_NAVIGATIONS = new Set(['same-origin', 'none']);

const bodyObject = (req: Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};

/** The compatible `/api` endpoints (SPEC §7): thin handlers over the same service calls GraphQL uses. */
export function apiRouter(
  services: { identity: IdentityClient; chat: ChatClient; media: MediaClient; access: ContentAccess; targets: ModerationTargets },
  secureCookies: boolean,
): Router {
  const { identity, chat, media, access, targets } = services;
  const router = Router();
  const meta = (req: Request) => ({ requestId: req.state.requestId });
  const isSecure = (req: Request) => secureCookies || req.secure;
  const endSession = async (req: Request, res: Response) => {
    if (req.state.sessionToken) await identity.logout(req.state.sessionToken, meta(req));
    res.setHeader('Set-Cookie', clearedSessionCookie(isSecure(req)));
  };

  // An access token reaches only what its scopes allow (browser sessions are not limited here).
  router.use((req, res, next) => {
    if (!req.state.sessionToken?.startsWith(ACCESS_TOKEN_PREFIX)) return next();
    req.state
      .access()
      .then((access) => {
        assertRequestAllowed(req.method, req.path, access?.scopes ?? null);
        next();
      })
      .catch((error: unknown) => sendError(res, error));
  });

  router.get(
    '/user',
    handle(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await requireUser(req));
    }),
  );

  router.get('/login', (_req, res) => res.redirect(302, '/signin'));

  router.get(
    '/logout',
    handle(async (req, res) => {
      // SameSite=Lax sends the cookie on another site's navigation too; browsers say where one came from in Sec-Fetch-Site.
      if (SIGN_OUT_NAVIGATIONS.has(String(req.headers['sec-fetch-site']))) await endSession(req, res);
      res.redirect(302, '/');
    }),
  );

  // The same as a form post (another site's form is refused by its Origin), for clients that send no Sec-Fetch-Site.
  router.post(
    '/logout',
    handle(async (req, res) => {
      await endSession(req, res);
      res.redirect(303, '/');
    }),
  );

  router.post(
    '/signout',
    handle(async (req, res) => {
      await endSession(req, res);
      res.json({ ok: true });
    }),
  );

  router.post(
    '/auth/register',
    jsonBody,
    handle(async (req, res) => {
      const result = await identity.register(bodyObject(req), req.state.clientIp, meta(req));
      res.setHeader('Set-Cookie', sessionCookie(result.session.token, new Date(result.session.expiresAt), isSecure(req)));
      res.status(201).json(result.user);
    }),
  );

  router.post(
    '/auth/login',
    jsonBody,
    handle(async (req, res) => {
      const result = await identity.login(bodyObject(req), req.state.clientIp, meta(req));
      res.setHeader('Set-Cookie', sessionCookie(result.session.token, new Date(result.session.expiresAt), isSecure(req)));
      res.json(result.user);
    }),
  );

  router.get(
    '/dashboard/stats',
    handle(async (req, res) => {
      res.json(await identity.getStats((await requireUser(req)).id, meta(req)));
    }),
  );

  router.post(
    '/interest',
    jsonBody,
    handle(async (req, res) => {
      const user = await req.state.user();
      await identity.recordInterest(bodyObject(req), user?.id ?? null, req.state.clientIp, meta(req));
      res.status(202).json({ recorded: true });
    }),
  );

  router.get(
    '/tokens',
    handle(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.json(await identity.listAccessTokens((await requireUser(req)).id, meta(req)));
    }),
  );

  router.post(
    '/tokens',
    jsonBody,
    handle(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json(await identity.createAccessToken((await requireUser(req)).id, bodyObject(req), meta(req)));
    }),
  );

  router.delete(
    '/tokens/:id',
    handle(async (req, res) => {
      const user = await requireUser(req);
      const tokenId = String(req.params.id);
      if (!UUID.test(tokenId)) throw new AppError('NOT_FOUND', 'Access token not found');
      res.json({ id: await identity.revokeAccessToken(user.id, tokenId, meta(req)) });
    }),
  );

  router.use(chatRoutes(chat, access, jsonBody, bodyObject, sendError));
  router.use(mediaRoutes(media, access, jsonBody, bodyObject, sendError));
  router.use(moderationRoutes({ identity, media, chat, targets }, jsonBody, bodyObject, sendError));

  router.use((_req, res) => sendError(res, new AppError('NOT_FOUND', 'Not found')));
  return router;
}
