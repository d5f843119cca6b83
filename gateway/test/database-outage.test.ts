import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { createTestDatabase, eventually, hasNats, hasPostgres } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';
import { type TcpProxy, startTcpProxy } from './tcp-proxy';

jest.setTimeout(120_000);

const distributed = hasPostgres() && hasNats();
const UNAVAILABLE = { code: 'UNAVAILABLE', message: 'The service is temporarily unavailable. Please try again in a few seconds.' };
const ME = '{ me { id } }';
const LOGIN = 'mutation($input: LoginInput!) { login(input: $input) { id } }';

interface GraphQLReply {
  data?: unknown;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

// The embedded engine lives in the process; only a database server can go away under a running platform.
(distributed ? describe : describe.skip)('database outage (distributed: PostgreSQL behind a proxy the test cuts)', () => {
  let platform: EmbeddedPlatform;
  let proxy: TcpProxy;
  let dropDatabase: () => Promise<void>;
  let member: TestClient;
  let credentials: { email: string; password: string };

  beforeAll(async () => {
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: url.toString(), natsUrl: process.env.NATS_URL! },
      // Every request asks identity (no session cache), so each one meets the outage.
      gateway: { port: 0, sessionCacheMs: 0 },
    });
    member = new TestClient(platform.url);
    const input = registration();
    credentials = { email: input.email, password: input.password };
    expect((await member.fetch('/api/auth/register', { method: 'POST', json: input })).status).toBe(201);
  });
  afterAll(async () => {
    await proxy.restore();
    await platform.stop();
    await proxy.close();
    await dropDatabase();
  });

  it('answers 503 with Retry-After (REST) and UNAVAILABLE (GraphQL) while it is unreachable, and serves again once it is back', async () => {
    await proxy.cut();

    const user = await member.fetch('/api/user');
    expect({ status: user.status, retryAfter: user.headers.get('retry-after'), body: await user.json() }).toEqual({
      status: 503,
      retryAfter: '5',
      body: UNAVAILABLE,
    });
    const signIn = await new TestClient(platform.url).fetch('/api/auth/login', { method: 'POST', json: credentials });
    expect({ status: signIn.status, retryAfter: signIn.headers.get('retry-after'), body: await signIn.json() }).toEqual({
      status: 503,
      retryAfter: '5',
      body: UNAVAILABLE,
    });

    const signedOut = await new TestClient(platform.url).graphql(LOGIN, { input: credentials });
    expect(signedOut.errors?.[0]).toMatchObject({
      message: UNAVAILABLE.message,
      extensions: { code: 'UNAVAILABLE', retryAfterSeconds: 5 },
    });
    // A signed-in request cannot even learn who is asking: the whole operation is unavailable, with the same code.
    const me = await member.fetch('/graphql', { method: 'POST', json: { query: ME } });
    const meReply = (await me.json()) as GraphQLReply;
    expect({ status: me.status, retryAfter: me.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
    expect(meReply.errors?.[0]).toMatchObject({ message: UNAVAILABLE.message, extensions: { code: 'UNAVAILABLE' } });

    await proxy.restore();
    await eventually(async () => expect((await member.fetch('/api/user')).status).toBe(200), 20_000);
    expect((await member.graphql<{ me: { id: string } }>(ME)).data?.me.id).toEqual(expect.any(String));
    const again = await new TestClient(platform.url).fetch('/api/auth/login', { method: 'POST', json: credentials });
    expect(again.status).toBe(200);
  });

  // Last: the identity service stays stopped.
  it('answers 503 with Retry-After, not 500, on every signed-in route while identity does not answer at all', async () => {
    await platform.services.find((service) => service.name === 'identity')!.stop();
    for (const path of ['/api/user', '/api/conversations', '/api/images']) {
      const response = await member.fetch(path);
      expect({ path, status: response.status, retryAfter: response.headers.get('retry-after') }).toEqual({
        path,
        status: 503,
        retryAfter: '5',
      });
      expect(((await response.json()) as { code: string }).code).toBe('UNAVAILABLE');
    }
    const me = await member.fetch('/graphql', { method: 'POST', json: { query: ME } });
    expect({ status: me.status, retryAfter: me.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' });
    expect(((await me.json()) as GraphQLReply).errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
  });
});
