/**
 * The baseline of bench/live.bench.ts: a bare `ws` fan-out server with no GraphQL, bus or database, in its own
 * process like the gateway. It speaks just enough graphql-transport-ws for the bench's clients (ack, subscribe,
 * next, ping), knows a socket's member by its cookie (`sid=<member index>`), and on `POST /send/<member>` sends
 * that member's sockets what the platform sends for one chat message, in the same order and at the same pace:
 * the balance change, the two new messages, typing on (then it answers), one delta per word of the demo reply
 * every BENCH_CHUNK_DELAY_MS, the finished reply, typing off. Each frame is serialized once for all sockets.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { type ChildRequest, type ReadyMessage, answerRequests, ownStats } from './live-children';
import { CONVERSATION_SUBSCRIPTION_ID, TOKEN_SUBSCRIPTION_ID } from './live-fleet';

const REPLY_WORDS: string[] = JSON.parse(process.env.BENCH_REPLY_WORDS ?? '["Hello."]') as string[];
const CHUNK_DELAY_MS = Number(process.env.BENCH_CHUNK_DELAY_MS ?? 35);
const INITIAL_BALANCE = Number(process.env.BENCH_BALANCE ?? 100);

/** Each member's open sockets, and its balance (so the change frames carry what the platform's would). */
const members = new Map<number, { sockets: Set<WebSocket>; balance: number }>();

const memberOf = (cookie: string | undefined): number => Number(/(?:^|;\s*)sid=(\d+)/.exec(cookie ?? '')?.[1] ?? NaN);

function fanOut(member: number, id: string, data: Record<string, unknown>): void {
  const frame = JSON.stringify({ id, type: 'next', payload: { data } });
  for (const socket of members.get(member)?.sockets ?? []) socket.send(frame);
}

const conversationUpdate = (type: string, typing: boolean | null, text: string | null, message: unknown = null) => ({
  conversationUpdates: { type, typing, text, message },
});

function sendReply(member: number): void {
  const state = members.get(member);
  if (!state) return;
  state.balance--;
  fanOut(member, TOKEN_SUBSCRIPTION_ID, {
    tokenBalanceChanged: { balance: state.balance, delta: -1, reason: 'Chat reply', occurredAt: new Date().toISOString() },
  });
  fanOut(member, CONVERSATION_SUBSCRIPTION_ID, conversationUpdate('MESSAGE', null, null));
  const reply = { role: 'ASSISTANT', status: 'STREAMING', createdAt: new Date().toISOString() };
  fanOut(member, CONVERSATION_SUBSCRIPTION_ID, conversationUpdate('MESSAGE', null, null, reply));
  fanOut(member, CONVERSATION_SUBSCRIPTION_ID, conversationUpdate('TYPING', true, null));
  let next = 0;
  const timer = setInterval(() => {
    if (next < REPLY_WORDS.length)
      return fanOut(member, CONVERSATION_SUBSCRIPTION_ID, conversationUpdate('DELTA', null, REPLY_WORDS[next++]!));
    clearInterval(timer);
    fanOut(member, CONVERSATION_SUBSCRIPTION_ID, conversationUpdate('MESSAGE', null, null));
    fanOut(member, CONVERSATION_SUBSCRIPTION_ID, conversationUpdate('TYPING', false, null));
  }, CHUNK_DELAY_MS);
}

function onConnection(socket: WebSocket, request: http.IncomingMessage): void {
  const member = memberOf(request.headers.cookie);
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as { type: string };
    if (message.type === 'connection_init') return socket.send('{"type":"connection_ack"}');
    if (message.type === 'ping') return socket.send('{"type":"pong"}');
    if (message.type !== 'subscribe') return;
    const state = members.get(member) ?? { sockets: new Set(), balance: INITIAL_BALANCE };
    state.sockets.add(socket);
    members.set(member, state);
  });
  socket.on('close', () => members.get(member)?.sockets.delete(socket));
}

function main(): void {
  const server = http.createServer((req, res) => {
    req.resume();
    const member = /^\/send\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || member === undefined) return void res.writeHead(404).end();
    req.on('end', () => {
      sendReply(Number(member));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"sendMessage":{"userMessage":{"id":"bare"}}}}');
    });
  });
  const wsServer = new WebSocketServer({ server, path: '/graphql' });
  wsServer.on('connection', onConnection);
  answerRequests(async (request: ChildRequest) => {
    if (request.type === 'stats') return ownStats(request);
    throw new Error(`the bare server does not answer ${request.type}`);
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}` } satisfies ReadyMessage);
  });
  const stop = () => {
    for (const client of wsServer.clients) client.terminate();
    server.close(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main();
