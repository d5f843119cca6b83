import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { compressedAssets, preferredEncoding } from './compressed-assets';

describe('preferredEncoding', () => {
  it('prefers brotli, falls back to gzip, honours q=0 and absence', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip;q=0.8, br;q=0')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });
});

describe('compressedAssets', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assets-'));
  const source = 'export const greeting = "hello";\n'.repeat(200);
  fs.writeFileSync(path.join(dir, 'app-abc123.js'), source);
  fs.writeFileSync(path.join(dir, 'photo.png'), Buffer.from([1, 2, 3]));
  const app = express();
  app.use('/assets', compressedAssets(dir));
  app.use('/assets', (_req, res) => res.status(418).send('fell through'));
  let url: string;
  let server: ReturnType<typeof app.listen>;
  beforeAll(async () => {
    server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => server.close());

  const get = (file: string, encoding: string) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      void import('node:http').then(({ get: httpGet }) =>
        httpGet(`${url}/assets/${file}`, { headers: { 'accept-encoding': encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        }).on('error', reject),
      );
    });

  it('serves scripts brotli- or gzip-compressed, smaller than the source and decoding to it', async () => {
    const br = await get('app-abc123.js', 'gzip, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.body.length).toBeLessThan(source.length / 10);
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(source);
    const gz = await get('app-abc123.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(source);
  });

  it('leaves images, unknown files and clients without compression to the static handler', async () => {
    expect((await get('photo.png', 'br')).status).toBe(418);
    expect((await get('missing.js', 'br')).status).toBe(418);
    expect((await get('app-abc123.js', 'identity')).status).toBe(418);
    expect((await get('..%2F..%2Fetc%2Fpasswd.js', 'br')).status).toBe(418);
  });
});
