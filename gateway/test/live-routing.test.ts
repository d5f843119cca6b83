import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type Gateway, createGateway, readGatewayConfig } from '@app/gateway';
import { type Bus, MemoryStorage } from '@app/kit';
import { identityRpc } from '@app/schema';
import { type TestTarget, eventually, testTargets } from '../../services/kit/test/test-infra';
import WebSocket from 'ws';
import { TestClient, collect, registration } from './http-client';

jest.setTimeout(60_000);

type Update = { conversationUpdates: { type: string } };

/** The platform's bus, recording every live message a gateway built on it receives, and the subjects of its requests. */
function recordingBus(bus: Bus, received: string[], requested: string[] = []): Bus {
  return new Proxy(bus, {
    get(target, property) {
      if (property === 'request') {
        return (rpc: { subject: string }, ...rest: unknown[]) => {
          requested.push(rpc.subject);
          return (target.request as (...args: unknown[]) => unknown)(rpc, ...rest);
        };
      }
      if (property === 'subscribeLive') {
        return (subject: string, handler: (data: unknown, subject: string) => void) =>
          target.subscribeLive(subject, (data, actual) => {
            received.push(actual);
            handler(data, actual);
          });
      }
      const value: unknown = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('live updates on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let second: Gateway;
  let secondUrl: string;
  const secondReceived: string[] = [];
  const secondRequested: string[] = [];

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', CHAT_DEMO_CHUNK_DELAY_MS: '5' },
    });
    second = await createGateway({
      bus: recordingBus(platform.bus, secondReceived, secondRequested),
      config: { ...readGatewayConfig({}), port: 0 },
      storage: new MemoryStorage(),
    });
    secondUrl = (await second.listen()).url;
  });
  afterAll(async () => {
    await second.close();
    await platform.stop();
    await cleanup();
  });

  const chat = async (member: TestClient, id: string) =>
    member.graphql('mutation($id: ID!) { sendMessage(conversationId: $id, content: "Tell me a story") { userMessage { id } } }', { id });

  it('reach only the gateways holding a subscriber for that conversation, from its first listener to its last', async () => {
    const member = new TestClient(platform.url);
    await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const created = await member.graphql<{ createConversation: { id: string } }>('mutation { createConversation(title: "Routed") { id } }');
    const id = created.data!.createConversation.id;
    const query = `subscription { conversationUpdates(conversationId: "${id}") { type } }`;

    // Listening on the first gateway: the second, with no subscriber, receives none of it.
    const ws = member.subscriptions();
    const first = collect<Update>(ws, query, 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await chat(member, id);
    await eventually(() => expect(first.values.some((value) => value.conversationUpdates.type === 'MESSAGE')).toBe(true));
    expect(secondReceived).toEqual([]);
    first.stop();
    await ws.dispose();

    // Listening on the second gateway: it receives that conversation's updates, and stops when the listener leaves.
    const viaSecond = new TestClient(secondUrl);
    viaSecond.cookie = member.cookie;
    const secondWs = viaSecond.subscriptions();
    const routed = collect<Update>(secondWs, query, 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await chat(member, id);
    await eventually(() => expect(routed.values.some((value) => value.conversationUpdates.type === 'MESSAGE')).toBe(true));
    expect(new Set(secondReceived)).toEqual(new Set([`live.chat.conversation.${id}`]));
    routed.stop();
    await secondWs.dispose();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const heard = secondReceived.length;
    await chat(member, id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(secondReceived).toHaveLength(heard);
  });

  it('a generation reaches its member through the gateway they listen on, and no other', async () => {
    const member = new TestClient(platform.url);
    await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const before = secondReceived.length;
    const ws = member.subscriptions();
    const updates = collect<{ generationUpdates: { status: string } }>(ws, 'subscription { generationUpdates { status } }', 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await member.graphql('mutation { generateImage(input: { prompt: "a lighthouse at dawn" }) { id } }');
    await eventually(() => expect(updates.values.some((value) => value.generationUpdates.status === 'DONE')).toBe(true), 20_000);
    expect(secondReceived).toHaveLength(before);
    updates.stop();
    await ws.dispose();
  });

  it('a sign-out through one gateway ends the session on every gateway at once: no cached session, no open WebSocket', async () => {
    const member = new TestClient(platform.url);
    await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const cookie = member.cookie!;
    const viaSecond = new TestClient(secondUrl);
    viaSecond.cookie = cookie;
    // The second gateway has the session in its cache (reused for SESSION_CACHE_MS) and holds a WebSocket of it.
    const me = async () => (await viaSecond.graphql<{ me: { id: string } | null }>('{ me { id } }')).data?.me ?? null;
    expect(await me()).not.toBeNull();
    expect(await me()).not.toBeNull();
    const socket = new WebSocket(`${secondUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie } });
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init' }));
    await new Promise<void>((resolve) => socket.once('message', () => resolve()));
    const before = secondReceived.length;

    await member.fetch('/api/logout', { method: 'POST' });
    // Well inside the cache time and the periodic socket check (a minute): identity's notice reached the second gateway.
    await eventually(() => expect(secondReceived.slice(before)).toEqual(['live.identity.session.ended']), 2_000);
    expect(await me()).toBeNull();
    await expect(closed).resolves.toBe(4401);
  });

  it("reuses a member's session for a burst of requests, and reads it afresh after the member's own write", async () => {
    const member = new TestClient(platform.url);
    await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const viaSecond = new TestClient(secondUrl);
    viaSecond.cookie = member.cookie;
    const lookups = () => secondRequested.filter((subject) => subject === identityRpc.resolveSession.subject).length;
    const me = async () => (await viaSecond.graphql<{ me: { tokens: number } }>('{ me { tokens } }')).data!.me;
    const before = lookups();
    const burst = await Promise.all(Array.from({ length: 20 }, () => me()));
    expect(new Set(burst.map((user) => user.tokens)).size).toBe(1);
    // One lookup, two if the burst straddled the end of SESSION_CACHE_MS.
    expect(lookups() - before).toBeLessThanOrEqual(2);

    // A message sent through this gateway spends a token: the next read of the member shows it at once.
    const created = await viaSecond.graphql<{ createConversation: { id: string } }>(
      'mutation { createConversation(title: "Cached") { id } }',
    );
    await chat(viaSecond, created.data!.createConversation.id);
    expect((await me()).tokens).toBe(burst[0]!.tokens - 1);
  });
});
