/**
 * A child process of bench/abuse.bench.ts that plays the attacker, so the attacks' own CPU does not slow the
 * bench's probes. The bench sends `{ type: 'start', scenario, … }` and later `{ type: 'stop' }`; this answers
 * `{ type: 'started' }` and then `{ type: 'stopped', outcome }` with a line on how the gateway answered.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import WebSocket from 'ws';
import { aliasBomb, fragmentChain } from '../gateway/test/abusive-documents';
import { TestClient } from '../gateway/test/http-client';

/** Attackers use 127.0.0.2 … 127.0.0.21, so per-address limits apply to them and not to the probes on 127.0.0.1. */
const ATTACKER_ADDRESSES = Array.from({ length: 20 }, (_, i) => `127.0.0.${i + 2}`);

export type Scenario = 'fragment-chain' | 'alias-bomb' | 'half-sent' | 'sign-in-flood' | 'subscription-flood' | 'cpu-flood';

export interface StartMessage {
  type: 'start';
  scenario: Scenario;
  gatewayUrl: string;
  cookie: string;
  email: string;
  operatorToken: string;
}

interface Attack {
  stop(): Promise<string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An HTTP request from a chosen local address, resolved with its status (0 when the connection failed). */
function attackRequest(
  url: URL,
  localAddress: string,
  options: { method?: string; path: string; body?: string; headers?: Record<string, string> },
): Promise<number> {
  return new Promise((resolve) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        localAddress,
        method: options.method ?? 'POST',
        path: options.path,
        headers: { 'content-type': 'application/json', ...options.headers },
        timeout: 30_000,
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', () => resolve(0));
    request.on('timeout', () => request.destroy());
    request.end(options.body);
  });
}

/** `concurrency` loops sending the same kind of request until stopped; reports how the gateway answered. */
function flood(url: URL, concurrency: number, next: () => { path: string; body?: string; headers?: Record<string, string> }): Attack {
  const statuses = new Map<number, number>();
  let running = true;
  const loops = Array.from({ length: concurrency }, async (_, i) => {
    const address = ATTACKER_ADDRESSES[i % ATTACKER_ADDRESSES.length]!;
    while (running) {
      const status = await attackRequest(url, address, next());
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return describeStatuses(statuses);
    },
  };
}

function describeStatuses(statuses: Map<number, number>): string {
  const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
  const parts = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status === 0 ? 'no answer' : status} x${count}`);
  return `${total} requests: ${parts.join(', ')}`;
}

/** Sockets that send headers and a tenth of the body, then go quiet; re-opened as the gateway drops them. */
function halfSentFlood(url: URL, sockets: number): Attack {
  let running = true;
  const outcomes = { opened: 0, answered408: 0, droppedWithoutAnswer: 0 };
  const open = (address: string) => {
    if (!running) return;
    outcomes.opened++;
    let received = '';
    const socket = net.connect({ host: url.hostname, port: Number(url.port), localAddress: address }, () => {
      socket.write(
        `POST /graphql HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"`,
      );
    });
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (received.startsWith('HTTP/1.1 408')) outcomes.answered408++;
      else outcomes.droppedWithoutAnswer++;
      // An attacker reconnects at once, but not in a tight loop.
      if (running) setTimeout(() => open(address), 100);
    });
    live.add(socket);
    socket.once('close', () => live.delete(socket));
  };
  const live = new Set<net.Socket>();
  for (let i = 0; i < sockets; i++) open(ATTACKER_ADDRESSES[i % ATTACKER_ADDRESSES.length]!);
  return {
    stop: async () => {
      running = false;
      for (const socket of live) socket.destroy();
      return `${outcomes.opened} sockets opened: ${outcomes.answered408} answered 408, ${outcomes.droppedWithoutAnswer} closed by the gateway or the bench`;
    },
  };
}

/** One socket asking for `count` subscriptions while an operator changes the member's balance every 200 ms. */
async function subscriptionFlood(url: URL, { cookie, email, operatorToken }: StartMessage, count: number): Promise<Attack> {
  const ws = new WebSocket(`${url.origin.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie } });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let nextEvents = 0;
  let errors = 0;
  let closed = 'still open';
  ws.once('close', (code, reason) => (closed = `closed by the gateway with ${code} (${reason.toString()})`));
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string };
    if (message.type === 'next') nextEvents++;
    if (message.type === 'error') errors++;
  });
  const acknowledged = new Promise((resolve) => ws.once('message', resolve));
  ws.send(JSON.stringify({ type: 'connection_init' }));
  await acknowledged;
  for (let i = 0; i < count; i++) {
    ws.send(JSON.stringify({ id: `s${i}`, type: 'subscribe', payload: { query: 'subscription { tokenBalanceChanged { balance } }' } }));
  }
  const operator = new TestClient(url.origin);
  let grants = 0;
  let running = true;
  const granting = (async () => {
    while (running) {
      await operator.graphql(
        'mutation($email: String!) { grantTokens(email: $email, amount: 1, reason: "Bench") { balance } }',
        { email },
        { authorization: `Bearer ${operatorToken}` },
      );
      grants++;
      await sleep(200);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await granting;
      const socket = closed;
      ws.close();
      return `${count} subscriptions asked for on one socket: ${errors} refused, socket ${socket}; ${grants} balance changes delivered ${nextEvents} messages`;
    },
  };
}

function start(message: StartMessage): Promise<Attack> | Attack {
  const url = new URL(message.gatewayUrl);
  const graphql = (query: string) => () => ({ path: '/graphql', body: JSON.stringify({ query }) });
  switch (message.scenario) {
    case 'fragment-chain':
      return flood(url, 8, graphql(fragmentChain(30)));
    case 'alias-bomb':
      return flood(url, 8, graphql(aliasBomb(1000)));
    case 'half-sent':
      return halfSentFlood(url, 1100);
    case 'sign-in-flood':
      return flood(url, 200, () => ({
        path: '/api/auth/login',
        body: JSON.stringify({ email: `nobody-${randomUUID()}@example.com`, password: 'wrong password 123' }),
      }));
    case 'subscription-flood':
      return subscriptionFlood(url, message, 10_000);
    case 'cpu-flood':
      return flood(url, 2000, () => ({
        path: '/graphql',
        body: JSON.stringify({ query: '{ me { id tokens } }' }),
        headers: { cookie: message.cookie },
      }));
  }
}

let running: Attack | null = null;
// exit-with-parent unrefs the IPC channel; the attacker has nothing else keeping it alive between attacks.
process.channel?.ref();
process.on('message', (message: StartMessage | { type: 'stop' }) => {
  void (async () => {
    if (message.type === 'start') {
      running = await start(message);
      process.send?.({ type: 'started' });
    } else if (running) {
      const outcome = await running.stop();
      running = null;
      process.send?.({ type: 'stopped', outcome });
    }
  })();
});
