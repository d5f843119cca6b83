import WebSocket from 'ws';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityRpc } from '@app/schema';
import { type TestTarget, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(300_000);

interface GraphQLReply<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; fieldErrors?: Record<string, string> } }[];
}
interface CreatedToken {
  secret: string;
  token: { id: string; name: string; scopes: string[]; prefix: string; lastUsedAt: string | null; expiresAt: string | null };
}

const CREATE = `mutation($input: AccessTokenInput!) {
  createAccessToken(input: $input) { secret token { id name scopes prefix lastUsedAt expiresAt } } }`;
const LIST = '{ accessTokens { id name scopes prefix lastUsedAt expiresAt } }';
const REVOKE = 'mutation($id: ID!) { revokeAccessToken(id: $id) }';
const MODERATE = 'mutation($input: ModerationActionInput!) { moderate(input: $input) { id } }';

/** What a third-party client holding only a token can do: no cookie, `Authorization: Bearer`. */
class TokenClient {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
  ) {}

  fetch(path: string, init: { method?: string; json?: unknown } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.secret}` };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${this.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
  }

  async graphql<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<GraphQLReply<T> & { status: number }> {
    const response = await this.fetch('/graphql', { method: 'POST', json: { query, variables } });
    return { status: response.status, ...((await response.json()) as GraphQLReply<T>) };
  }

  /** A graphql-ws connection authenticated by `connectionParams`, as a third-party client opens one. */
  async socket() {
    const socket = new WebSocket(`${this.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    const messages: { id?: string; type: string; payload?: unknown }[] = [];
    socket.on('message', (raw) => messages.push(JSON.parse(String(raw)) as (typeof messages)[number]));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${this.secret}` } }));
    await new Promise<void>((resolve) => socket.once('message', () => resolve()));
    const next = async (id: string) => {
      for (let waited = 0; waited < 10_000; waited += 20) {
        const found = messages.find((message) => message.id === id);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no answer to operation ${id}`);
    };
    const subscribe = (id: string, query: string) => socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query } }));
    const run = (id: string, query: string) => {
      subscribe(id, query);
      return next(id);
    };
    return { socket, closed, run, subscribe };
  }
}

