import type http from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';

export interface ConnectionLimits {
  /** Time to receive a request's headers. */
  headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body. */
  requestTimeoutMs: number;
  /** Longest pause while a body is arriving before the request is dropped with 408. */
  bodyIdleTimeoutMs: number;
  /** How long an idle keep-alive connection stays open for the next request. */
  keepAliveTimeoutMs: number;
  /** Open connections (HTTP and WebSocket) one address may hold; 0 turns the limit off. */
  maxConnectionsPerAddress: number;
}

/** How often Node checks headers and request timeouts; its default (30 s) would let them overrun by that much. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

export const httpServerOptions: http.ServerOptions = { connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS };

/** Applies the timeouts and the per-address connection cap to the gateway's server, before it listens. */
export function limitConnections(server: http.Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  if (limits.maxConnectionsPerAddress <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}

/** A body that stalls is answered 408 and its connection closed; once it has arrived, slow answers are fine. */
export function bodyIdleTimeout(timeoutMs: number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req)) return next();
    const socket = req.socket;
    const onStall = () => {
      if (!res.headersSent) {
        res.setHeader('Connection', 'close');
        res.status(408).json({ message: 'The request body stopped arriving; please send it again.', code: 'TIMEOUT' });
      }
      socket.destroySoon();
    };
    // Node's server emits the socket's timeout on an incomplete request that listens for it, instead of destroying the socket.
    req.once('timeout', onStall);
    socket.setTimeout(timeoutMs);
    req.once('end', () => {
      req.off('timeout', onStall);
      socket.setTimeout(0);
    });
    next();
  };
}

/** Whether a body is still to arrive: announced by Transfer-Encoding or a positive Content-Length, and not yet read. */
export function hasBody(req: Request): boolean {
  if (req.readableEnded) return false;
  if (req.headers['transfer-encoding']) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return Number.isFinite(length) && length > 0;
}
