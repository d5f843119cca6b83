import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { createGateway, readGatewayConfig } from '@app/gateway';
import { MemoryStorage } from '@app/kit';
import { type TestTarget, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(300_000);

const LIMITS = { perAddress: 6, perCredential: 3, windowSeconds: 60 };
const CREATE_TOKEN = 'mutation($input: AccessTokenInput!) { createAccessToken(input: $input) { secret } }';
const ME = '{ me { id } }';

interface Answer {
  status: number;
  headers: Headers;
  body: { data?: unknown; errors?: { message: string; extensions?: { code?: string; retryAfterSeconds?: number } }[] };
}

/** Rate limits on /graphql: per address and per credential, RateLimit-* headers, 429 + Retry-After, shared by every gateway. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('GraphQL rate limits on %s', (name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let databaseUrl: string | null;
  let nextAddress = 1;

  // Each case speaks from addresses of its own (the gateway trusts one proxy hop in these tests).
  const freshAddress = () => `198.51.100.${nextAddress++}`;

  async function post(baseUrl: string, query: string, from: string, credential: { bearer?: string; cookie?: string | null } = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': from };
    if (credential.bearer) headers.authorization = `Bearer ${credential.bearer}`;
    if (credential.cookie) headers.cookie = credential.cookie;
    const response = await fetch(`${baseUrl}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer['body'] };
  }

  async function signedUpMember(details = registration()) {
    const member = new TestClient(platform.url);
    const response = await member.fetch('/api/auth/register', {
      method: 'POST',
      json: details,
      headers: { 'x-forwarded-for': freshAddress() },
    });
    expect(response.status).toBe(201);
    return member;
  }

  async function tokenOf(member: TestClient): Promise<string> {
    const created = await fetch(`${platform.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: member.cookie!, 'x-forwarded-for': freshAddress() },
      body: JSON.stringify({ query: CREATE_TOKEN, variables: { input: { name: 'bot', scopes: ['READ'] } } }),
    });
    const body = (await created.json()) as { data: { createAccessToken: { secret: string } } };
    return body.data.createAccessToken.secret;
  }

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    databaseUrl = created.infra.databaseUrl;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0, trustProxyHops: 1, graphqlRateLimits: LIMITS },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  it('counts an address down in RateLimit-* headers, then answers 429 with Retry-After and a GraphQL error', async () => {
    const from = freshAddress();
    const answers: Answer[] = [];
    for (let i = 0; i < LIMITS.perAddress; i++) answers.push(await post(platform.url, '{ __typename }', from));
    expect(answers.map((answer) => answer.status)).toEqual(Array(LIMITS.perAddress).fill(200));
    expect(answers.map((answer) => answer.headers.get('ratelimit-remaining'))).toEqual(['5', '4', '3', '2', '1', '0']);
    expect(answers[0]!.headers.get('ratelimit-limit')).toBe('6');
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('6;w=60');
    expect(Number(answers[0]!.headers.get('ratelimit-reset'))).toBeGreaterThan(0);

    const refused = await post(platform.url, '{ __typename }', from);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.errors?.[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED', retryAfterSeconds: retryAfter } });
    expect(refused.body.errors?.[0]?.message).toMatch(/too many requests/i);

    // Another address is not held back by this one.
    expect((await post(platform.url, '{ __typename }', freshAddress())).status).toBe(200);
  });

  it('holds an access token to its own limit from any address, while another token of the same member goes on', async () => {
    const member = await signedUpMember();
    const first = await tokenOf(member);
    const second = await tokenOf(member);
    for (let i = 0; i < LIMITS.perCredential; i++) {
      const answer = await post(platform.url, ME, freshAddress(), { bearer: first });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-remaining')).toBe(String(LIMITS.perCredential - 1 - i));
    }
    // A new address does not help: the token itself is spent.
    const refused = await post(platform.url, ME, freshAddress(), { bearer: first });
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.message).toMatch(/this credential/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const other = await post(platform.url, ME, freshAddress(), { bearer: second });
    expect(other.status).toBe(200);
    expect(other.body.data).toMatchObject({ me: { id: expect.any(String) } });
  });

  it("counts a member's browser sessions together", async () => {
    const details = registration();
    const member = await signedUpMember(details);
    const again = new TestClient(platform.url);
    const login = await again.fetch('/api/auth/login', {
      method: 'POST',
      json: { email: details.email, password: details.password },
      headers: { 'x-forwarded-for': freshAddress() },
    });
    expect(login.status).toBe(200);
    for (let i = 0; i < LIMITS.perCredential; i++) {
      const session = i % 2 === 0 ? member : again;
      expect((await post(platform.url, ME, freshAddress(), { cookie: session.cookie })).status).toBe(200);
    }
    expect((await post(platform.url, ME, freshAddress(), { cookie: again.cookie })).status).toBe(429);
  });

  if (name.startsWith('distributed')) {
    it('shares the counts between gateways through PostgreSQL', async () => {
      const second = await createGateway({
        bus: platform.bus,
        databaseUrl,
        config: { ...readGatewayConfig({}), port: 0, trustProxyHops: 1, graphqlRateLimits: LIMITS },
        storage: new MemoryStorage(),
      });
      const { url } = await second.listen();
      try {
        const from = freshAddress();
        for (let i = 0; i < LIMITS.perAddress - 1; i++) expect((await post(platform.url, '{ __typename }', from)).status).toBe(200);
        const last = await post(url, '{ __typename }', from);
        expect(last.status).toBe(200);
        expect(last.headers.get('ratelimit-remaining')).toBe('0');
        expect((await post(url, '{ __typename }', from)).status).toBe(429);
        expect((await post(platform.url, '{ __typename }', from)).status).toBe(429);
      } finally {
        await second.close();
      }
    });
  }
});
