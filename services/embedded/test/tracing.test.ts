import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createTestDatabase, hasNats, hasPostgres } from '../../kit/test/test-infra';
import { TestClient, registration } from '../../../gateway/test/http-client';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '..', '..', '..');
const MAIN = path.join(ROOT, 'services', 'embedded', 'dist', 'main.js');

/** OTLP span kinds as OTLP/JSON numbers them. */
const SERVER = 2;
const CLIENT = 3;

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] };
    scopeSpans: { spans: (Omit<ReceivedSpan, 'service' | 'attributes'> & { attributes: OtlpAttribute[] })[] }[];
  }[];
}

const attributesOf = (list: OtlpAttribute[]) =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue]));

/** A collector as small as the exporter needs: it accepts OTLP/HTTP JSON on /v1/traces and keeps every span. */
class OtlpCollector {
  readonly spans: ReceivedSpan[] = [];
  readonly requests: { path: string; contentType: string | undefined }[] = [];
  private readonly server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      this.requests.push({ path: req.url ?? '', contentType: req.headers['content-type'] });
      if (req.method === 'POST' && req.url === '/v1/traces' && req.headers['content-type'] === 'application/json') {
        for (const resourceSpans of (JSON.parse(body) as OtlpExport).resourceSpans) {
          const service = String(attributesOf(resourceSpans.resource.attributes)['service.name']);
          for (const { spans } of resourceSpans.scopeSpans) {
            for (const span of spans) this.spans.push({ ...span, service, attributes: attributesOf(span.attributes) });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** `span`'s ancestors within its trace, nearest first. */
  ancestorsOf(span: ReceivedSpan): ReceivedSpan[] {
    const chain: ReceivedSpan[] = [];
    for (let current = span; current.parentSpanId; ) {
      const parent = this.spans.find((candidate) => candidate.traceId === span.traceId && candidate.spanId === current.parentSpanId);
      if (!parent) break;
      chain.push(parent);
      current = parent;
    }
    return chain;
  }
}

/** Products still running when a test ends (it failed before stopping them). */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
});

/** The product as `npm start` runs it (the built code, plain node): its URL, and SIGTERM, after which its log lines are all there. */
async function startProduct(env: Record<string, string>): Promise<{ url: string; stop(): Promise<Record<string, unknown>[]> }> {
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'info',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: `memory://tracing-${randomUUID()}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const ready = /Ready: (http:\/\/\S+)/.exec(stdout);
      if (ready) {
        clearInterval(poll);
        resolve(ready[1]!);
      }
    }, 100);
    void exited.then((code) => {
      clearInterval(poll);
      reject(new Error(`the product exited (${code}) before it was ready:\n${stdout}\n${stderr}`));
    });
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      return stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
  };
}

/** A member signs up: the gateway calls identity over the bus, identity writes to its database. */
async function register(url: string): Promise<string> {
  const response = await new TestClient(url).fetch('/api/auth/register', { method: 'POST', json: registration() });
  expect(response.status).toBe(201);
  return response.headers.get('x-request-id')!;
}

interface Target {
  name: string;
  env(): Promise<{ env: Record<string, string>; cleanup(): Promise<void> }>;
  /** The name of a database span under the service's: pg's instrumentation on PostgreSQL, the kit's own on PGlite. */
  queryName: RegExp;
}

const targets: Target[] = [
  { name: 'embedded', env: async () => ({ env: {}, cleanup: async () => undefined }), queryName: /^pglite\.query:/ },
];
if (hasPostgres() && hasNats()) {
  targets.push({
    name: 'distributed (PostgreSQL + NATS)',
    env: async () => {
      const database = await createTestDatabase();
      return { env: { DATABASE_URL: database.url, NATS_URL: process.env.NATS_URL! }, cleanup: () => database.drop() };
    },
    queryName: /^pg\.query:/,
  });
}

beforeAll(() => {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: build with npx tsc -b services/embedded first`);
});

describe.each(targets)('tracing: $name', (target) => {
  it('follows one request from the gateway across the bus into identity and its database, flushed at shutdown', async () => {
    const collector = new OtlpCollector();
    const infra = await target.env();
    try {
      const endpoint = await collector.start();
      const product = await startProduct({ ...infra.env, TRACING_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
      const requestId = await register(product.url);
      const lines = await product.stop();

      expect(collector.requests.length).toBeGreaterThan(0);
      expect(collector.requests.every((request) => request.path === '/v1/traces' && request.contentType === 'application/json')).toBe(true);
      const httpSpan = collector.spans.find((span) => span.kind === SERVER && span.name === 'POST /api/auth/register');
      expect(httpSpan).toBeDefined();
      const trace = collector.spans.filter((span) => span.traceId === httpSpan!.traceId);
      const client = trace.find((span) => span.kind === CLIENT && span.name === 'rpc svc.identity.register');
      const served = trace.find((span) => span.kind === SERVER && span.name === 'rpc svc.identity.register');
      expect(client).toBeDefined();
      expect(served).toMatchObject({ parentSpanId: client!.spanId, service: 'platform' });
      expect(collector.ancestorsOf(client!)).toContain(httpSpan);
      expect(served!.attributes).toMatchObject({ 'bus.subject': 'svc.identity.register', 'request.id': requestId, 'rpc.outcome': 'ok' });
      const queries = trace.filter((span) => target.queryName.test(span.name) && collector.ancestorsOf(span).includes(served!));
      expect(queries.length).toBeGreaterThan(0);
      expect(queries.some((span) => /INSERT/.test(String(span.attributes['db.query.text'])))).toBe(true);

      // Every log line of that request carries its id and its trace: the access log and identity's rpc line at least.
      const ofRequest = lines.filter((line) => line.traceId === httpSpan!.traceId);
      expect(ofRequest.map((line) => line.msg)).toEqual(expect.arrayContaining(['rpc', 'request']));
      for (const line of ofRequest) expect(line.requestId).toBe(requestId);
      expect(lines.filter((line) => line.requestId === requestId).every((line) => line.traceId === httpSpan!.traceId)).toBe(true);
    } finally {
      await collector.stop();
      await infra.cleanup();
    }
  });
});

describe('tracing off (TRACING_EXPORTER unset)', () => {
  it('sends nothing, and still puts the request id on every log line of the request', async () => {
    const collector = new OtlpCollector();
    try {
      const product = await startProduct({ OTEL_EXPORTER_OTLP_ENDPOINT: await collector.start() });
      const requestId = await register(product.url);
      const lines = await product.stop();

      expect(collector.requests).toEqual([]);
      const ofRequest = lines.filter((line) => line.requestId === requestId);
      expect(ofRequest).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ msg: 'request', http: { method: 'POST', path: '/api/auth/register' } }),
          expect.objectContaining({ msg: 'rpc', subject: 'svc.identity.register' }),
        ]),
      );
      for (const line of ofRequest) expect(line).not.toHaveProperty('traceId');
    } finally {
      await collector.stop();
    }
  });
});
