import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { UpstreamError } from './upstream-error';
import { UpstreamExchange, type UpstreamExchangeOptions, type UpstreamWording } from './upstream-exchange';

const WORDING: UpstreamWording = {
  provider: 'The test API',
  cancelled: 'The call was cancelled',
  totalTimeout: (limit) => `The test API took longer than ${limit}`,
  urlHint: 'check TEST_API_URL',
};
const KEY = 'sk-test-SECRET-0123456789abcdef';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** A local API whose behaviour each test sets; it records whether the client hung up before the answer ended. */
let handler: Handler = (_req, res) => res.end();
let requests = 0;
let clientHungUp: Promise<boolean> = Promise.resolve(false);
const server = http.createServer((req, res) => {
  requests++;
  clientHungUp = new Promise((resolve) => res.on('close', () => resolve(!res.writableFinished)));
  handler(req, res);
});
const sockets = new Set<net.Socket>();
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});
let url: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  requests = 0;
});

const exchangeWith = (options: Partial<UpstreamExchangeOptions> = {}) =>
  new UpstreamExchange({ wording: WORDING, connectTimeoutMs: 2_000, totalTimeoutMs: 5_000, secrets: [KEY], ...options });

/** Runs `work` inside a started exchange the way adapters do, returning its result or its UpstreamError. */
async function within<T>(exchange: UpstreamExchange, work: (exchange: UpstreamExchange) => Promise<T>): Promise<T | UpstreamError> {
  try {
    exchange.start();
    return await work(exchange);
  } catch (error) {
    return exchange.failure(error);
  } finally {
    exchange.dispose();
  }
}

const get = (exchange: UpstreamExchange, path = '/') => exchange.fetch(`${url}${path}`, { method: 'GET', headers: {} });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function later(res: http.ServerResponse, ms: number, write: () => void): void {
  const timer = setTimeout(write, ms);
  res.on('close', () => clearTimeout(timer));
}

/** A TCP server that accepts connections and never says anything: a TLS handshake with it never ends. */
async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const open = new Set<net.Socket>();
  const silent = net.createServer((socket) => {
    open.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  return {
    port: (silent.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        silent.close(() => resolve());
      }),
  };
}

describe('UpstreamExchange time limits', () => {
  it('stops at the connect limit while waiting for the headers, by default', async () => {
    handler = (_req, res) => later(res, 1_000, () => res.end('late'));
    const started = Date.now();
    const outcome = await within(exchangeWith({ connectTimeoutMs: 100 }), get);
    expect(outcome).toMatchObject({
      kind: 'timeout',
      stoppedBy: 'connect',
      retryable: true,
      message: 'The test API did not answer within 100 ms',
    });
    expect(Date.now() - started).toBeLessThan(800);
    expect(await clientHungUp).toBe(true);
  });

  it('lets slow headers pass a connect limit that ends once the request has reached the server', async () => {
    handler = (_req, res) => later(res, 400, () => res.end('drawn'));
    const exchange = exchangeWith({ connectTimeoutMs: 100, connectLimitEnds: 'request-sent' });
    const outcome = await within(exchange, async (call) => (await call.readText(await get(call), { maxBytes: 1024 })).toString());
    expect(outcome).toBe('drawn');
    expect(exchange.reachedServer).toBe(true);
  });

  it('stops at the connect limit when the server cannot be reached, saying so', async () => {
    const silent = await startSilentServer();
    try {
      const exchange = exchangeWith({ connectTimeoutMs: 150, connectLimitEnds: 'request-sent' });
      const started = Date.now();
      const outcome = await within(exchange, (call) => call.fetch(`https://127.0.0.1:${silent.port}/`, { method: 'GET', headers: {} }));
      expect(outcome).toMatchObject({ kind: 'timeout', stoppedBy: 'connect', message: 'The test API could not be reached within 150 ms' });
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(exchange.reachedServer).toBe(false);
    } finally {
      await silent.close();
    }
  });

  it('stops at the total limit, whether the answer never starts or trickles on, and hangs up', async () => {
    handler = () => undefined;
    const silentServer = await within(exchangeWith({ totalTimeoutMs: 200, connectLimitEnds: 'request-sent' }), get);
    expect(silentServer).toMatchObject({ kind: 'timeout', stoppedBy: 'total', message: 'The test API took longer than 200 ms' });
    expect(await clientHungUp).toBe(true);

    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
    };
    const trickle = await within(exchangeWith({ totalTimeoutMs: 300, idleTimeoutMs: 1_000 }), async (call) =>
      call.readText(await get(call), { maxBytes: 1024 * 1024 }),
    );
    expect(trickle).toMatchObject({ kind: 'timeout', stoppedBy: 'total', message: 'The test API took longer than 300 ms' });
    expect(await clientHungUp).toBe(true);
  });

  it('stops at the idle limit when the body stalls between two pieces', async () => {
    handler = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('first piece');
    };
    const pieces: string[] = [];
    const outcome = await within(exchangeWith({ idleTimeoutMs: 150 }), async (call) => {
      for await (const piece of call.pieces(await get(call))) pieces.push(Buffer.from(piece).toString());
    });
    expect(pieces).toEqual(['first piece']);
    expect(outcome).toMatchObject({ kind: 'timeout', stoppedBy: 'idle', message: 'The test API stopped sending for 150 ms' });
    expect(await clientHungUp).toBe(true);
  });

  it('words the stops with the adapter’s phrases', async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      res.write('a');
    };
    const wording = { ...WORDING, idleTimeout: (limit: string) => `The test API went quiet for ${limit}` };
    const outcome = await within(exchangeWith({ wording, idleTimeoutMs: 1_000 }), async (call) =>
      call.readText(await get(call), { maxBytes: 10 }),
    );
    expect(outcome).toMatchObject({ message: 'The test API went quiet for 1 s' });
  });
});

