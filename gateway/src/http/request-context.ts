import { randomUUID } from 'node:crypto';
import { logger } from '@app/kit';
import { AppError, HTTP_STATUS, type User } from '@app/schema';
import type { NextFunction, Request, Response } from 'express';
import { clientIp } from './client-ip';
import { readSessionToken } from './cookies';
import type { IdentityClient } from '../identity-client';
import type { Access } from '../session-cache';
import { retryAfterSeconds } from '../rest/send-error';

export interface RequestState {
  requestId: string;
  /** Epoch ms after which the session lookup and a GraphQL operation's service calls fail at once (GRAPHQL_EXECUTION_TIMEOUT_MS); REST routes that wait for a reply or an image keep their own limits. */
  deadlineAt: number;
  clientIp: string;
  sessionToken: string | null;
  /** The member behind the session or access token, and the token's scopes; resolved once per request, on first use. */
  access(): Promise<Access | null>;
  user(): Promise<User | null>;
}

declare module 'express-serve-static-core' {
  interface Request {
    state: RequestState;
  }
}

/**
 * The member behind a session token. A token identity refuses to read (e.g. it holds U+0000) is no session;
 * an identity that cannot answer fails the request with its code, status and Retry-After on every route.
 */
async function resolveSession(
  identity: IdentityClient,
  sessionToken: string | null,
  requestId: string,
  deadlineAt: number,
): Promise<Access | null> {
  try {
    return await identity.resolveSession(sessionToken, { requestId, deadlineAt });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'VALIDATION_FAILED') return null;
    throw withHttpHead(error);
  }
}

/** Apollo answers a request whose context failed with 500 unless the error's `extensions.http` says otherwise. */
function withHttpHead(error: AppError): AppError {
  const headers = new Map<string, string>();
  const retryAfter = retryAfterSeconds(error);
  if (retryAfter !== undefined) headers.set('retry-after', String(retryAfter));
  const http = { status: HTTP_STATUS[error.code], headers };
  return Object.assign(new AppError(error.code, error.message, error.details), { extensions: { code: error.code, http } });
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Gives every request an id, its client address and lazy session lookup, and logs it when it ends. */
export function requestContext(identity: IdentityClient, trustProxyHops: number, executionTimeoutMs: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && /^[\w.-]{1,64}$/.test(incomingId) ? incomingId : randomUUID();
    const deadlineAt = Date.now() + executionTimeoutMs;
    const sessionToken = readSessionToken(req.headers);
    let access: Promise<Access | null> | null = null;
    let userId: string | undefined;
    const resolveAccess = () => {
      access ??= resolveSession(identity, sessionToken, requestId, deadlineAt).then((resolved) => {
        userId = resolved?.user.id;
        return resolved;
      });
      return access;
    };
    req.state = {
      requestId,
      deadlineAt,
      clientIp: clientIp(req, trustProxyHops),
      sessionToken,
      access: resolveAccess,
      user: async () => (await resolveAccess())?.user ?? null,
    };
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      if (req.path === '/healthz' || req.path === '/readyz') return;
      // A REST write may have changed the member's balance or profile: their cached session is read afresh.
      // (GraphQL mutations do the same in the gateway's Apollo plugin; queries, POSTed too, keep it.)
      if (userId && !READ_METHODS.has(req.method) && !req.originalUrl.startsWith('/graphql')) identity.sessions.forgetMember(userId);
      logger.info(
        {
          requestId,
          userId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          latencyMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
