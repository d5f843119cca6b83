import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
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
