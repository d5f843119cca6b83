import { gzipSync } from 'node:zlib';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type TestTarget, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(120_000);

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789';
/** U+0000, which PostgreSQL cannot store, and unpaired surrogates (a high and a low one), which are not Unicode. */
const NUL_TEXT = 'before\u0000after';
const BAD_TEXTS = [NUL_TEXT, '\ud800', 'ok \udc00 ok'];

interface RestError {
  code: string;
  message: string;
  fieldErrors?: Record<string, string>;
}
interface GraphQLReply<T = Record<string, unknown>> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; fieldErrors?: Record<string, string> } }[];
}

/** A REST answer refusing `field` for the character `codePoint`, with the message under the field too. */
async function expectRestRefusal(response: Response, field: string, codePoint = 'U+0000'): Promise<void> {
  const body = (await response.json()) as RestError;
  expect({ status: response.status, code: body.code }).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
  expect(body.message).toContain(`${field} contains `);
  expect(body.message).toContain(`(${codePoint})`);
  expect(body.fieldErrors).toEqual({ [field]: body.message });
}

function expectGraphQLRefusal(reply: GraphQLReply, field: string, codePoint = 'U+0000'): void {
  const [error] = reply.errors ?? [];
  expect(error?.extensions?.code).toBe('VALIDATION_FAILED');
  expect(error?.message).toContain(`${field} contains `);
  expect(error?.message).toContain(`(${codePoint})`);
  expect(error?.extensions?.fieldErrors).toEqual({ [field]: error?.message });
}

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('bad input on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let member: TestClient;
  let conversationId: string;
  let characterId: string;

  const rest = (client: TestClient, method: string, path: string, json?: unknown) => client.fetch(path, { method, json });
  const graphql = <T = Record<string, unknown>>(client: TestClient, query: string, variables?: Record<string, unknown>) =>
    client.graphql<T>(query, variables) as Promise<GraphQLReply<T>>;
  const tokens = async () => ((await (await member.fetch('/api/user')).json()) as { tokens: number }).tokens;
  const conversations = async () => (await (await member.fetch('/api/conversations')).json()) as { id: string; title: string }[];
  const characters = async () => (await (await member.fetch('/api/characters')).json()) as { id: string; name: string }[];
  const messages = async () => (await (await member.fetch(`/api/conversations/${conversationId}/messages`)).json()) as unknown[];

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0, operatorToken: OPERATOR_TOKEN, generationsPerAddressPerMinute: 100_000 },
      env: {
        SIGNUPS_PER_IP_PER_HOUR: '100000',
        MEDIA_GENERATIONS_PER_MINUTE: '100000',
        CHAT_SENDS_PER_MINUTE: '100000',
        CHAT_CONVERSATIONS_PER_MINUTE: '100000',
      },
    });
    member = new TestClient(platform.url);
    await member.fetch('/api/auth/register', { method: 'POST', json: registration() });
    conversationId = ((await (await rest(member, 'POST', '/api/conversations', { title: 'Kept' })).json()) as { id: string }).id;
    characterId = (
      (await (await rest(member, 'POST', '/api/characters', { name: 'Nova', personalityTraits: ['Calm'] })).json()) as { id: string }
    ).id;
  });
  afterAll(async () => {
    await platform.stop();
    await cleanup();
  });

  describe('U+0000 in a text field is refused with 400 naming the field, and nothing is stored', () => {
    it('first name at registration (REST and GraphQL): the same e-mail registers afterwards', async () => {
      const input = registration({ firstName: NUL_TEXT });
      await expectRestRefusal(await rest(new TestClient(platform.url), 'POST', '/api/auth/register', input), 'firstName');
      const viaGraphQL = await graphql(
        new TestClient(platform.url),
        'mutation($input: RegisterInput!) { register(input: $input) { id } }',
        {
          input,
        },
      );
      expectGraphQLRefusal(viaGraphQL, 'firstName');
      const registered = await rest(new TestClient(platform.url), 'POST', '/api/auth/register', { ...input, firstName: 'Ada' });
      expect(registered.status).toBe(201);
    });

    it('conversation title, on create and rename (REST, GraphQL variables and inline literals)', async () => {
      const before = await conversations();
      const created = await rest(member, 'POST', '/api/conversations', { title: NUL_TEXT });
      expect(await created.clone().json()).toMatchObject({ message: 'title contains a null character (U+0000), which is not allowed.' });
      await expectRestRefusal(created, 'title');
      await expectRestRefusal(await rest(member, 'PATCH', `/api/conversations/${conversationId}`, { title: NUL_TEXT }), 'title');
      expectGraphQLRefusal(
        await graphql(member, 'mutation($title: String) { createConversation(title: $title) { id } }', { title: NUL_TEXT }),
        'title',
      );
      expectGraphQLRefusal(await graphql(member, 'mutation { createConversation(title: "a\\u0000b") { id } }'), 'title');
      expectGraphQLRefusal(
        await graphql(member, `mutation { renameConversation(id: "${conversationId}", title: "\\u0000") { id } }`),
        'title',
      );
      expect(await conversations()).toEqual(before);
      expect(before.find((conversation) => conversation.id === conversationId)?.title).toBe('Kept');
    });

    it('character name (REST and GraphQL)', async () => {
      const before = await characters();
      await expectRestRefusal(await rest(member, 'POST', '/api/characters', { name: NUL_TEXT }), 'name');
      await expectRestRefusal(await rest(member, 'PUT', `/api/characters/${characterId}`, { name: NUL_TEXT }), 'name');
      const create = 'mutation($input: CharacterInput!) { createCharacter(input: $input) { id } }';
      expectGraphQLRefusal(await graphql(member, create, { input: { name: NUL_TEXT } }), 'name');
      expectGraphQLRefusal(await graphql(member, 'mutation { createCharacter(input: { name: "N\\u0000va" }) { id } }'), 'name');
      expect(await characters()).toEqual(before);
    });

    it('message content (REST and GraphQL); no token is spent', async () => {
      const [balance, before] = [await tokens(), await messages()];
      await expectRestRefusal(await rest(member, 'POST', `/api/chat/${conversationId}`, { content: NUL_TEXT }), 'content');
      const send = 'mutation($id: ID, $content: String!) { sendMessage(conversationId: $id, content: $content) { userMessage { id } } }';
      expectGraphQLRefusal(await graphql(member, send, { id: conversationId, content: NUL_TEXT }), 'content');
      expect(await messages()).toEqual(before);
      expect(await tokens()).toBe(balance);
    });

    it('image prompt (REST and GraphQL); no token is spent and no job is queued', async () => {
      const balance = await tokens();
      await expectRestRefusal(await rest(member, 'POST', '/api/generate/image', { prompt: NUL_TEXT }), 'prompt');
      await expectRestRefusal(await rest(member, 'POST', '/api/generations', { prompt: NUL_TEXT }), 'prompt');
      const generate = 'mutation($input: GenerateImageInput!) { generateImage(input: $input) { id } }';
      expectGraphQLRefusal(await graphql(member, generate, { input: { prompt: NUL_TEXT } }), 'prompt');
      expect(await tokens()).toBe(balance);
      expect((await graphql(member, '{ activeGenerations { id } }')).data).toEqual({ activeGenerations: [] });
    });

    it('gallery search (REST query string and GraphQL)', async () => {
      await expectRestRefusal(await member.fetch('/api/images/public?search=cat%00dog'), 'search');
      await expectRestRefusal(await member.fetch('/api/images?search=%00'), 'search');
      expectGraphQLRefusal(await graphql(member, '{ publicImages(search: "\\u0000") { nodes { id } } }'), 'search');
      expectGraphQLRefusal(await graphql(member, 'query($q: String) { myImages(search: $q) { nodes { id } } }', { q: NUL_TEXT }), 'search');
    });

    it('grant reason (operator token): the balance is unchanged', async () => {
      const email = ((await (await member.fetch('/api/user')).json()) as { email: string }).email;
      const balance = await tokens();
      const operator = new TestClient(platform.url);
      const grant = await operator.graphql(
        'mutation($email: String!, $reason: String!) { grantTokens(email: $email, amount: 5, reason: $reason) { balance } }',
        { email, reason: NUL_TEXT },
        { authorization: `Bearer ${OPERATOR_TOKEN}` },
      );
      expectGraphQLRefusal(grant, 'reason');
      expect(await tokens()).toBe(balance);
    });
  });

  it('unpaired surrogates in character traits are refused with 400 (raw JSON escapes, REST and GraphQL)', async () => {
    const before = await characters();
    const post = (path: string, method: string, body: string) =>
      member.fetch(path, { method, body, headers: { 'content-type': 'application/json' } });
    await expectRestRefusal(
      await post('/api/characters', 'POST', '{"name":"Nova","personalityTraits":["Calm","\\ud800"]}'),
      'personalityTraits.1',
      'U+D800',
    );
    await expectRestRefusal(
      await post(`/api/characters/${characterId}`, 'PUT', '{"personalityTraits":["\\udfff"]}'),
      'personalityTraits.0',
      'U+DFFF',
    );
    const query = 'mutation($input: CharacterInput!) { createCharacter(input: $input) { id } }';
    const viaGraphQL = await post(
      '/graphql',
      'POST',
      `{"query":${JSON.stringify(query)},"variables":{"input":{"name":"Nova","personalityTraits":["x\\udc00"]}}}`,
    );
    expectGraphQLRefusal((await viaGraphQL.json()) as GraphQLReply, 'personalityTraits.0', 'U+DC00');
    // GraphQL's own string syntax has no unpaired surrogates: a literal one is a syntax error, never a 5xx.
    const literal = await member.graphql('mutation { createCharacter(input: { name: "Nova", personalityTraits: ["\\ud800"] }) { id } }');
    expect(literal.errors?.[0]?.extensions?.code).toBe('GRAPHQL_PARSE_FAILED');
    expect(await characters()).toEqual(before);
  });

  it('answers an id that cannot exist as NOT_FOUND on every route and field, and node(id:) as null', async () => {
    const bad = 'not-a-uuid';
    const routes: [string, string, unknown?][] = [
      ['GET', `/api/conversations/${bad}`],
      ['PATCH', `/api/conversations/${bad}`, { title: 'Renamed' }],
      ['DELETE', `/api/conversations/${bad}`],
      ['GET', `/api/conversations/${bad}/messages`],
      ['POST', `/api/chat/${bad}`, { content: 'Hello' }],
      ['POST', `/api/chat/${bad}/stop`],
      ['GET', `/api/characters/${bad}`],
      ['PUT', `/api/characters/${bad}`, { name: 'Nova' }],
      ['GET', `/api/characters/${bad}/avatar`],
      ['GET', `/api/images/${bad}`],
      ['POST', `/api/images/${bad}/like`],
      ['PUT', `/api/images/${bad}/visibility`, { isPublic: true }],
      ['GET', `/api/generations/${bad}`],
      ['DELETE', `/api/tokens/${bad}`],
      ['DELETE', `/api/notices/${bad}`],
      ['GET', `/api/media/images/${bad}/original.png`],
    ];
    for (const [method, path, json] of routes) {
      const response = await rest(member, method, path, json);
      expect([method, path, response.status, ((await response.json()) as RestError).code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    const fields = [
      `{ conversation(id: "${bad}") { id } }`,
      `{ messages(conversationId: "${bad}") { nodes { id } } }`,
      `{ message(id: "${bad}") { id } }`,
      `{ character(id: "${bad}") { id } }`,
      `{ image(id: "${bad}") { id } }`,
      `{ generation(id: "${bad}") { id } }`,
      `mutation { deleteConversation(id: "${bad}") }`,
      `mutation { sendMessage(conversationId: "${bad}", content: "Hello") { userMessage { id } } }`,
      `mutation { likeImage(id: "${bad}") { id } }`,
      `mutation { revokeAccessToken(id: "${bad}") }`,
      `mutation { dismissNotice(id: "${bad}") }`,
    ];
    for (const query of fields) expect([query, (await graphql(member, query)).errors?.[0]?.extensions?.code]).toEqual([query, 'NOT_FOUND']);
    expect(await graphql(member, `{ node(id: "${bad}") { id } }`)).toEqual({ data: { node: null } });
  });

  it('refuses a page of fewer than 1 or more than 100 items as VALIDATION_FAILED naming the field, on every listing', async () => {
    const paths = ['/api/images?limit=0', '/api/images/public?limit=101', '/api/characters/public?limit=0'];
    for (const path of [...paths, `/api/conversations/${conversationId}/messages?limit=101`, '/api/images?limit=ten']) {
      const response = await member.fetch(path);
      expect([path, response.status, ((await response.json()) as RestError).fieldErrors]).toEqual([
        path,
        400,
        { limit: 'limit must be between 1 and 100' },
      ]);
    }
    const fields: [string, string][] = [
      ['{ conversations(first: 101) { totalCount } }', 'first'],
      ['{ characters(last: 0) { totalCount } }', 'last'],
      ['{ publicCharacters(first: 0) { nodes { id } } }', 'first'],
      [`{ messages(conversationId: "${conversationId}", last: 0) { nodes { id } } }`, 'last'],
      ['{ myImages(first: 101) { nodes { id } } }', 'first'],
      ['{ publicImages(first: 0) { nodes { id } } }', 'first'],
    ];
    for (const [query, field] of fields) {
      const [error] = (await graphql(member, query)).errors ?? [];
      expect([query, error?.extensions?.code, error?.extensions?.fieldErrors]).toEqual([
        query,
        'VALIDATION_FAILED',
        { [field]: `${field} must be between 1 and 100` },
      ]);
    }
  });

  it('a session cookie holding U+0000 is no session (401), not a refused request', async () => {
    const response = await fetch(`${platform.url}/api/user`, { headers: { cookie: 'sid=abc%00def' } });
    expect(response.status).toBe(401);
    const graphqlReply = await fetch(`${platform.url}/graphql`, {
      method: 'POST',
      headers: { cookie: 'sid=%00', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(await graphqlReply.json()).toEqual({ data: { me: null } });
  });

  describe('bodies the gateway cannot read answer 4xx, never 5xx', () => {
    const ME = JSON.stringify({ query: '{ me { id } }' });
    const postGraphQL = (headers: Record<string, string>, body: BodyInit = ME) =>
      fetch(`${platform.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    it('an unsupported charset is 415 with a clear message', async () => {
      const response = await postGraphQL({ 'content-type': 'application/json; charset=latin1' });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'The charset in Content-Type is not supported; send the body in UTF-8.',
      });
      const viaRest = await fetch(`${platform.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=latin1' },
        body: JSON.stringify({ email: 'a@example.com', password: 'a long enough password' }),
      });
      expect(viaRest.status).toBe(415);
    });

    it('a REST body nested past 32 levels is 400, not a 500 when it is passed on', async () => {
      for (const depth of [40, 5000, 45_000]) {
        const response = await fetch(`${platform.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: `{"email":"a@b.co","password":"xxxxxxxxxx","x":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        });
        expect([depth, response.status, await response.json()]).toEqual([
          depth,
          400,
          { code: 'VALIDATION_FAILED', message: 'The request body is nested too deeply.' },
        ]);
      }
    });

    it('an unsupported content encoding is 415; gzip is read; a corrupt gzip body is 400', async () => {
      const bogus = await postGraphQL({ 'content-encoding': 'bogus' });
      expect(bogus.status).toBe(415);
      expect(((await bogus.json()) as RestError).code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const gzip = await postGraphQL({ 'content-encoding': 'gzip' }, new Uint8Array(gzipSync(ME)));
      expect(await gzip.json()).toEqual({ data: { me: null } });
      const corrupt = await postGraphQL({ 'content-encoding': 'gzip' }, new TextEncoder().encode('not gzip at all'));
      expect(corrupt.status).toBe(400);
      expect(((await corrupt.json()) as RestError).code).toBe('VALIDATION_FAILED');
    });

    it('a URL that is not correctly percent-encoded is 400', async () => {
      const response = await member.fetch('/api/conversations/%E0%A4%A');
      expect(response.status).toBe(400);
      expect(((await response.json()) as RestError).code).toBe('VALIDATION_FAILED');
    });
  });

  /** A small fuzz without a library: every string of a valid request, replaced by each bad text, is refused, never a 5xx. */
  it('every string field of every text-taking request is refused when it holds text the database cannot store', async () => {
    const failures: unknown[] = [];
    for (const probe of probes(conversationId, characterId)) {
      for (const path of stringLeaves(probe.base)) {
        for (const text of probe.texts ?? BAD_TEXTS) {
          const outcome = await probe.send(member, withLeaf(probe.base, path, text));
          if (!outcome.refused || outcome.status >= 500 || outcome.codes.includes('INTERNAL')) {
            failures.push({ probe: probe.label, field: path.join('.'), text: JSON.stringify(text), ...outcome });
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

interface Outcome {
  status: number;
  refused: boolean;
  codes: string[];
}
interface Probe {
  label: string;
  base: Record<string, unknown>;
  /** The bad texts this request can carry at all. */
  texts?: string[];
  send(client: TestClient, body: Record<string, unknown>): Promise<Outcome>;
}

function probes(conversationId: string, characterId: string): Probe[] {
  const restProbe = (method: string, path: string, base: Record<string, unknown>): Probe => ({
    label: `${method} ${path}`,
    base,
    // A URL cannot carry an unpaired surrogate: encoding one gives U+FFFD, decoding its bytes fails.
    texts: method === 'GET' ? [NUL_TEXT] : undefined,
    send: async (client, body) => {
      const response =
        method === 'GET'
          ? await client.fetch(`${path}?${new URLSearchParams(body as Record<string, string>).toString()}`)
          : await client.fetch(path, { method, json: body });
      const json = (await response.json().catch(() => ({}))) as Partial<RestError>;
      return { status: response.status, refused: response.status >= 400, codes: json.code ? [json.code] : [] };
    },
  });
  const graphqlProbe = (query: string, base: Record<string, unknown>): Probe => ({
    label: query.slice(0, 60),
    base,
    send: async (client, variables) => {
      const response = await client.fetch('/graphql', { method: 'POST', json: { query, variables } });
      const reply = (await response.json()) as GraphQLReply;
      const codes = (reply.errors ?? []).map((error) => error.extensions?.code ?? 'NONE');
      return { status: response.status, refused: codes.length > 0, codes };
    },
  });
  const character = {
    name: 'Nova',
    description: 'A guide',
    personalityTraits: ['Calm', 'Wise'],
    scenario: 'A library',
    greeting: 'Hello',
    exampleDialogue: 'Hi',
    systemPrompt: 'Be kind',
  };
  return [
    restProbe('POST', '/api/auth/register', registration({ firstName: 'Ada', lastName: 'Lovelace' })),
    restProbe('POST', '/api/auth/login', { email: 'someone@example.com', password: 'a long enough password' }),
    restProbe('POST', '/api/interest', { kind: 'feature', label: 'vip-basic' }),
    restProbe('POST', '/api/conversations', { title: 'Hello', characterId }),
    restProbe('PATCH', `/api/conversations/${conversationId}`, { title: 'Renamed' }),
    restProbe('POST', `/api/chat/${conversationId}`, { content: 'Hello there' }),
    restProbe('POST', '/api/characters', character),
    restProbe('PUT', `/api/characters/${characterId}`, character),
    restProbe('POST', '/api/generations', { prompt: 'A lighthouse at dusk', style: 'vivid', size: '1024x1024', quality: 'standard' }),
    restProbe('GET', '/api/images', { search: 'lighthouse', order: 'newest' }),
    restProbe('GET', '/api/images/public', { search: 'lighthouse', cursor: 'WzAsIjIwMjYiLCJ4Il0' }),
    graphqlProbe('mutation($input: RegisterInput!) { register(input: $input) { id } }', { input: registration() }),
    graphqlProbe('mutation($input: LoginInput!) { login(input: $input) { id } }', {
      input: { email: 'someone@example.com', password: 'a long enough password' },
    }),
    graphqlProbe('mutation($kind: InterestKind!, $label: String!) { recordInterest(kind: $kind, label: $label) }', {
      kind: 'FEATURE',
      label: 'vip-basic',
    }),
    graphqlProbe('mutation($title: String, $characterId: ID) { createConversation(title: $title, characterId: $characterId) { id } }', {
      title: 'Hello',
      characterId,
    }),
    graphqlProbe('mutation($id: ID!, $title: String!) { renameConversation(id: $id, title: $title) { id } }', {
      id: conversationId,
      title: 'Renamed',
    }),
    graphqlProbe('mutation($id: ID, $content: String!) { sendMessage(conversationId: $id, content: $content) { userMessage { id } } }', {
      id: conversationId,
      content: 'Hello there',
    }),
    graphqlProbe('mutation($input: CharacterInput!) { createCharacter(input: $input) { id } }', { input: character }),
    graphqlProbe('mutation($id: ID!, $input: CharacterPatchInput!) { updateCharacter(id: $id, input: $input) { id } }', {
      id: characterId,
      input: character,
    }),
    graphqlProbe('mutation($input: GenerateImageInput!) { generateImage(input: $input) { id } }', { input: { prompt: 'A lighthouse' } }),
    graphqlProbe('query($search: String, $after: String) { myImages(search: $search, after: $after) { nodes { id } } }', {
      search: 'lighthouse',
      after: 'WzAsIjIwMjYiLCJ4Il0',
    }),
    graphqlProbe('query($search: String) { publicImages(search: $search) { nodes { id } } }', { search: 'lighthouse' }),
    graphqlProbe('mutation($file: String!) { importCharacterCard(fileBase64: $file) { id } }', { file: 'eyJuYW1lIjoiTm92YSJ9' }),
  ];
}

/** The path of every string in `value`, keys and indexes outermost first. */
function stringLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, [...path, index]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]));
  return [];
}

function withLeaf(base: Record<string, unknown>, path: (string | number)[], text: string): Record<string, unknown> {
  const copy = structuredClone(base);
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = text;
  return copy;
}
