import http from 'node:http';
import net from 'node:net';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type GatewayConfig, createGateway, readGatewayConfig } from '@app/gateway';
import { MemoryStorage } from '@app/kit';
import WebSocket from 'ws';
import { fragmentChain } from './abusive-documents';
import { type TestTarget, eventually, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(60_000);

/** An attacker on another loopback address, so the per-address limits that stop it leave the test's own client alone. */
const ATTACKER_ADDRESS = '127.0.0.2';
const QUIET_ADDRESS = '127.0.0.3';

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))(
  'the gateway stays available on %s',
  (_name, target) => {
    let platform: EmbeddedPlatform;
    let cleanup: () => Promise<void>;
    let client: TestClient;
    const defaults = readGatewayConfig({});
    const gatewayConfig: Partial<GatewayConfig> = {
      port: 0,
      // One request a second counts as quiet here: the test's own loop, stalled on purpose, cannot send a fast burst.
      pressure: {
        ...defaults.pressure,
        maxInFlight: 20,
        sampleIntervalMs: 100,
        maxEventLoopDelayMs: 250,
        quietAddressRequestsPerSecond: 1,
      },
      connections: { ...defaults.connections, maxConnectionsPerAddress: 30, bodyIdleTimeoutMs: 3000 },
      wsMaxSubscriptionsPerSocket: 5,
      wsMaxSocketsPerMember: 3,
    };

    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      platform = await startEmbedded({ infra: created.infra, gateway: gatewayConfig, env: { SIGNUPS_PER_IP_PER_HOUR: '1000' } });
    });
    afterAll(async () => {
      await platform.stop();
      await cleanup();
    });
    beforeEach(() => {
      client = new TestClient(platform.url);
    });

    const signUp = async (member = new TestClient(platform.url)) => {
      const response = await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
      expect([response.status, response.status === 201 ? null : await response.text()]).toEqual([201, null]);
      return member;
    };

    describe('GraphQL documents', () => {
      it('answers a chain of 30 doubling fragments at once with 400 QUERY_TOO_COMPLEX, and keeps serving', async () => {
        const response = await client.fetch('/graphql', { method: 'POST', json: { query: fragmentChain(30) } });
        expect(response.status).toBe(400);
        const body = (await response.json()) as { errors: { message: string; extensions: { code: string } }[] };
        expect(body.errors[0]).toMatchObject({
          message: expect.stringMatching(/^Query depth limit of 12 exceeded/),
          extensions: { code: 'QUERY_TOO_COMPLEX' },
        });
        expect((await client.fetch('/healthz')).status).toBe(200);
      });

      it('refuses 1,000 aliased createConversation calls and creates nothing', async () => {
        const member = await signUp();
        const writes = (count: number) => Array.from({ length: count }, (_, i) => `c${i}: createConversation(input: {}) { id }`).join(' ');
        const result = await member.graphql(`mutation { ${writes(1000)} }`);
        // Past the token limit it is not even parsed; under it, the alias limit refuses it.
        expect(result.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
        const fewer = await member.graphql(`mutation { ${writes(100)} }`);
        expect(fewer.errors?.[0]).toMatchObject({
          message: 'Aliases limit of 15 exceeded, found 100.',
          extensions: { code: 'QUERY_TOO_COMPLEX' },
        });
        const conversations = await member.graphql<{ conversations: { nodes: unknown[] } }>('{ conversations { nodes { id } } }');
        expect(conversations.data?.conversations.nodes).toEqual([]);
      });

      it('applies the same limits, codes and validation over WebSocket', async () => {
        const member = await signUp();
        const socket = await openSocket(member.cookie!);
        expect(await socket.subscribe(fragmentChain(30))).toMatchObject({
          type: 'error',
          payload: expect.arrayContaining([
            { message: 'Query depth limit of 12 exceeded, found 64.', extensions: { code: 'QUERY_TOO_COMPLEX' } },
          ]),
        });
        expect(await socket.subscribe('subscription { nope }')).toMatchObject({
          type: 'error',
          payload: [{ message: 'Cannot query field "nope" on type "Subscription".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
        });
        const signedOut = await openSocket(null);
        expect(await signedOut.subscribe('subscription { tokenBalanceChanged { balance } }')).toMatchObject({
          type: 'next',
          payload: { errors: [{ message: 'Unauthorized', extensions: { code: 'UNAUTHENTICATED' } }] },
        });
        socket.close();
        signedOut.close();
      });
    });

    it('stops a GraphQL operation at its deadline: no service is called past it', async () => {
      const strict = await createGateway({
        bus: platform.bus,
        config: { ...readGatewayConfig({}), port: 0, executionTimeoutMs: 0 },
        storage: new MemoryStorage(),
      });
      const { url } = await strict.listen();
      try {
        const member = await signUp();
        const late = new TestClient(url);
        late.cookie = member.cookie;
        const result = await late.graphql('{ publicImages(first: 1) { nodes { id } } }');
        expect(result.errors?.[0]?.extensions?.code).toBe('TIMEOUT');
        const inTime = await member.graphql<{ publicImages: unknown }>('{ publicImages(first: 1) { nodes { id } } }');
        expect(inTime.data?.publicImages).toBeTruthy();
      } finally {
        await strict.close();
      }
    });

    describe('WebSocket amplification', () => {
      it('closes a socket that asks for more operations than the limit, with 4429 and the limit in the reason', async () => {
        const member = await signUp();
        const socket = await openSocket(member.cookie!);
        for (let i = 0; i < 5; i++)
          socket.send({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { tokenBalanceChanged { balance } }' } });
        for (let i = 5; i < 1000; i++)
          socket.send({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { tokenBalanceChanged { balance } }' } });
        expect(await socket.closed).toEqual({ code: 4429, reason: 'Too many operations open on one connection (the limit is 5)' });
        // Up to the limit is fine.
        const again = await openSocket(member.cookie!);
        for (let i = 0; i < 5; i++)
          again.send({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { tokenBalanceChanged { balance } }' } });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(again.readyState()).toBe(WebSocket.OPEN);
        again.close();
      });

      it("closes a member's socket past the per-member limit with 4429, and lets one open again once another closes", async () => {
        const member = await signUp();
        const open = [await openSocket(member.cookie!), await openSocket(member.cookie!), await openSocket(member.cookie!)];
        const fourth = await openSocket(member.cookie!, false);
        expect(await fourth.closed).toEqual({ code: 4429, reason: 'Too many open connections for this account' });
        open.pop()!.close();
        await eventually(async () => {
          const again = await openSocket(member.cookie!);
          again.close();
        });
        for (const socket of open) socket.close();
      });
    });

    describe('slow and half-sent requests', () => {
      it('keeps every route answering while another address holds half-sent requests, and drops them with 408', async () => {
        const held = await Promise.all(Array.from({ length: 40 }, () => halfSentRequest(platform.port)));
        // The gateway holds at most 30 connections for that address; the rest were closed at once.
        await eventually(() => expect(held.filter((request) => request.closed).length).toBeGreaterThanOrEqual(10));
        // The stalled bodies fill every slot (20); after a second each new request takes the slot of one of them.
        await eventually(async () => expect((await client.fetch('/api/user')).status).toBe(401));
        expect((await client.graphql<{ me: null }>('{ me { id } }')).data).toEqual({ me: null });
        expect((await client.fetch('/readyz')).status).toBe(200);
        // A body that stops arriving is answered 408 and its connection closed.
        await eventually(() => expect(held.every((request) => request.closed)).toBe(true), 8000);
        expect(held.filter((request) => request.received.startsWith('HTTP/1.1 408')).length).toBeGreaterThanOrEqual(20);
      });
    });

    describe('load shedding', () => {
      it('sheds a busy address by event-loop delay (503 + Retry-After, not ready), still serves a quiet one, then recovers', async () => {
        // Connected beforehand, so the whole burst arrives in one turn of the stalled loop, as a flood's does.
        const sockets = await Promise.all(Array.from({ length: 40 }, () => openRawSocket(platform.port)));
        const hog = hogEventLoop(400);
        try {
          await eventually(async () => {
            const answers = await Promise.all(sockets.map((socket) => socket.get('/api/user')));
            const shed = answers.find((answer) => answer.startsWith('HTTP/1.1 503'));
            expect(shed).toBeDefined();
            expect(shed).toContain('Retry-After: 1');
            expect(shed).toContain('{"message":"The server is busy; please retry shortly.","code":"UNAVAILABLE"}');
            const ready = await client.fetch('/readyz');
            expect(ready.status).toBe(503);
            expect(await ready.json()).toEqual({ status: 'unavailable', reason: 'event-loop-delay' });
          });
          // Another address that has sent next to nothing is still answered while the loop is stalled.
          expect(await statusFrom(platform.port, QUIET_ADDRESS, '/api/user')).toBe(401);
          expect((await client.fetch('/healthz')).status).toBe(200);
        } finally {
          hog.stop();
          for (const socket of sockets) socket.close();
        }
        await eventually(async () => expect((await client.fetch('/readyz')).status).toBe(200));
        const after = await Promise.all(Array.from({ length: 10 }, () => client.fetch('/api/user')));
        expect(after.map((response) => response.status)).toEqual(Array(10).fill(401));
      });
    });

    describe('headers and methods', () => {
      it('sends the security headers on health checks too', async () => {
        for (const path of ['/healthz', '/readyz']) {
          const response = await client.fetch(path);
          expect(response.headers.get('content-security-policy')).toContain("object-src 'none'");
          expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        }
      });

      it('keeps connect-src to the page itself (its WebSocket included), not any ws: or wss: host', async () => {
        const csp = (await client.fetch('/')).headers.get('content-security-policy')!;
        expect(csp).toContain("connect-src 'self';");
        expect(csp).not.toMatch(/\bwss?:/);
      });

      it('answers HEAD on pages, health checks, config and the API', async () => {
        for (const [path, status] of [
          ['/', 200],
          ['/tos', 200],
          ['/healthz', 200],
          ['/readyz', 200],
          ['/app-config.js', 200],
          ['/api/user', 401],
        ] as const) {
          const response = await client.fetch(path, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
          expect([path, response.status]).toEqual([path, status]);
        }
      });

      it('refuses a WebSocket from the same host over another scheme', async () => {
        const member = await signUp();
        const origin = platform.url.replace('http://', 'https://');
        const socket = await openSocket(member.cookie!, false, origin);
        expect((await socket.closed).code).toBe(4403);
      });
    });

    /** A raw graphql-ws connection, acknowledged unless `init` is false. */
    async function openSocket(cookie: string | null, init = true, origin?: string) {
      const headers: Record<string, string> = {};
      if (cookie) headers.cookie = cookie;
      if (origin) headers.origin = origin;
      const ws = new WebSocket(`${platform.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers });
      const messages: Record<string, unknown>[] = [];
      const waiting: ((message: Record<string, unknown>) => void)[] = [];
      let isClosed = false;
      const closed = new Promise<{ code: number; reason: string }>((resolve) =>
        ws.once('close', (code, reason) => {
          resolve({ code, reason: reason.toString() });
          isClosed = true;
          // Whoever waits for a message learns the socket closed instead of waiting for ever.
          for (const waiter of waiting.splice(0)) waiter({ type: 'closed', code });
        }),
      );
      ws.on('message', (data) => {
        const message = JSON.parse(data.toString()) as Record<string, unknown>;
        const waiter = waiting.shift();
        if (waiter) waiter(message);
        else messages.push(message);
      });
      const next = (): Promise<Record<string, unknown>> => {
        if (messages.length > 0) return Promise.resolve(messages.shift()!);
        if (isClosed) return Promise.resolve({ type: 'closed' });
        return new Promise((resolve) => waiting.push(resolve));
      };
      await new Promise((resolve) => ws.once('open', resolve));
      ws.send(JSON.stringify({ type: 'connection_init' }));
      if (init) expect(await next()).toEqual({ type: 'connection_ack' });
      let id = 0;
      return {
        closed,
        send: (message: unknown) => ws.send(JSON.stringify(message)),
        /** Subscribes and returns the first message about it (error, or the first result). */
        subscribe: async (query: string) => {
          ws.send(JSON.stringify({ id: `q${++id}`, type: 'subscribe', payload: { query } }));
          return next();
        },
        readyState: () => ws.readyState,
        close: () => ws.close(),
      };
    }
  },
);

/** Sends headers and a tenth of the promised body from another loopback address, then goes quiet. */
function halfSentRequest(port: number): Promise<{ closed: boolean; received: string }> {
  return new Promise((resolve) => {
    const state = { closed: false, received: '' };
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: ATTACKER_ADDRESS }, () => {
      socket.write('POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"');
      resolve(state);
    });
    socket.on('data', (chunk) => (state.received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      state.closed = true;
      resolve(state);
    });
  });
}

/** A kept-alive connection that sends one GET at a time and resolves with the raw answer. */
function openRawSocket(port: number): Promise<{ get(path: string): Promise<string>; close(): void }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () =>
      resolve({
        get: (path) =>
          new Promise((answered) => {
            socket.once('data', (chunk) => answered(chunk.toString()));
            socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
          }),
        close: () => socket.destroy(),
      }),
    );
    socket.on('error', () => undefined);
  });
}

/** One GET from a chosen loopback address; resolves with its status. */
function statusFrom(port: number, localAddress: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port, path, localAddress }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

/** Keeps the event loop busy for `blockMs` at a time, again and again, as CPU overload does. */
function hogEventLoop(blockMs: number): { stop(): void } {
  const timer = setInterval(() => {
    const until = Date.now() + blockMs;
    while (Date.now() < until) {
      // Busy on purpose.
    }
  }, 1);
  return { stop: () => clearInterval(timer) };
}
