import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { defineRpc } from '@app/schema';
import { z } from 'zod';
import { InProcessBus } from './bus';
import { healthHandler, metricsHandler } from './service';

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

describe("a standalone service's /metrics on its health port", () => {
  const servers: http.Server[] = [];
  const serve = async (token: string | null) => {
    const handle = metricsHandler(token);
    const server = http.createServer((req, res) => void handle(req, res).then((handled) => handled || res.writeHead(404).end()));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  };
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it("serves the process's series, its bus calls included, to whoever reaches the internal port when no token is set", async () => {
    const bus = InProcessBus.open();
    const echo = defineRpc('svc.metricsprobe.echo', z.object({ text: z.string() }), z.object({ text: z.string() }));
    await bus.serve(echo, async ({ text }) => ({ text }));
    await bus.request(echo, { text: 'hi' });
    await bus.close();

    const response = await fetch(await serve(null));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await response.text();
    expect(body).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(body).toMatch(/^bus_request_duration_seconds_count\{subject="svc\.metricsprobe\.echo",outcome="ok"\} 1$/m);
  });

  it('asks for METRICS_TOKEN as a bearer token when one is set', async () => {
    const url = await serve('a-metrics-token-0123456789');
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer a-metrics-token-012345678X' } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer a-metrics-token-0123456789' } })).status).toBe(200);
  });
});
