import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, Router } from 'express';
import { compressedAssets } from './compressed-assets';
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
  const indexHtml = withAppConfig(fs.readFileSync(indexFile, 'utf8'));
  const sendIndex = (res: Response, status = 200) => {
    res.status(status).setHeader('Cache-Control', 'no-cache');
    res.type('html').send(indexHtml);
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
