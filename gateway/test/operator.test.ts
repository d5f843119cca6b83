import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityRpc } from '@app/schema';
import { type TestTarget, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(300_000);

const SERVICES = '{ operatorServices { name id version startedAt endpoints circuits { name state } queues { name depth } } }';
const EVENTS = `subscription($filter: OperatorEventFilter) {
  operatorEvents(filter: $filter) { id type version occurredAt actorId data } }`;

interface OperatorEvent {
  id: string;
  type: string;
  version: number;
  actorId: string | null;
  data: Record<string, unknown>;
}
interface Instance {
  name: string;
  endpoints: number;
  circuits: { name: string; state: string }[];
  queues: { name: string; depth: number }[];
}

/** Admins watch the running platform over GraphQL: its instances with circuits and queues, and the event stream live. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('operator API on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let admin: TestClient;

  async function signUp(details = registration()) {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: details });
    expect(response.status).toBe(201);
    const me = (await (await client.fetch('/api/user')).json()) as { id: string };
    return Object.assign(client, { id: me.id, email: details.email });
  }

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    // No session cache: the admin's role, granted after sign-up, holds at once.
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0, sessionCacheMs: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
    admin = await signUp();
    // As `npm run admin -- grant-role` would (actor null: the command line).
    await platform.bus.request(identityRpc.grantRole, {
      email: (admin as TestClient & { email: string }).email,
      role: 'admin',
      actorId: null,
      reason: 'test admin',
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  it('lists identity, chat and media with their endpoints, provider circuits and queues', async () => {
    const reply = await admin.graphql<{ operatorServices: Instance[] }>(SERVICES);
    expect(reply.errors).toBeUndefined();
    const instances = reply.data!.operatorServices;
    expect(instances.map((instance) => instance.name)).toEqual(['chat', 'identity', 'media']);
    for (const instance of instances) expect(instance.endpoints).toBeGreaterThan(0);
    const chat = instances.find((instance) => instance.name === 'chat')!;
    expect(chat.circuits).toContainEqual({ name: 'chat-provider', state: 'CLOSED' });
    const media = instances.find((instance) => instance.name === 'media')!;
    expect(media.queues.map((queue) => queue.name)).toEqual(expect.arrayContaining(['media.image-jobs.waiting']));
    // Durable consumers show their backlog.
    expect(instances.flatMap((instance) => instance.queues).some((queue) => queue.name.startsWith('consumer.'))).toBe(true);
  });

  it('streams the events a filter asks for, live', async () => {
    const member = await signUp();
    const socket = admin.subscriptions();
    const everything = collectWith(socket, {});
    const chatOfMember = collectWith(socket, { subject: 'evt.chat.>', memberId: member.id });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const created = await member.graphql<{ createConversation: { id: string } }>(
        'mutation { createConversation(title: "Hello") { id } }',
      );
      expect(created.errors).toBeUndefined();
      await eventuallyHas(() => chatOfMember.values.map((value) => value.type), 'evt.chat.conversation.created');
      const seen = chatOfMember.values;
      expect(seen.every((event) => event.type.startsWith('evt.chat.'))).toBe(true);
      expect(seen.find((event) => event.type === 'evt.chat.conversation.created')).toMatchObject({
        actorId: member.id,
        version: 1,
        data: expect.objectContaining({ conversationId: created.data!.createConversation.id }),
      });
      // Someone else's sign-up reaches the unfiltered watcher, not the member's chat filter.
      const other = await signUp();
      await eventuallyHas(
        () => everything.values.map((event) => `${event.type}:${event.actorId}`),
        `evt.identity.user.registered:${other.id}`,
      );
      expect(chatOfMember.values.some((event) => event.actorId === other.id)).toBe(false);
    } finally {
      everything.stop();
      chatOfMember.stop();
      await socket.dispose();
    }
  });

  it('refuses members, visitors, access tokens and a malformed filter', async () => {
    const member = await signUp();
    const asMember = await member.graphql(SERVICES);
    expect(asMember.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const visitor = await new TestClient(platform.url).graphql(SERVICES);
    expect(visitor.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');

    const created = await admin.graphql<{ createAccessToken: { secret: string } }>(
      'mutation { createAccessToken(input: { name: "ops", scopes: [READ] }) { secret } }',
    );
    const withToken = await new TestClient(platform.url).graphql(SERVICES, undefined, {
      authorization: `Bearer ${created.data!.createAccessToken.secret}`,
    });
    expect(withToken.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const socket = admin.subscriptions();
    try {
      const bad = await firstResult(socket, { subject: 'evt..chat' });
      expect(bad).toMatchObject({ extensions: { code: 'VALIDATION_FAILED' } });
      const memberSocket = member.subscriptions();
      try {
        expect(await firstResult(memberSocket, {})).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      } finally {
        await memberSocket.dispose();
      }
    } finally {
      await socket.dispose();
    }
  });
});

type Socket = ReturnType<TestClient['subscriptions']>;

function collectWith(socket: Socket, filter: Record<string, unknown>) {
  const values: OperatorEvent[] = [];
  const stop = socket.subscribe<{ operatorEvents: OperatorEvent }>(
    { query: EVENTS, variables: { filter } },
    { next: (result) => result.data && values.push(result.data.operatorEvents), error: () => undefined, complete: () => undefined },
  );
  return { values, stop };
}

/** The first error the subscription answers with. */
function firstResult(socket: Socket, filter: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve) => {
    const stop = socket.subscribe(
      { query: EVENTS, variables: { filter } },
      {
        next: (result) => {
          stop();
          resolve(result.errors?.[0]);
        },
        error: (error) => resolve(Array.isArray(error) ? error[0] : error),
        complete: () => undefined,
      },
    );
  });
}

async function eventuallyHas(read: () => string[], expected: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!read().includes(expected)) {
    if (Date.now() > deadline) throw new Error(`never saw ${expected}; saw ${read().join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
