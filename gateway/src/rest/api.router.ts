import { ACCESS_TOKEN_PREFIX, AppError } from '@app/schema';
import { Router } from 'express';
import {
  currentMember,
  dashboardStats,
  login,
  logout,
  myAchievements,
  myPlan,
  recordInterest,
  register,
  updateProfile,
} from '../account/account.operations';
import { createAccessToken, listAccessTokens, revokeAccessToken } from '../access-tokens/access-tokens.operations';
import { assertRequestAllowed } from '../access/token-scopes';
import { finalErrorHandler } from '../http/error-handler';
import type { Services } from '../operations/caller';
import { chatRoutes } from './chat.routes';
import { mediaRoutes } from './media.routes';
import { moderationRoutes } from './moderation.routes';
import { uploadRoutes } from './uploads.routes';
import { accountDataRoutes } from './account-data.routes';
import { bodyObject, jsonBody, routeFor } from './route';

/** Only a navigation from the site itself, or one the member typed or bookmarked, signs out: not another site's link or image. */
const SIGN_OUT_NAVIGATIONS = new Set(['same-origin', 'none']);

/** The compatible `/api` endpoints (SPEC §7): one-line adapters over the operations GraphQL uses too. */
export function apiRouter(services: Services, secureCookies: boolean): Router {
  const router = Router();
  const route = routeFor(secureCookies);

  // An access token reaches only what its scopes allow (browser sessions are not limited here).
  router.use(async (req, _res, next) => {
    if (!req.state.sessionToken?.startsWith(ACCESS_TOKEN_PREFIX)) return next();
    assertRequestAllowed(req.method, req.path, (await req.state.access())?.scopes ?? null);
    next();
  });

  router.get(
    '/user',
    route(async (_req, res, caller) => res.json(currentMember(caller)), { noStore: true }),
  );
  router.get('/login', (req, res) => res.redirect(302, signInPath(req.query['next'])));
  router.get(
    '/logout',
    route(async (req, res, caller) => {
      // SameSite=Lax sends the cookie on another site's navigation too; browsers say where one came from in Sec-Fetch-Site.
      if (SIGN_OUT_NAVIGATIONS.has(String(req.headers['sec-fetch-site']))) await logout(services, caller);
      res.redirect(302, '/');
    }),
  );
  // The same as a form post (another site's form is refused by its Origin), for clients that send no Sec-Fetch-Site.
  router.post(
    '/logout',
    route(async (_req, res, caller) => {
      await logout(services, caller);
      res.redirect(303, '/');
    }),
  );
  router.post(
    '/signout',
    route(async (_req, res, caller) => res.json({ ok: await logout(services, caller) })),
  );

  router.post(
    '/auth/register',
    jsonBody,
    route(async (req, res, caller) => res.status(201).json(await register(services, caller, bodyObject(req)))),
  );
  router.post(
    '/auth/login',
    jsonBody,
    route(async (req, res, caller) => res.json(await login(services, caller, bodyObject(req)))),
  );
  router.get(
    '/dashboard/stats',
    route(async (_req, res, caller) => res.json(await dashboardStats(services, caller))),
  );
  router.put(
    '/profile',
    jsonBody,
    route(async (req, res, caller) => res.json(await updateProfile(services, caller, bodyObject(req))), { noStore: true }),
  );
  router.get(
    '/achievements',
    route(async (_req, res, caller) => res.json(await myAchievements(services, caller)), { noStore: true }),
  );
  router.get(
    '/plan',
    route(async (_req, res, caller) => res.json(await myPlan(services, caller)), { noStore: true }),
  );
  router.post(
    '/interest',
    jsonBody,
    route(async (req, res, caller) => res.status(202).json(await recordInterest(services, caller, bodyObject(req)))),
  );

  router.get(
    '/tokens',
    route(async (_req, res, caller) => res.json(await listAccessTokens(services, caller)), { noStore: true }),
  );
  router.post(
    '/tokens',
    jsonBody,
    route(async (req, res, caller) => res.status(201).json(await createAccessToken(services, caller, bodyObject(req))), { noStore: true }),
  );
  router.delete(
    '/tokens/:id',
    route(async (req, res, caller) => res.json({ id: await revokeAccessToken(services, caller, String(req.params.id)) })),
  );

  router.use(chatRoutes(services, route));
  router.use(mediaRoutes(services, route));
  router.use(moderationRoutes(services, route));
  router.use(uploadRoutes(services, route));
  router.use(accountDataRoutes(services, route));

  router.use(() => {
    throw new AppError('NOT_FOUND', 'Not found');
  });
  // The one error path of `/api`: every AppError as `{ message, code }` with its status, anything else a logged 500.
  router.use(finalErrorHandler);
  return router;
}

const SAME_SITE_BASE = 'http://gateway.invalid';

/**
 * `/signin`, keeping `next` (where to return after signing in, as the web's own links set it) only when it is a path on
 * this site: never `//host`, `/\host` or an absolute URL (an open redirect). The web app checks it again.
 */
export function signInPath(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/')) return '/signin';
  let url: URL;
  try {
    url = new URL(next, SAME_SITE_BASE);
  } catch {
    return '/signin';
  }
  if (url.origin !== SAME_SITE_BASE || /^\/[/\\]/.test(url.pathname)) return '/signin';
  return `/signin?next=${encodeURIComponent(`${url.pathname}${url.search}${url.hash}`)}`;
}
