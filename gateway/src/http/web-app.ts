import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import express, { type Request, type Response, Router } from 'express';
import { compressedAssets, preferredEncoding } from './compressed-assets';
import { readCookie, SESSION_COOKIE } from './cookies';
import type { PublicWebConfig } from './public-web-config';

/** Where the GraphQL explorer (web/explorer.html, its own Vite entry) is served. */
export const EXPLORER_PATH = '/developers/explorer';
const EXPLORER_FILE = 'explorer.html';
const SOURCE_MAP = /\.map\/*$/i;

/**
 * Serves the built web app: hashed assets cached for a year, every other page path gets index.html, and
 * the GraphQL explorer at EXPLORER_PATH unless `publicConfig.explorer` is off (then that path is a 404 page).
 */
export function webAppRouter(webDist: string, publicConfig: PublicWebConfig): Router {
  const router = Router();
  const configScript = `window.__APP_CONFIG__ = ${JSON.stringify(publicConfig).replace(/</g, '\\u003c')};\n`;
  router.get('/app-config.js', (_req, res) => {
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(configScript);
  });

  // Source maps are built (hidden) for error reports only: they would hand out the app's source.
  router.use((req, res, next) => {
    if (!SOURCE_MAP.test(decodedPath(req.path))) return next();
    res.status(404).type('text/plain').send('Not found');
  });

  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    router.get(/^\/(?!api\/|graphql).*/, (_req, res) => {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web` (npm start does this for you).');
    });
    return router;
  }
  const { shell, visitorShell, landing } = splitStaticLanding(withAppConfig(fs.readFileSync(indexFile, 'utf8')), publicConfig);
  const sendIndex = (res: Response, status = 200) => {
    res.status(status).setHeader('Cache-Control', 'no-cache');
    res.type('html').send(shell);
  };
  router.use('/assets', compressedAssets(path.join(webDist, 'assets')));
  router.use(
    '/assets',
    express.static(path.join(webDist, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }),
  );
  // The explorer has one address, the one GRAPHQL_EXPLORER_ENABLED governs, not also its file's.
  router.get(`/${EXPLORER_FILE}`, (_req, res) => sendIndex(res, 404));
  router.get(EXPLORER_PATH, explorerPage(webDist, publicConfig, sendIndex));
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));
  // A visitor on "/" gets the pre-rendered landing, or where it renders in the browser (custom settings, a countdown) the
  // page that starts it; a member (session cookie) the app's own first screen, without a landing flash.
  const sendLanding = landing && compressedPage(landing);
  router.get('/', (req, res, next) => {
    res.vary('Cookie');
    if (readCookie(req.headers, SESSION_COOKIE)) return next();
    if (sendLanding && isLaunched(publicConfig.launchDate)) return sendLanding(req, res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(visitorShell);
  });
  // Express routes HEAD here too; res.send answers it with the headers alone.
  router.get(/^\/(?!api\/|api$|graphql).*/, (_req: Request, res: Response) => sendIndex(res));
  return router;
}

/** The explorer's page, or the app's not-found page with a 404 when it is turned off or was not built. */
function explorerPage(webDist: string, publicConfig: PublicWebConfig, sendIndex: (res: Response, status: number) => void) {
  const explorerFile = path.join(webDist, EXPLORER_FILE);
  const explorerHtml = publicConfig.explorer && fs.existsSync(explorerFile) ? withAppConfig(fs.readFileSync(explorerFile, 'utf8')) : null;
  return (_req: Request, res: Response) => {
    if (!explorerHtml) return sendIndex(res, 404);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(explorerHtml);
  };
}

const STATIC_LANDING = /<!--static-landing-->[\s\S]*?<!--\/static-landing-->/;
const RENDERED_WITH = /<div id="static-landing" data-rendered-with="([^"]*)"/;
/** The app's and the landing's chunks (web/vite.config.ts, "preload-app-entry"); each page keeps the ones it starts with. */
const APP_PRELOADS = /\s*<link rel="modulepreload"[^>]*\bdata-preload="app"[^>]*>/g;
const LANDING_PRELOADS = /\s*<link rel="modulepreload"[^>]*\bdata-preload="landing"[^>]*>/g;
type RenderedWith = Record<string, string | boolean | undefined>;

/**
 * The web build writes the landing page's markup into index.html (web/vite.config.ts, "prerender-landing"),
 * rendered with the documented defaults it records in `data-rendered-with`. `landing` is that page when these
 * settings show the same one (null otherwise: the app renders it); `shell` is index.html without it.
 */
export function splitStaticLanding(
  html: string,
  publicConfig: PublicWebConfig,
): { shell: string; visitorShell: string; landing: string | null } {
  const withoutCopy = html.replace(STATIC_LANDING, '');
  // The app's pages start the app; a visitor's "/" starts the landing alone (web/src/main.tsx), without the app's code.
  const shell = withoutCopy.replace(LANDING_PRELOADS, '');
  const visitorShell = withoutCopy.replace(APP_PRELOADS, '');
  const encoded = RENDERED_WITH.exec(html)?.[1];
  if (withoutCopy === html || !encoded) return { shell, visitorShell, landing: null };
  const renderedWith = JSON.parse(encoded.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as RenderedWith;
  const landing = html.replace(APP_PRELOADS, '');
  return { shell, visitorShell, landing: showsSameLanding(publicConfig, renderedWith) ? landing : null };
}

/** Blank settings fall back to the defaults, as in the web app (web/src/lib/app-config.ts). */
function showsSameLanding(publicConfig: PublicWebConfig, renderedWith: RenderedWith): boolean {
  const configured = publicConfig as unknown as Record<string, unknown>;
  const sameTexts = Object.entries(renderedWith).every(([key, value]) => {
    if (typeof value !== 'string' || key === 'launchDate') return true;
    const setting = configured[key];
    return (typeof setting === 'string' && setting.trim() ? setting : value) === value;
  });
  return sameTexts && publicConfig.apiDocs === renderedWith['apiDocs'] && isLaunched(String(renderedWith['launchDate']));
}

/**
 * The landing page is large (its markup and styles inline), so it goes out compressed, each encoding made once.
 */
function compressedPage(html: string): (req: Request, res: Response) => void {
  const raw = Buffer.from(html, 'utf8');
  const bodies = {
    br: zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: zlib.gzipSync(raw, { level: 9 }),
  };
  return (req, res) => {
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    res.setHeader('Cache-Control', 'no-cache');
    res.vary('Accept-Encoding');
    res.type('html');
    if (!encoding) return void res.send(html);
    res.setHeader('Content-Encoding', encoding);
    res.send(bodies[encoding]);
  };
}

/** The pre-rendered landing is the launched one (no countdown running); before the launch the app renders it. */
function isLaunched(launchDate: string | undefined): boolean {
  return launchDate === undefined || Date.parse(launchDate) <= Date.now();
}

/** Both pages read the public settings before their own scripts run. */
function withAppConfig(html: string): string {
  return html.replace('<head>', '<head>\n    <script src="/app-config.js"></script>');
}

/** The path as the static file handlers read it (`%2Emap` is `.map` to them); a malformed escape stays as sent. */
function decodedPath(requestPath: string): string {
  try {
    return decodeURIComponent(requestPath);
  } catch {
    return requestPath;
  }
}
