import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, Router } from 'express';
import { compressedAssets } from './compressed-assets';
import type { PublicWebConfig } from './public-web-config';

/** Serves the built web app: hashed assets cached for a year, every other page path gets index.html. */
export function webAppRouter(webDist: string, publicConfig: PublicWebConfig): Router {
  const router = Router();
  const configScript = `window.__APP_CONFIG__ = ${JSON.stringify(publicConfig).replace(/</g, '\\u003c')};\n`;
  router.get('/app-config.js', (_req, res) => {
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(configScript);
  });

  const indexFile = path.join(webDist, 'index.html');
  if (!fs.existsSync(indexFile)) {
    router.get(/^\/(?!api\/|graphql).*/, (_req, res) => {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build:web` (npm start does this for you).');
    });
    return router;
  }
  const indexHtml = fs.readFileSync(indexFile, 'utf8').replace('<head>', '<head>\n    <script src="/app-config.js"></script>');
  router.use('/assets', compressedAssets(path.join(webDist, 'assets')));
  router.use(
    '/assets',
    express.static(path.join(webDist, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: false }),
  );
  router.use(express.static(webDist, { index: false, maxAge: '1h' }));
  // Express routes HEAD here too; res.send answers it with the headers alone.
  router.get(/^\/(?!api\/|api$|graphql).*/, (_req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(indexHtml);
  });
  return router;
}
