import fs from 'node:fs';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { createGateway, printGatewaySchema, readGatewayConfig } from '@app/gateway';
import { MemoryStorage } from '@app/kit';
import { type TestTarget, eventually, testTargets } from '../../services/kit/test/test-infra';
import WebSocket from 'ws';
import { TestClient, collect, registration } from './http-client';

jest.setTimeout(60_000);

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789';

it('the checked-in schema/schema.graphql matches the gateway (run `npm run schema:emit` after changing resolvers)', () => {
  const checkedIn = fs.readFileSync(path.join(__dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8');
  expect(checkedIn).toBe(printGatewaySchema());
});

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('gateway on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let client: TestClient;

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      // No periodic session check during this suite: a closed socket must come from the sign-out itself.
      gateway: { port: 0, operatorToken: OPERATOR_TOKEN, wsSessionCheckMs: 3_600_000 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
  });
  afterAll(async () => {
    await platform.stop();
    await cleanup();
  });
  beforeEach(() => {
    client = new TestClient(platform.url);
  });

  describe('REST /api', () => {
    it('GET /api/user is 401 with an Unauthorized JSON body when signed out', async () => {
      const response = await client.fetch('/api/user');
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ message: 'Unauthorized', code: 'UNAUTHENTICATED' });
    });

    it('registers (201, HttpOnly SameSite=Lax session cookie, the user) and then knows the member', async () => {
      const input = registration({ firstName: 'Ada', lastName: 'Lovelace' });
      const response = await client.fetch('/api/auth/register', { method: 'POST', json: input });
      expect(response.status).toBe(201);
      const setCookie = response.headers.get('set-cookie')!;
      expect(setCookie).toMatch(/^sid=[\w-]{43,};/);
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Lax');
      expect(setCookie).toContain('Path=/');
      const user = (await response.json()) as Record<string, unknown>;
      expect(user).toMatchObject({ email: input.email, firstName: 'Ada', lastName: 'Lovelace', profileImageUrl: null, tokens: 15 });
      // SPEC §6's fields, then the member's own role, content preferences and age assurance; never a password hash.
      expect(Object.keys(user).sort()).toEqual([
        'ageAssurance',
        'createdAt',
        'email',
        'firstName',
        'id',
        'lastName',
        'profileImageUrl',
        'ratingPreferences',
        'role',
        'tokens',
      ]);
      const me = await client.fetch('/api/user');
      expect(await me.json()).toEqual(user);
    });

    it('answers oversized bodies with 413, never a 500', async () => {
      const graphql = await client.fetch('/graphql', { method: 'POST', json: { query: `{ me { id } } #${'x'.repeat(200_000)}` } });
      expect(graphql.status).toBe(413);
      expect(await graphql.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      const member = new TestClient(platform.url);
      await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const card = await member.fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.alloc(9 * 1024 * 1024, 1),
      });
      expect(card.status).toBe(413);
    });

    it('answers bad registrations with 400 and field messages, and a duplicate with 409', async () => {
      const bad = await client.fetch('/api/auth/register', {
        method: 'POST',
        json: registration({ email: 'nope', password: 'x', confirmPassword: 'y' }),
      });
      expect(bad.status).toBe(400);
      const body = (await bad.json()) as { code: string; fieldErrors: Record<string, string> };
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.fieldErrors).toMatchObject({
        email: 'Please enter a valid email address',
        password: 'Password must be at least 8 characters',
      });
      const input = registration();
      await client.fetch('/api/auth/register', { method: 'POST', json: input });
      const duplicate = await new TestClient(platform.url).fetch('/api/auth/register', { method: 'POST', json: input });
      expect(duplicate.status).toBe(409);
      expect(((await duplicate.json()) as { code: string }).code).toBe('EMAIL_TAKEN');
    });

    it('refuses non-JSON bodies with 415 and malformed JSON with 400, never a 5xx', async () => {
      const form = await client.fetch('/api/auth/login', {
        method: 'POST',
        body: 'email=a',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(415);
      const broken = await client.fetch('/api/auth/login', {
        method: 'POST',
        body: '{"email":',
        headers: { 'content-type': 'application/json' },
      });
      expect(broken.status).toBe(400);
      for (const json of [[], 'x', 42, null, { email: 5, password: {} }, { email: 'a@b.co', password: 'x'.repeat(10_000) }]) {
        const response = await client.fetch('/api/auth/login', { method: 'POST', json });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
      }
    });

    it('signs in (200 + cookie + user) and answers wrong credentials with 401', async () => {
      const input = registration();
      await new TestClient(platform.url).fetch('/api/auth/register', { method: 'POST', json: input });
      const wrong = await client.fetch('/api/auth/login', { method: 'POST', json: { email: input.email, password: 'wrong password' } });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ message: 'Invalid email or password', code: 'INVALID_CREDENTIALS' });
      const ok = await client.fetch('/api/auth/login', { method: 'POST', json: { email: input.email, password: input.password } });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as { email: string }).email).toBe(input.email);
      expect((await client.fetch('/api/user')).status).toBe(200);
    });

    it('POST /api/signout ends the session server-side: replaying the old cookie gets 401', async () => {
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const oldCookie = client.cookie!;
      const response = await client.fetch('/api/signout', { method: 'POST' });
      expect(response.status).toBe(200);
      expect(response.headers.get('set-cookie')).toContain('Max-Age=0');
      const replay = await fetch(`${platform.url}/api/user`, { headers: { cookie: oldCookie } });
      expect(replay.status).toBe(401);
    });

    it('GET /api/logout signs out only a navigation from the site itself or typed by the member; POST /api/logout always', async () => {
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      for (const site of ['cross-site', 'same-site', null]) {
        const response = await client.fetch('/api/logout', { headers: site ? { 'sec-fetch-site': site } : {} });
        expect([site, response.status, response.headers.get('location')]).toEqual([site, 302, '/']);
        expect((await client.fetch('/api/user')).status).toBe(200);
      }
      for (const site of ['same-origin', 'none']) {
        await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
        const response = await client.fetch('/api/logout', { headers: { 'sec-fetch-site': site } });
        expect([site, response.status, response.headers.get('location')]).toEqual([site, 302, '/']);
        expect((await client.fetch('/api/user')).status).toBe(401);
      }
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const posted = await client.fetch('/api/logout', { method: 'POST' });
      expect([posted.status, posted.headers.get('location')]).toEqual([303, '/']);
      expect((await client.fetch('/api/user')).status).toBe(401);
    });

    it('GET /api/login redirects to /signin, keeping a return path on this site and nothing else', async () => {
      const response = await client.fetch('/api/login');
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('/signin');
      const back = await client.fetch(`/api/login?next=${encodeURIComponent('/gallery?tab=mine')}`);
      expect(back.headers.get('location')).toBe(`/signin?next=${encodeURIComponent('/gallery?tab=mine')}`);
      for (const offSite of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', '/.//evil.example', 'gallery']) {
        const refused = await client.fetch(`/api/login?next=${encodeURIComponent(offSite)}`);
        expect([offSite, refused.headers.get('location')]).toEqual([offSite, '/signin']);
      }
    });

    it('GET /api/dashboard/stats gives the SPEC §3 fields (zeros for a new member), 401 when signed out', async () => {
      expect((await client.fetch('/api/dashboard/stats')).status).toBe(401);
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const stats = await (await client.fetch('/api/dashboard/stats')).json();
      expect(stats).toEqual({
        imagesGenerated: 0,
        chatMessages: 0,
        charactersCreated: 0,
        storiesStarted: 0,
        totalLikes: 0,
        publicImages: 0,
      });
    });

    it('answers unknown /api paths with a JSON 404', async () => {
      const response = await client.fetch('/api/does-not-exist');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
    });

    it('refuses writes whose Origin is another site', async () => {
      const response = await client.fetch('/api/auth/login', {
        method: 'POST',
        json: { email: 'a@b.co', password: 'x' },
        headers: { origin: 'https://evil.example' },
      });
      expect(response.status).toBe(403);
    });

    it('sends security headers on every response', async () => {
      const response = await client.fetch('/api/user');
      expect(response.headers.get('content-security-policy')).toContain("object-src 'none'");
      expect(response.headers.get('content-security-policy')).toContain("base-uri 'none'");
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    });

    it('answers /healthz and /readyz', async () => {
      expect(await (await client.fetch('/healthz')).json()).toEqual({ status: 'ok' });
      const ready = await client.fetch('/readyz');
      expect(ready.status).toBe(200);
    });
  });

  describe('GraphQL', () => {
    const ME = '{ me { id email firstName lastName profileImageUrl createdAt tokens } }';

    it('me is null when signed out', async () => {
      expect(await client.graphql(ME)).toEqual({ data: { me: null } });
    });

    it('register signs in; login and logout manage the session cookie', async () => {
      const input = registration({ firstName: 'Grace' });
      const registered = await client.graphql<{ register: { email: string; tokens: number } }>(
        'mutation($input: RegisterInput!) { register(input: $input) { email tokens firstName } }',
        { input },
      );
      expect(registered.data?.register).toEqual({ email: input.email, tokens: 15, firstName: 'Grace' });
      expect((await client.graphql<{ me: { email: string } }>(ME)).data?.me.email).toBe(input.email);
      expect((await client.graphql('mutation { logout }')).data).toEqual({ logout: true });
      expect((await client.graphql(ME)).data).toEqual({ me: null });
      const login = await client.graphql<{ login: { email: string } }>('mutation($input: LoginInput!) { login(input: $input) { email } }', {
        input: { email: input.email, password: input.password },
      });
      expect(login.data?.login.email).toBe(input.email);
      expect((await client.graphql<{ me: { email: string } }>(ME)).data?.me.email).toBe(input.email);
    });

    it('reports errors with stable codes and field messages', async () => {
      const result = await client.graphql('mutation($input: RegisterInput!) { register(input: $input) { id } }', {
        input: registration({ confirmPassword: 'different!!' }),
      });
      expect(result.errors?.[0]).toMatchObject({
        message: "Passwords don't match",
        extensions: { code: 'VALIDATION_FAILED', fieldErrors: { confirmPassword: "Passwords don't match" } },
      });
      const unauthenticated = await client.graphql('{ dashboardStats { chatMessages } }');
      expect(unauthenticated.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    });

    it('accepts a bearer session token as well as the cookie (third-party clients)', async () => {
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const token = client.cookie!.split('=')[1]!;
      const bearer = new TestClient(platform.url);
      const result = await bearer.graphql<{ me: { tokens: number } }>(ME, undefined, { authorization: `Bearer ${token}` });
      expect(result.data?.me.tokens).toBe(15);
    });

    it('refuses queries nested beyond the depth limit', async () => {
      const deep = `{ ${'__schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } } }'} }`;
      const result = await client.graphql(deep);
      expect(result.errors?.[0]).toMatchObject({
        message: expect.stringMatching(/^Query depth limit of 12 exceeded/),
        extensions: { code: 'QUERY_TOO_COMPLEX' },
      });
    });

    it('grantTokens is for operators only', async () => {
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const result = await client.graphql('mutation { grantTokens(email: "x@example.com", amount: 5, reason: "x") { balance } }');
      expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    });

    it('pushes tokenBalanceChanged live to the member (and only to them) when an operator grants tokens', async () => {
      const input = registration();
      await client.fetch('/api/auth/register', { method: 'POST', json: input });
      const bystander = new TestClient(platform.url);
      await bystander.fetch('/api/auth/register', { method: 'POST', json: registration() });

      const ws = client.subscriptions();
      const otherWs = bystander.subscriptions();
      const query = 'subscription { tokenBalanceChanged { balance delta reason occurredAt } }';
      const mine = collect<{ tokenBalanceChanged: { balance: number; delta: number; reason: string } }>(ws, query, 1);
      const theirs = collect(otherWs, query, 1);
      await new Promise((resolve) => setTimeout(resolve, 300));

      const operator = new TestClient(platform.url);
      const grant = await operator.graphql<{ grantTokens: { balance: number } }>(
        'mutation($email: String!) { grantTokens(email: $email, amount: 5, reason: "Welcome bonus") { balance delta } }',
        { email: input.email },
        { authorization: `Bearer ${OPERATOR_TOKEN}` },
      );
      expect(grant.data?.grantTokens).toEqual({ balance: 20, delta: 5 });
      const [change] = await mine.done;
      expect(change!.tokenBalanceChanged).toMatchObject({ balance: 20, delta: 5, reason: 'Welcome bonus' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The bystander may still hear of their own first allowance (its event can arrive after they subscribed), never of another's.
      const heard = theirs.values as { tokenBalanceChanged: { reason: string } }[];
      expect(heard.filter(({ tokenBalanceChanged }) => tokenBalanceChanged.reason !== 'Monthly free allowance')).toEqual([]);
      await eventually(async () => expect((await client.graphql<{ me: { tokens: number } }>(ME)).data?.me.tokens).toBe(20));
      mine.stop();
      theirs.stop();
      await ws.dispose();
      await otherWs.dispose();
    });

    it('refuses a WebSocket opened by another site', async () => {
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const socket = new WebSocket(`${platform.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', {
        headers: { cookie: client.cookie!, origin: 'https://evil.example' },
      });
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init' }));
      const code = await new Promise<number>((resolve) => socket.once('close', (closeCode) => resolve(closeCode)));
      expect(code).toBe(4403);
    });

    /** A signed-in graphql-ws connection with one live subscription; resolves with the code it is closed with. */
    async function openLiveSocket(cookie: string, url = platform.url) {
      const socket = new WebSocket(`${url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { headers: { cookie } });
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ type: 'connection_init' }));
      await new Promise<void>((resolve) => socket.once('message', () => resolve()));
      socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: 'subscription { tokenBalanceChanged { balance } }' } }));
      return { socket, closed };
    }

    it("closes a member's open WebSockets when they sign out, and only theirs", async () => {
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const other = new TestClient(platform.url);
      await other.fetch('/api/auth/register', { method: 'POST', json: registration() });
      const first = await openLiveSocket(client.cookie!);
      const second = await openLiveSocket(client.cookie!);
      const bystander = await openLiveSocket(other.cookie!);

      const loggedOut = await client.graphql<{ logout: boolean }>('mutation { logout }');
      expect(loggedOut.data?.logout).toBe(true);
      await expect(first.closed).resolves.toBe(4401);
      await expect(second.closed).resolves.toBe(4401);
      // The other member's connection stays open.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(bystander.socket.readyState).toBe(WebSocket.OPEN);
      bystander.socket.close();
    });

    it('closes a WebSocket whose session ended elsewhere (another gateway, expiry) at the next check', async () => {
      // A second gateway on the same bus that checks every 300 ms; the session ends without it hearing of it.
      const second = await createGateway({
        bus: platform.bus,
        config: { ...readGatewayConfig({}), port: 0, wsSessionCheckMs: 300 },
        storage: new MemoryStorage(),
      });
      const { url } = await second.listen();
      try {
        await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
        const { id } = (await (await client.fetch('/api/user')).json()) as { id: string };
        const live = await openLiveSocket(client.cookie!, url);
        const identityDb = platform.services.find((service) => service.name === 'identity')!.db;
        await identityDb.query(`DELETE FROM "identity"."sessions" WHERE "user_id" = $1`, [id]);
        await expect(live.closed).resolves.toBe(4401);
      } finally {
        await second.close();
      }
    });

    it('refuses the subscription when signed out', async () => {
      const ws = client.subscriptions();
      const sub = collect(ws, 'subscription { tokenBalanceChanged { balance } }', 1);
      await expect(sub.done).rejects.toThrow(/Unauthorized/);
      await ws.dispose();
    });
  });
});
