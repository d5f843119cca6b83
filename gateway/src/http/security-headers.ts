import type { NextFunction, Request, Response } from 'express';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Chakra UI (emotion) injects style elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  next();
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
