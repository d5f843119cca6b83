import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

export interface SecurityHeadersOptions {
  /** Extra origins the page may connect to (fetch, sendBeacon), e.g. the analytics endpoint; URLs are reduced to their origin. */
  connectSrc?: readonly (string | null | undefined)[];
}

/** The CSP directives; connect-src is the page's own origin (its WebSocket included, CSP 3) plus each valid http(s) origin of `connectSrc`. */
function cspDirectives({ connectSrc = [] }: SecurityHeadersOptions): Record<string, string[]> {
  const extraOrigins = [...new Set(connectSrc.map(httpOrigin).filter((origin): origin is string => origin !== null))];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    // Chakra UI (emotion) injects style elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...extraOrigins],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
  };
}

/** The Content-Security-Policy value, as sent. */
export function contentSecurityPolicy(options: SecurityHeadersOptions = {}): string {
  return Object.entries(cspDirectives(options))
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/** helmet's headers on every response, health checks included; HSTS only on requests that arrived over HTTPS. */
export function createSecurityHeaders(options: SecurityHeadersOptions = {}): (req: Request, res: Response, next: NextFunction) => void {
  const headers = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(options) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: true });
  return (req, res, next) => headers(req, res, () => (req.secure ? hsts(req, res, next) : next()));
}

/** Only an absolute http(s) URL yields an origin: a relative endpoint is same-origin already, and nothing else may reach the header. */
function httpOrigin(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** Mutating requests from another site's page are refused (browsers always send Origin on them). */
export function sameOriginWrites(req: Request, res: Response, next: NextFunction): void {
  const origin = req.headers.origin;
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || !origin) return next();
  if (isSameOrigin(origin, `${req.protocol}://${req.headers.host}`)) return next();
  res.status(403).json({ message: 'Cross-site request refused', code: 'FORBIDDEN' });
}

/** The origin a raw request (a WebSocket upgrade) was addressed to; the scheme comes from a trusted proxy's X-Forwarded-Proto. */
export function requestOrigin(req: IncomingMessage, trustProxyHops: number): string {
  const encrypted = 'encrypted' in req.socket && Boolean(req.socket.encrypted);
  const forwarded =
    trustProxyHops > 0
      ? String(req.headers['x-forwarded-proto'] ?? '')
          .split(',')[0]!
          .trim()
      : '';
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : encrypted ? 'https' : 'http';
  return `${scheme}://${req.headers.host}`;
}

/** Scheme, host and port must all match: an https page may not drive an http site, nor the reverse. */
export function isSameOrigin(origin: string, expected: string): boolean {
  try {
    return new URL(origin).origin === new URL(expected).origin;
  } catch {
    return false;
  }
}
