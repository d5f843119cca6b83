import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import type { PublicWebConfig } from './public-web-config';
import { webAppRouter } from './web-app';

const PUBLIC_CONFIG: PublicWebConfig = { brandName: 'Velvet AI', ageVerificationRequired: false, apiDocs: true, explorer: false };
const SCRIPT = 'export const greeting = "hello";\n'.repeat(50);

/** A built web app as Vite leaves it: hidden source maps sit next to the scripts they describe. */
function writeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>App</title></head><body></body></html>');
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["src/secret.ts"],"mappings":""}');
  fs.writeFileSync(path.join(dir, 'explorer.js.map'), '{"version":3}');
  return dir;
}

describe('webAppRouter', () => {
  const app = express();
  app.use(webAppRouter(writeWebDist(), PUBLIC_CONFIG));
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  const request = (pathname: string, { method = 'GET', encoding = 'identity' } = {}) =>
    new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
      const req = http.request(`${url}${pathname}`, { method, headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), type: String(res.headers['content-type']) }),
        );
      });
      req.on('error', reject);
      req.end();
    });

  it('serves the scripts, compressed or not', async () => {
    expect(await request('/assets/app-abc123.js')).toEqual(expect.objectContaining({ status: 200, body: SCRIPT }));
    expect((await request('/assets/app-abc123.js', { encoding: 'gzip' })).status).toBe(200);
  });

  it.each([
    ['/assets/app-abc123.js.map', 'identity'],
    ['/assets/app-abc123.js.map', 'gzip, br'],
    ['/assets/app-abc123.js%2Emap', 'identity'],
    ['/assets/app-abc123.js%2emap', 'gzip'],
    ['/assets/APP-ABC123.JS.MAP', 'identity'],
    ['/explorer.js.map', 'identity'],
  ])('does not serve the source map %s (Accept-Encoding: %s), not even as the app page', async (pathname, encoding) => {
    const answer = await request(pathname, { encoding });
    expect(answer.status).toBe(404);
    expect(answer.body).not.toContain('sources');
    expect(answer.type).toMatch(/^text\/plain/);
    expect((await request(pathname, { method: 'HEAD', encoding })).status).toBe(404);
  });

  it('still answers the app page at its own paths', async () => {
    const page = await request('/tos');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script src="/app-config.js"></script>');
  });
});

/** index.html as the web build writes it: the landing pre-rendered with the documented defaults (web/vite.config.ts). */
const RENDERED_WITH = {
  brandName: 'Velvet AI',
  mainSiteUrl: '/',
  socialCommunityUrl: 'https://discord.gg/velvetai',
  launchDate: '2025-10-01T00:00:00Z',
  apiDocs: true,
};
const LANDING_MARKUP = '<h1 id="hero-heading">Create with AI</h1>';
const APP_PRELOAD = '<link rel="modulepreload" crossorigin href="/assets/app-1234abcd.js" data-preload="app">';
const LANDING_PRELOAD = '<link rel="modulepreload" crossorigin href="/assets/landing-1234abcd.js" data-preload="landing">';
const PRERENDERED_INDEX = `<!doctype html><html><head><title>App</title>${LANDING_PRELOAD}${APP_PRELOAD}</head><body><!--static-landing--><div id="static-landing" data-rendered-with="${JSON.stringify(RENDERED_WITH).replace(/"/g, '&quot;')}">${LANDING_MARKUP}</div><!--/static-landing--><div id="root"></div></body></html>`;

function serveDist(publicConfig: PublicWebConfig) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), PRERENDERED_INDEX);
  const app = express().use(webAppRouter(dir, publicConfig));
  const server = app.listen(0);
  const get = (pathname: string, headers: http.OutgoingHttpHeaders = {}) =>
    new Promise<{ status: number; body: string; raw: Buffer; vary: string | undefined; encoding: string | undefined }>(
      (resolve, reject) => {
        const port = (server.address() as { port: number }).port;
        http
          .get(`http://127.0.0.1:${port}${pathname}`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const raw = Buffer.concat(chunks);
              resolve({
                status: res.statusCode!,
                body: raw.toString('utf8'),
                raw,
                vary: res.headers.vary,
                encoding: res.headers['content-encoding'],
              });
            });
          })
          .on('error', reject);
      },
    );
  return { get, close: () => server.close() };
}

describe('the pre-rendered landing', () => {
  it('is what a visitor on "/" gets first, with the public settings ahead of it', async () => {
    const web = serveDist(PUBLIC_CONFIG);
    try {
      const page = await web.get('/');
      expect(page.status).toBe(200);
      expect(page.body).toContain(LANDING_MARKUP);
      expect(page.body).toContain('<script src="/app-config.js"></script>');
      expect(page.body).toContain(LANDING_PRELOAD);
      expect(page.body).not.toContain(APP_PRELOAD);
      expect(page.vary).toMatch(/cookie/i);
      const compressed = await web.get('/', { 'accept-encoding': 'gzip' });
      expect(compressed.encoding).toBe('gzip');
      expect(zlib.gunzipSync(compressed.raw).toString('utf8')).toBe(page.body);
    } finally {
      web.close();
    }
  });

  it('is left out for a member (session cookie) on "/" and on every other page', async () => {
    const web = serveDist(PUBLIC_CONFIG);
    try {
      for (const page of [await web.get('/', { cookie: 'theme=dark; sid=abc' }), await web.get('/tos'), await web.get('/signin')]) {
        expect(page.status).toBe(200);
        expect(page.body).toContain(APP_PRELOAD);
        expect(page.body).not.toContain(LANDING_PRELOAD);
        expect(page.body).not.toContain(LANDING_MARKUP);
        expect(page.body).not.toContain('static-landing');
        expect(page.body).toContain('<div id="root"></div>');
      }
    } finally {
      web.close();
    }
  });

  it.each([
    ['another brand name', { brandName: 'Nightshade' }],
    ['another community link', { socialCommunityUrl: 'https://chat.example.com/invite' }],
    ['the API documentation off (no link to it)', { apiDocs: false }],
    ['a launch still ahead (the countdown runs)', { launchDate: new Date(Date.now() + 86_400_000).toISOString() }],
  ])('is left out when the settings show another landing: %s', async (_case, settings: Partial<PublicWebConfig>) => {
    const web = serveDist({ ...PUBLIC_CONFIG, ...settings });
    try {
      const page = await web.get('/');
      expect(page.status).toBe(200);
      expect(page.body).not.toContain(LANDING_MARKUP);
      expect(page.body).toContain('<div id="root"></div>');
      // The landing renders in the browser without the app's code: a visitor's "/" preloads the landing's alone.
      expect(page.body).not.toContain(APP_PRELOAD);
      expect(page.body).toContain(LANDING_PRELOAD);
      expect((await web.get('/signin')).body).toContain(APP_PRELOAD);
    } finally {
      web.close();
    }
  });

  it('is served with settings that only restate the defaults or set a past launch', async () => {
    const web = serveDist({ ...PUBLIC_CONFIG, mainSiteUrl: '/', socialCommunityUrl: ' ', launchDate: '2026-01-01T00:00:00Z' });
    try {
      expect((await web.get('/')).body).toContain(LANDING_MARKUP);
    } finally {
      web.close();
    }
  });
});
