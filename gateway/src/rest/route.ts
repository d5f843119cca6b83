import { AppError } from '@app/schema';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { clearedSessionCookie, sessionCookie } from '../http/cookies';
import { requestReadError } from '../http/error-handler';
import type { Caller } from '../operations/caller';

/** Who calls a REST route: the member behind the session cookie or access token (read once per request). */
export async function callerOf(req: Request, res: Response, secureCookies: boolean): Promise<Caller> {
  const access = await req.state.access();
  const user = access?.user ?? null;
  const secure = secureCookies || req.secure;
  return {
    user,
    scopes: access?.scopes ?? null,
    isOperator: false,
    clientIp: req.state.clientIp,
    // No deadlineAt: routes that wait for a reply or an image keep their own limits.
    meta: { requestId: req.state.requestId, userId: user?.id },
    session: {
      token: req.state.sessionToken,
      start: (token, expiresAt) => res.append('Set-Cookie', sessionCookie(token, expiresAt, secure)),
      end: () => res.append('Set-Cookie', clearedSessionCookie(secure)),
    },
  };
}

export type RouteHandler = (req: Request, res: Response, caller: Caller) => Promise<unknown>;
/** A REST handler with its caller; `noStore` answers (errors included) are never cached. */
export type Route = (handler: RouteHandler, options?: { noStore?: boolean }) => RequestHandler;

/**
 * The one REST wrapper: builds the caller and runs the handler. Express 5 forwards a rejected handler to the
 * router's one error handler, so no route catches its own failures.
 */
export function routeFor(secureCookies: boolean): Route {
  return (handler, { noStore = false } = {}) =>
    async (req, res) => {
      if (noStore) res.setHeader('Cache-Control', 'no-store');
      await handler(req, res, await callerOf(req, res, secureCookies));
    };
}

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

/** JSON bodies only: anything else is 415, malformed JSON is 400, and a body over 100 kB is 413. */
export function jsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send a JSON body with Content-Type: application/json'));
    return;
  }
  express.json({ limit: '100kb' })(req, res, (error?: unknown) => {
    if (error) return next(requestReadError(error, req) ?? error);
    if (isNestedDeeperThan(req.body, MAX_JSON_DEPTH))
      return next(new AppError('VALIDATION_FAILED', 'The request body is nested too deeply.'));
    next();
  });
}

/** As jsonBody, for endpoints whose body is optional: a request without one reads as an empty form. */
export function optionalJsonBody(req: Request, res: Response, next: NextFunction): void {
  // No body at all, or an empty one (Content-Length: 0, as many clients send with a bare POST).
  if (!req.headers['transfer-encoding'] && !Number(req.headers['content-length'] ?? 0)) return next();
  jsonBody(req, res, next);
}

/** The JSON body as an object; anything else (an array, a bare value) is an empty form. */
export const bodyObject = (req: Request): Record<string, unknown> =>
  req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
