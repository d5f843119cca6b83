import type { NextFunction, Request, Response } from 'express';

export interface SecurityHeadersOptions {
  /** Extra origins the page may connect to (fetch, sendBeacon), e.g. the analytics endpoint; URLs are reduced to their origin. */
  connectSrc?: readonly (string | null | undefined)[];
}

/** The Content-Security-Policy value; connect-src also lists each valid http(s) origin of `connectSrc`. */
export function contentSecurityPolicy({ connectSrc = [] }: SecurityHeadersOptions = {}): string {
  const extraOrigins = [...new Set(connectSrc.map(httpOrigin).filter((origin): origin is string => origin !== null))];
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Chakra UI (emotion) injects style elements at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self' ws: wss:", ...extraOrigins].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

export function createSecurityHeaders(options: SecurityHeadersOptions = {}): (req: Request, res: Response, next: NextFunction) => void {
  const csp = contentSecurityPolicy(options);
  return (req, res, next) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
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
  if (isSameOrigin(origin, req.headers.host)) return next();
  res.status(403).json({ message: 'Cross-site request refused', code: 'FORBIDDEN' });
}

export function isSameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return Boolean(host) && new URL(origin).host === host;
  } catch {
    return false;
  }
}