describe('UpstreamExchange and the caller’s signal', () => {
  it('stops at once when the caller aborts mid-body, and hangs up', async () => {
    handler = (_req, res) => {
      res.writeHead(200);
      const timer = setInterval(() => res.write('x'), 20);
      res.on('close', () => clearInterval(timer));
    };
    const controller = new AbortController();
    const outcome = await within(exchangeWith({ signal: controller.signal }), async (call) => {
      const response = await get(call);
      setTimeout(() => controller.abort(), 60);
      return call.readText(response, { maxBytes: 1024 * 1024 });
    });
    expect(outcome).toMatchObject({ kind: 'cancelled', stoppedBy: 'cancelled', retryable: false, message: 'The call was cancelled' });
    expect(await clientHungUp).toBe(true);
  });

  it('stops while waiting for the headers', async () => {
    handler = (_req, res) => later(res, 1_000, () => res.end());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    expect(await within(exchangeWith({ signal: controller.signal }), get)).toMatchObject({ kind: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(800);
  });

  it('sends nothing when the caller has already given up', async () => {
    const outcome = await within(exchangeWith({ signal: AbortSignal.abort() }), get);
    expect(outcome).toMatchObject({ kind: 'cancelled' });
    await wait(50);
    expect(requests).toBe(0);
  });

  it('lets the stop win over whatever the adapter threw after it', async () => {
    const controller = new AbortController();
    const exchange = exchangeWith({ signal: controller.signal });
    exchange.start();
    controller.abort();
    expect(exchange.failure(new Error('parse failed'))).toMatchObject({ kind: 'cancelled' });
    exchange.dispose();
  });
});

describe('UpstreamExchange network failures', () => {
  it('reports a server that refuses connections as unavailable, retryable', async () => {
    const closed = await startSilentServer();
    await closed.close();
    const outcome = await within(exchangeWith(), (call) => call.fetch(`http://127.0.0.1:${closed.port}/`, { method: 'GET', headers: {} }));
    expect(outcome).toBeInstanceOf(UpstreamError);
    expect(outcome).toMatchObject({ kind: 'unavailable', retryable: true, message: 'The test API could not be reached' });
    expect((outcome as UpstreamError).cause).toBeDefined();
  });

  it('reports a body that breaks off as unavailable, or as the end when the answer was complete', async () => {
    const received: string[] = [];
    handler = (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('half of it');
      setTimeout(() => req.socket.destroy(), 30);
    };
    const broken = await within(exchangeWith(), async (call) => call.readText(await get(call), { maxBytes: 1024 }));
    expect(broken).toMatchObject({ kind: 'unavailable', status: 200, message: "The test API's answer broke off" });

    const custom = await within(exchangeWith(), async (call) => {
      for await (const piece of call.pieces(await get(call), { brokenMessage: 'The stream ended unexpectedly' }))
        received.push(String(piece.length));
    });
    expect(custom).toMatchObject({ kind: 'unavailable', message: 'The stream ended unexpectedly' });

    received.length = 0;
    const complete = await within(exchangeWith(), async (call) => {
      for await (const piece of call.pieces(await get(call), { brokenIsEnd: () => true })) received.push(Buffer.from(piece).toString());
      return 'ended';
    });
    expect([complete, received]).toEqual(['ended', ['half of it']]);
  });
});

describe('UpstreamExchange bounded bodies', () => {
  const sendBytes = (size: number, declare: boolean) => {
    handler = (_req, res) => {
      if (declare) return void res.writeHead(200, { 'Content-Length': String(size) }).end(Buffer.alloc(size, 'a'));
      // Written in two parts, so the body goes chunked, its size unsaid.
      res.write(Buffer.alloc(size / 2, 'a'));
      res.end(Buffer.alloc(size / 2, 'a'));
    };
  };

  it('refuses a body declared larger than the limit before reading it', async () => {
    sendBytes(4 * 1024, true);
    const outcome = await within(exchangeWith(), async (call) => call.readBody(await get(call), { maxBytes: 1024 }));
    expect(outcome).toMatchObject({ kind: 'unavailable', status: 200, retryable: true, message: 'The test API sent more than 1 KB' });
  });

  it('refuses a body that grows past the limit without declaring its size', async () => {
    sendBytes(3 * 1024 * 1024, false);
    const outcome = await within(exchangeWith(), async (call) => call.readBody(await get(call), { maxBytes: 2 * 1024 * 1024 }));
    expect(outcome).toMatchObject({ kind: 'unavailable', message: 'The test API sent more than 2 MB' });
  });

  it('cuts a body at the limit when asked to truncate (error bodies)', async () => {
    sendBytes(5_000, true);
    const body = await within(exchangeWith(), async (call) => call.readBody(await get(call), { maxBytes: 1_000, overflow: 'truncate' }));
    expect((body as Buffer).length).toBe(1_000);
  });

  it('reads a JSON object, and says whether a web page or something malformed came instead', async () => {
    handler = (req, res) => {
      if (req.url === '/json') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"images":["x"]}');
      if (req.url === '/page') return void res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><p>Web UI</p>');
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"images": ["cut');
    };
    const read = (path: string) => within(exchangeWith(), async (call) => call.readJson(await get(call, path), { maxBytes: 1024 }));
    expect(await read('/json')).toEqual({ images: ['x'] });
    expect(await read('/page')).toMatchObject({
      kind: 'unavailable',
      message: 'The test API answered with a web page instead of an API response; check TEST_API_URL',
    });
    expect(await read('/cut')).toMatchObject({ kind: 'unavailable', message: 'The test API sent a malformed response (not JSON)' });
  });
});

describe('UpstreamExchange.httpFailure', () => {
  interface Answer {
    status: number;
    body?: unknown;
    raw?: string;
    contentType?: string;
    headers?: Record<string, string>;
  }
  const answerWith = (answer: Answer) => {
    handler = (_req, res) => {
      const text = answer.raw ?? JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status, { 'Content-Type': answer.contentType ?? 'application/json', ...answer.headers }).end(text);
    };
  };
  const failureOf = async (answer: Answer) => {
    answerWith(answer);
    return within(exchangeWith(), async (call) => call.httpFailure(await get(call)));
  };
  const openAi = (message: string, extra: Record<string, unknown> = {}) => ({ error: { message, ...extra } });

  it.each<[string, Answer, Partial<UpstreamError>]>([
    ['401', { status: 401, body: openAi(`Incorrect API key provided: ${KEY}`) }, { kind: 'auth', retryable: false, detail: '' }],
    [
      '403',
      { status: 403, body: openAi('Project lacks access') },
      { kind: 'auth', message: 'The test API refused the credentials (HTTP 403)' },
    ],
    ['402', { status: 402, body: openAi('Add credits') }, { kind: 'quota', retryable: false }],
    [
      '429 naming an exhausted quota',
      { status: 429, body: openAi('You exceeded your current quota', { code: 'insufficient_quota' }) },
      { kind: 'quota', message: 'The test API account has no quota or credits left: You exceeded your current quota' },
    ],
    [
      '400 naming a billing limit',
      { status: 400, body: openAi('Billing hard limit', { code: 'billing_hard_limit_reached' }) },
      { kind: 'quota' },
    ],
    [
      '429',
      { status: 429, body: openAi('Slow down') },
      { kind: 'rate-limited', retryable: true, message: 'The test API is rate limiting requests: Slow down' },
    ],
    ['408', { status: 408, body: openAi('Request timeout') }, { kind: 'timeout', retryable: true }],
    ['504', { status: 504, raw: 'upstream timed out', contentType: 'text/plain' }, { kind: 'timeout', detail: 'upstream timed out' }],
    ['524', { status: 524, raw: '' }, { kind: 'timeout', message: 'The test API timed out' }],
    [
      '400',
      { status: 400, body: openAi('Bad prompt') },
      { kind: 'bad-request', retryable: false, message: 'The test API rejected the request: Bad prompt' },
    ],
    ['413', { status: 413, raw: 'Payload Too Large', contentType: 'text/plain' }, { kind: 'bad-request' }],
    [
      '422 with FastAPI details',
      { status: 422, body: { detail: [{ loc: ['body', 'width'], msg: 'value is not a valid integer' }] } },
      { kind: 'bad-request', detail: 'width: value is not a valid integer' },
    ],
    [
      '404',
      { status: 404, body: { detail: 'Not Found' } },
      { kind: 'refused', retryable: false, message: 'The test API refused the request (HTTP 404): Not Found' },
    ],
    ['418', { status: 418, raw: '' }, { kind: 'refused', message: 'The test API refused the request (HTTP 418)' }],
    [
      '500 with AUTOMATIC1111 errors',
      { status: 500, body: { error: 'OutOfMemoryError', detail: '', errors: 'CUDA out of memory' } },
      { kind: 'unavailable', retryable: true, message: 'The test API failed (HTTP 500): CUDA out of memory' },
    ],
    [
      '502 with an HTML page',
      { status: 502, raw: '<html><body>Bad gateway</body></html>', contentType: 'text/html' },
      { kind: 'unavailable', detail: '', message: 'The test API failed (HTTP 502)' },
    ],
  ])('maps %s', async (_name, answer, expected) => {
    const failure = await failureOf(answer);
    expect(failure).toBeInstanceOf(UpstreamError);
    expect(failure).toMatchObject({ status: answer.status, ...expected });
    expect((failure as UpstreamError).message).not.toContain('SECRET');
  });

  it('never quotes a 401 or 403 body, which may echo the key', async () => {
    const failure = (await failureOf({ status: 401, body: openAi(`Incorrect API key provided: ${KEY}`) })) as UpstreamError;
    expect(failure.message).toBe('The test API refused the credentials (HTTP 401)');
    expect(JSON.stringify({ ...failure, message: failure.message, stack: failure.stack })).not.toContain('SECRET');
  });

  it('keeps Retry-After as seconds, as an HTTP date, or from retry-after-ms', async () => {
    const retryAfterOf = async (headers: Record<string, string>) =>
      ((await failureOf({ status: 429, body: openAi('Slow down'), headers })) as UpstreamError).retryAfterSeconds;
    expect(await retryAfterOf({ 'Retry-After': '17' })).toBe(17);
    expect(await retryAfterOf({ 'Retry-After': '2.5' })).toBe(3);
    expect(await retryAfterOf({ 'retry-after-ms': '1200', 'Retry-After': '60' })).toBe(2);
    const inHalfAMinute = await retryAfterOf({ 'Retry-After': new Date(Date.now() + 30_000).toUTCString() });
    expect(inHalfAMinute).toBeGreaterThanOrEqual(28);
    expect(inHalfAMinute).toBeLessThanOrEqual(30);
    expect(await retryAfterOf({ 'Retry-After': new Date(Date.now() - 60_000).toUTCString() })).toBe(0);
    expect(await retryAfterOf({ 'Retry-After': 'soon' })).toBeUndefined();
    expect(await retryAfterOf({})).toBeUndefined();
  });

  it('quotes provider text on one line, at most 300 characters, without the configured key or anything key-shaped', async () => {
    const message = `Bad request for key ${KEY}\nfrom https://admin:hunter2@proxy.example/v1?api_key=abc123&model=x with Bearer tok-987654: ${'x'.repeat(2_000)}`;
    const failure = (await failureOf({ status: 400, body: openAi(message) })) as UpstreamError;
    expect(failure.detail).not.toContain('SECRET');
    expect(failure.detail).not.toContain('hunter2');
    expect(failure.detail).not.toContain('abc123');
    expect(failure.detail).not.toContain('tok-987654');
    expect(failure.detail).not.toContain('\n');
    expect(failure.detail).toContain('[redacted]');
    expect([...failure.detail]).toHaveLength(300);
    expect(failure.detail.endsWith('…')).toBe(true);
  });

  it('lets a stop while reading the error body win, and the status speak when the body breaks', async () => {
    handler = (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.write('{"error": {"message": "overl');
    };
    const stalled = await within(exchangeWith({ idleTimeoutMs: 150 }), async (call) => call.httpFailure(await get(call)));
    expect(stalled).toMatchObject({ kind: 'timeout', stoppedBy: 'idle' });

    handler = (req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json' });
      res.write('{"error": {"message": "overl');
      setTimeout(() => req.socket.destroy(), 30);
    };
    const broken = await within(exchangeWith(), async (call) => call.httpFailure(await get(call)));
    expect(broken).toMatchObject({ kind: 'unavailable', status: 503, message: 'The test API failed (HTTP 503)' });
  });
});
