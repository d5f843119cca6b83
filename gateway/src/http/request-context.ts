import { randomUUID } from 'node:crypto';
import { type RequestContext, logger, runWithRequestContext } from '@app/kit';
import { AppError, HTTP_STATUS, type User } from '@app/schema';
import type { NextFunction, Request, Response } from 'express';
import { pinoHttp } from 'pino-http';
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
  /** Set once the session is read: the member the request acts for (for the access log). */
  userId?: string;
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

const UNLOGGED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The GraphQL operation a POST names, for the access log (bounded: a name, never the document). */
function operationNameOf(req: Request): string | undefined {
  const name = (req.body as { operationName?: unknown } | undefined)?.operationName;
  return typeof name === 'string' && /^[A-Za-z_]\w{0,63}$/.test(name) ? name : undefined;
}

/**
 * One access-log line per request (pino-http), when it finishes or is cut short: method, path without its
 * query, status, latency, request id, member id and GraphQL operation. Never headers: they carry cookies and tokens.
 */
const accessLog = pinoHttp<Request, Response>({
  logger,
  genReqId: (req) => req.state.requestId,
  autoLogging: { ignore: (req) => UNLOGGED_PATHS.has(req.path) },
  customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
  customSuccessMessage: () => 'request',
  customErrorMessage: () => 'request failed',
  customAttributeKeys: { responseTime: 'latencyMs', req: 'http', reqId: 'requestId' },
  quietReqLogger: true,
  // Known only once the request has run, so added to the finished line rather than bound up front.
  customSuccessObject: (req, _res, line: object) => ({ ...line, userId: req.state.userId, operationName: operationNameOf(req) }),
  customErrorObject: (req, _res, _error, line: object) => ({ ...line, userId: req.state.userId, operationName: operationNameOf(req) }),
  serializers: {
    req: (req: { method: string; raw: Request }) => ({ method: req.method, path: req.raw.originalUrl.split('?')[0] }),
    res: (res: { statusCode: number }) => ({ status: res.statusCode }),
  },
});

/** Gives every request an id, its client address and lazy session lookup, and logs it when it ends. */
export function requestContext(identity: IdentityClient, trustProxyHops: number, executionTimeoutMs: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && /^[\w.-]{1,64}$/.test(incomingId) ? incomingId : randomUUID();
    const deadlineAt = Date.now() + executionTimeoutMs;
    const sessionToken = readSessionToken(req.headers);
    let access: Promise<Access | null> | null = null;
    let userId: string | undefined;
    // Every log line of the request carries its id, and its member's once the session is read.
    const logContext: RequestContext = { requestId };
    const resolveAccess = () => {
      access ??= resolveSession(identity, sessionToken, requestId, deadlineAt).then((resolved) => {
        userId = resolved?.user.id;
        req.state.userId = userId;
        logContext.userId = userId;
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
      // A REST write may have changed the member's balance or profile: their cached session is read afresh.
      // (GraphQL mutations do the same in the gateway's Apollo plugin; queries, POSTed too, keep it.)
      if (userId && !READ_METHODS.has(req.method) && !req.originalUrl.startsWith('/graphql')) identity.sessions.forgetMember(userId);
    });
    accessLog(req, res);
    runWithRequestContext(logContext, next);
  };
}
