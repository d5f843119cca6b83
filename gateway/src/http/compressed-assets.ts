import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { NextFunction, Request, Response } from 'express';

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|map|txt|html)$/;
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};

type Encoding = 'br' | 'gzip';

/** Picks brotli, then gzip, from Accept-Encoding (q=0 refuses). */
export function preferredEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map(
    header.split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return [name!, q ? Number(q.slice(2)) : 1] as const;
    }),
  );
  for (const encoding of ['br', 'gzip'] as const) if ((accepted.get(encoding) ?? 0) > 0) return encoding;
  return null;
}

/**
 * Serves the hashed build assets compressed. Each file is compressed once, on first request, and kept in
 * memory: the assets are immutable, so this costs nothing per request and needs no build step.
 */
export function compressedAssets(assetsDir: string) {
  const cache = new Map<string, Buffer>();
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    let relative: string;
    try {
      relative = decodeURIComponent(req.path).replace(/^\/+/, '');
    } catch {
      // Not percent-encoded correctly ('/assets/%E0'): no such asset; the static handler answers it.
      return next();
    }
    if (!encoding || !COMPRESSIBLE.test(relative) || relative.includes('..')) return next();
    const file = path.join(assetsDir, relative);
    if (!file.startsWith(assetsDir + path.sep)) return next();
    const key = `${encoding}:${file}`;
    let body = cache.get(key);
    if (!body) {
      let raw: Buffer;
      try {
        raw = fs.readFileSync(file);
      } catch {
        return next();
      }
      body =
        encoding === 'br'
          ? zlib.brotliCompressSync(raw, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
            })
          : zlib.gzipSync(raw, { level: 9 });
      cache.set(key, body);
    }
    res.setHeader('Content-Type', CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream');
    res.setHeader('Content-Encoding', encoding);
    res.setHeader('Vary', 'Accept-Encoding');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Content-Length', String(body.length));
    if (req.method === 'HEAD') return void res.end();
    res.end(body);
  };
}
