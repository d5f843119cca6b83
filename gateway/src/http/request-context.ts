import { randomUUID } from 'node:crypto';
import { logger } from '@app/kit';
import type { User } from '@app/schema';
import type { NextFunction, Request, Response } from 'express';
import { clientIp } from './client-ip';
import { readSessionToken } from './cookies';
import type { IdentityClient } from '../identity-client';

export interface RequestState {
  requestId: string;
  clientIp: string;
  sessionToken: string | null;
  /** Resolved once per request, on first use. */
  user(): Promise<User | null>;
}

declare module 'express-serve-static-core' {
  interface Request {
    state: RequestState;
  }
}

/** Gives every request an id, its client address and lazy session lookup, and logs it when it ends. */
export function requestContext(identity: IdentityClient, trustProxyHops: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && /^[\w.-]{1,64}$/.test(incomingId) ? incomingId : randomUUID();
    const sessionToken = readSessionToken(req.headers);
    let user: Promise<User | null> | null = null;
    let userId: string | undefined;
    req.state = {
      requestId,
      clientIp: clientIp(req, trustProxyHops),
      sessionToken,
      user: () => {
        user ??= identity.resolveSession(sessionToken, { requestId }).then((resolved) => {
          userId = resolved?.id;
          return resolved;
        });
        return user;
      },
    };
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      if (req.path === '/healthz' || req.path === '/readyz') return;
      logger.info(
        {
          requestId,
          userId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          latencyMs: Math.round((performance.now() - started) * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
