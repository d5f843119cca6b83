import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { healthHandler } from './service';

describe("a standalone service's health endpoint", () => {
  let server: http.Server;
  let url: string;
  let ready = true;

  beforeAll(async () => {
    const handle = healthHandler(async () => ready);
    server = http.createServer((req, res) => void handle(req, res).then((handled) => handled || res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers GET and HEAD on /healthz and /readyz with the readiness status, nosniff and no-store', async () => {
    ready = false;
    const head = await fetch(`${url}/readyz`, { method: 'HEAD', signal: AbortSignal.timeout(2000) });
    expect([head.status, head.headers.get('x-content-type-options'), head.headers.get('cache-control')]).toEqual([
      503,
      'nosniff',
      'no-store',
    ]);
    expect(await head.text()).toBe('');
    ready = true;
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${url}/healthz`, { method: 'HEAD', signal: AbortSignal.timeout(2000) })).status).toBe(200);
  });

  it('leaves other methods and paths to the caller', async () => {
    expect((await fetch(`${url}/healthz`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${url}/metrics`)).status).toBe(404);
  });
});