/** Personal access tokens: created and revoked by members, used by third-party clients over HTTP and WebSocket, held to their scopes. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('access tokens on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let member: TestClient;

  const gql = <T = Record<string, unknown>>(client: TestClient, query: string, variables?: Record<string, unknown>) =>
    client.graphql(query, variables) as Promise<GraphQLReply<T>>;
  const code = (reply: GraphQLReply) => reply.errors?.[0]?.extensions?.code;

  async function signedUp() {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
    expect(response.status).toBe(201);
    return client;
  }
  async function create(client: TestClient, input: Record<string, unknown>) {
    const reply = await gql<{ createAccessToken: CreatedToken }>(client, CREATE, { input });
    expect(reply.errors).toBeUndefined();
    return reply.data!.createAccessToken;
  }

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0, wsSessionCheckMs: 3_600_000 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', SIGNUP_TOKEN_GRANT: '20' },
    });
    member = await signedUp();
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  it('shows the secret once, then lists the token by name, scopes and prefix only', async () => {
    const created = await create(member, { name: 'My bot', scopes: ['READ', 'CHAT'], expiresInDays: 30 });
    expect(created.secret).toMatch(/^cpat_[\w-]{43}$/);
    expect(created.token).toMatchObject({ name: 'My bot', scopes: ['READ', 'CHAT'], prefix: created.secret.slice(0, 9), lastUsedAt: null });
    const days = (Date.parse(created.token.expiresAt!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);

    const listed = await gql<{ accessTokens: CreatedToken['token'][] }>(member, LIST);
    expect(listed.data!.accessTokens).toContainEqual(created.token);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const rest = await member.fetch('/api/tokens');
    expect(rest.status).toBe(200);
    // /api speaks the contract's lower-case scopes.
    expect(await rest.json()).toContainEqual({ ...created.token, scopes: ['read', 'chat'], createdAt: expect.any(String) });
  });

  it('answers bad input with the field that is wrong', async () => {
    const noScopes = await gql(member, CREATE, { input: { name: 'x', scopes: [] } });
    expect(code(noScopes)).toBe('VALIDATION_FAILED');
    expect(noScopes.errors![0]!.message).toBe('Choose at least one scope');
    const noName = await member.fetch('/api/tokens', { method: 'POST', json: { name: '  ', scopes: ['read'] } });
    expect(noName.status).toBe(400);
    expect(await noName.json()).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: { name: 'Give the token a name' } });
    const forever = await member.fetch('/api/tokens', { method: 'POST', json: { name: 'x', scopes: ['read'], expiresInDays: 400 } });
    expect(await forever.json()).toMatchObject({ fieldErrors: { expiresInDays: 'A token lasts at most 365 days' } });
    const visitor = await gql(new TestClient(platform.url), CREATE, { input: { name: 'x', scopes: ['READ'] } });
    expect(code(visitor)).toBe('UNAUTHENTICATED');
  });

  it('works as Authorization: Bearer over HTTP, within its scopes, for GraphQL and /api alike', async () => {
    const { secret } = await create(member, { name: 'chat bot', scopes: ['READ', 'CHAT'] });
    const bot = new TokenClient(platform.url, secret);
    const me = await bot.graphql<{ me: { email: string } }>('{ me { email } }');
    expect(me.data?.me.email).toMatch(/@example\.com$/);
    expect((await bot.fetch('/api/user')).status).toBe(200);

    // chat: a conversation and a message, through both edges.
    const conversation = await bot.graphql<{ createConversation: { id: string } }>(
      'mutation { createConversation(title: "From my bot") { id } }',
    );
    expect(conversation.errors).toBeUndefined();
    const sent = await bot.graphql<{ sendMessage: { userMessage: { id: string } } }>(
      'mutation($id: ID!) { sendMessage(conversationId: $id, content: "Hello from a token") { userMessage { id } } }',
      { id: conversation.data!.createConversation.id },
    );
    expect(sent.errors).toBeUndefined();
    expect((await bot.fetch('/api/conversations', { method: 'POST', json: { title: 'REST bot' } })).status).toBe(201);

    // generate is not among its scopes.
    const image = await bot.graphql('mutation { generateImage(input: { prompt: "a lighthouse at dusk" }) { id } }');
    expect(image.status).toBe(403);
    expect(image.errors![0]).toMatchObject({
      message: 'This access token lacks the generate scope that generateImage needs.',
      extensions: { code: 'FORBIDDEN' },
    });
    const restImage = await bot.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'a lighthouse at dusk' } });
    expect(restImage.status).toBe(403);
    expect(await restImage.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This access token lacks the generate scope that POST /api/generate/image needs.',
    });

    // The last use shows in the owner's list.
    const listed = await gql<{ accessTokens: { name: string; lastUsedAt: string | null }[] }>(member, LIST);
    expect(listed.data!.accessTokens.find((token) => token.name === 'chat bot')?.lastUsedAt).not.toBeNull();
  });

  it('can never create tokens, sign in or out, or reach moderation, even through a fragment', async () => {
    const { secret } = await create(member, { name: 'everything', scopes: ['READ', 'CHAT', 'GENERATE'] });
    const bot = new TokenClient(platform.url, secret);
    const direct = await bot.graphql(CREATE, { input: { name: 'child', scopes: ['READ'] } });
    expect(direct.errors![0]).toMatchObject({
      message: 'Access tokens cannot use createAccessToken; sign in to the site for it.',
      extensions: { code: 'FORBIDDEN' },
    });
    const smuggled = await bot.graphql(
      'mutation { ...Sneaky } fragment Sneaky on Mutation { ... on Mutation { revokeAccessToken(id: "00000000-0000-4000-8000-000000000000") } }',
    );
    expect(smuggled.errors![0]!.message).toBe('Access tokens cannot use revokeAccessToken; sign in to the site for it.');
    expect((await bot.graphql('mutation { logout }')).errors![0]!.extensions?.code).toBe('FORBIDDEN');
    expect((await bot.graphql('{ moderationQueue(first: 5) { openCount } }')).errors![0]!.extensions?.code).toBe('FORBIDDEN');
    expect((await bot.graphql(LIST)).errors![0]!.message).toBe('Access tokens cannot use accessTokens; sign in to the site for it.');
    expect((await bot.fetch('/api/tokens', { method: 'POST', json: { name: 'child', scopes: ['read'] } })).status).toBe(403);
    expect((await bot.fetch('/api/signout', { method: 'POST' })).status).toBe(403);
    // Nothing was created: the member still holds only the tokens they made.
    const names = (await gql<{ accessTokens: { name: string }[] }>(member, LIST)).data!.accessTokens.map((token) => token.name);
    expect(names).not.toContain('child');
  });

  it('works over WebSocket with connectionParams, within its scopes', async () => {
    const { secret } = await create(member, { name: 'reader', scopes: ['READ'] });
    const live = await new TokenClient(platform.url, secret).socket();
    const me = await live.run('1', '{ me { email } }');
    expect(me).toMatchObject({ type: 'next', payload: { data: { me: { email: expect.stringMatching(/@example\.com$/) } } } });
    const refused = await live.run('2', 'mutation { createConversation(title: "x") { id } }');
    expect(refused).toMatchObject({
      type: 'error',
      payload: [{ message: 'This access token lacks the chat scope that createConversation needs.', extensions: { code: 'FORBIDDEN' } }],
    });
    live.socket.close();
  });

  it('a revoked token is refused at once over HTTP and WebSocket, and its open sockets close', async () => {
    const { secret, token } = await create(member, { name: 'to revoke', scopes: ['READ'] });
    const bot = new TokenClient(platform.url, secret);
    expect((await bot.graphql<{ me: { email: string } | null }>('{ me { email } }')).data?.me).not.toBeNull();
    const live = await bot.socket();
    live.subscribe('1', 'subscription { tokenBalanceChanged { balance } }');

    // Another member cannot revoke it.
    const stranger = await signedUp();
    expect(code(await gql(stranger, REVOKE, { id: token.id }))).toBe('NOT_FOUND');
    expect((await bot.graphql<{ me: unknown }>('{ me { email } }')).data?.me).not.toBeNull();

    const revoked = await gql<{ revokeAccessToken: string }>(member, REVOKE, { id: token.id });
    expect(revoked.data?.revokeAccessToken).toBe(token.id);
    await expect(live.closed).resolves.toBe(4401);
    expect((await bot.graphql<{ me: unknown }>('{ me { email } }')).data?.me).toBeNull();
    expect((await bot.fetch('/api/user')).status).toBe(401);
    const again = await bot.socket();
    expect(await again.run('1', '{ me { email } }')).toMatchObject({ type: 'next', payload: { data: { me: null } } });
    again.socket.close();
    expect((await gql<{ accessTokens: { id: string }[] }>(member, LIST)).data!.accessTokens.map((t) => t.id)).not.toContain(token.id);
    expect((await member.fetch(`/api/tokens/${token.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it("a suspension revokes the member's tokens: they stay refused after the member is unsuspended", async () => {
    const owner = await signedUp();
    const ownerId = (await gql<{ me: { id: string } }>(owner, '{ me { id } }')).data!.me.id;
    const { secret } = await create(owner, { name: 'before suspension', scopes: ['READ'] });
    const bot = new TokenClient(platform.url, secret);
    const live = await bot.socket();
    expect((await bot.fetch('/api/user')).status).toBe(200);

    const credentials = registration();
    expect((await new TestClient(platform.url).fetch('/api/auth/register', { method: 'POST', json: credentials })).status).toBe(201);
    await platform.bus.request(identityRpc.grantRole, { email: credentials.email, role: 'moderator', actorId: null, reason: 'test' });
    // Signed in after the grant, so the gateway reads the role afresh.
    const moderator = new TestClient(platform.url);
    await moderator.fetch('/api/auth/login', { method: 'POST', json: { email: credentials.email, password: credentials.password } });
    const act = (action: string) =>
      gql(moderator, MODERATE, { input: { action, targetKind: 'MEMBER', targetId: ownerId, reason: 'Token abuse' } });
    expect((await act('SUSPEND')).errors).toBeUndefined();
    await expect(live.closed).resolves.toBe(4401);
    expect((await bot.fetch('/api/user')).status).toBe(401);
    expect((await act('UNSUSPEND')).errors).toBeUndefined();
    expect((await bot.fetch('/api/user')).status).toBe(401);
  });

  it('holds at most 20 usable tokens per member', async () => {
    const owner = await signedUp();
    for (let index = 0; index < 20; index++) await create(owner, { name: `token ${index}`, scopes: ['READ'] });
    const over = await gql(owner, CREATE, { input: { name: 'one too many', scopes: ['READ'] } });
    expect(code(over)).toBe('CONFLICT');
    expect(over.errors![0]!.message).toMatch(/^You have 20 access tokens/);
  });
});
