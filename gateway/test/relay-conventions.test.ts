import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type TestTarget, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(300_000);

interface GraphQLReply<T> {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}
interface PageInfo {
  startCursor: string | null;
  endCursor: string | null;
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}
interface Connection {
  edges: { cursor: string; node: { id: string } }[];
  nodes: { id: string }[];
  pageInfo: PageInfo;
  totalCount: number | null;
}

const CONNECTION = 'edges { cursor node { id } } nodes { id } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } totalCount';
const CONVERSATIONS = `query($first: Int, $after: String, $last: Int, $before: String) {
  conversations(first: $first, after: $after, last: $last, before: $before) { ${CONNECTION} } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id
  ... on Conversation { title } ... on Character { name } ... on Message { role } ... on Image { prompt } ... on GenerationJob { status } } }`;
const CREATE_CONVERSATION =
  'mutation($title: String, $characterId: ID) { createConversation(title: $title, characterId: $characterId) { id } }';
const CREATE_CHARACTER = 'mutation($input: CharacterInput!) { createCharacter(input: $input) { id } }';

/** Relay conventions third-party clients rely on: connections paged both ways, `node(id:)`, deletes that answer the id. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('Relay conventions on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', SIGNUP_TOKEN_GRANT: '20' },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });

  async function member(): Promise<TestClient> {
    const client = new TestClient(platform.url);
    expect((await client.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
    return client;
  }
  async function gql<T>(client: TestClient, query: string, variables?: Record<string, unknown>): Promise<T> {
    const reply = (await client.graphql(query, variables)) as GraphQLReply<T>;
    expect(reply.errors).toBeUndefined();
    return reply.data!;
  }
  const errorCode = async (client: TestClient, query: string, variables?: Record<string, unknown>) =>
    ((await client.graphql(query, variables)) as GraphQLReply<unknown>).errors?.[0]?.extensions?.code;

  /** Starts conversations one after another: the newest is the most recently active. */
  async function startConversations(client: TestClient, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let index = 0; index < count; index++) {
      ids.push(
        (await gql<{ createConversation: { id: string } }>(client, CREATE_CONVERSATION, { title: `Chat ${index}` })).createConversation.id,
      );
    }
    return ids.reverse();
  }
  const conversations = async (client: TestClient, window: Record<string, unknown>) =>
    (await gql<{ conversations: Connection }>(client, CONVERSATIONS, window)).conversations;
  const node = async (client: TestClient, id: string) =>
    (await gql<{ node: ({ __typename: string; id: string } & Record<string, unknown>) | null }>(client, NODE, { id })).node;

  it('pages 5 conversations forwards with first: 2 and backwards with last: 2, with page info and the total', async () => {
    const client = await member();
    const newestFirst = await startConversations(client, 5);

    const forwards: Connection[] = [await conversations(client, { first: 2 })];
    while (forwards[forwards.length - 1]!.pageInfo.hasNextPage) {
      forwards.push(await conversations(client, { first: 2, after: forwards[forwards.length - 1]!.pageInfo.endCursor }));
    }
    expect(forwards.map((page) => page.nodes.map((c) => c.id))).toEqual([
      newestFirst.slice(0, 2),
      newestFirst.slice(2, 4),
      newestFirst.slice(4),
    ]);
    expect(forwards.map((page) => page.pageInfo.hasPreviousPage)).toEqual([false, true, true]);
    expect(forwards.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    for (const page of forwards) {
      expect(page.edges.map((edge) => edge.node)).toEqual(page.nodes);
      expect(page.pageInfo.startCursor).toBe(page.edges[0]!.cursor);
      expect(page.pageInfo.endCursor).toBe(page.edges[page.edges.length - 1]!.cursor);
    }

    const backwards: Connection[] = [await conversations(client, { last: 2 })];
    while (backwards[backwards.length - 1]!.pageInfo.hasPreviousPage) {
      backwards.push(await conversations(client, { last: 2, before: backwards[backwards.length - 1]!.pageInfo.startCursor }));
    }
    expect(backwards.map((page) => page.nodes.map((c) => c.id))).toEqual([
      newestFirst.slice(3),
      newestFirst.slice(1, 3),
      newestFirst.slice(0, 1),
    ]);
    expect(backwards.map((page) => page.pageInfo.hasNextPage)).toEqual([false, true, true]);

    // A stranger's list is their own.
    expect(await conversations(await member(), {})).toMatchObject({
      nodes: [],
      totalCount: 0,
      pageInfo: { startCursor: null, endCursor: null },
    });
  });

  it('refuses a malformed cursor, an out-of-range page and first with last as VALIDATION_FAILED', async () => {
    const client = await member();
    expect(await errorCode(client, CONVERSATIONS, { first: 2, after: 'bm90IGEgY3Vyc29y' })).toBe('VALIDATION_FAILED');
    expect(await errorCode(client, CONVERSATIONS, { first: 101 })).toBe('VALIDATION_FAILED');
    expect(await errorCode(client, CONVERSATIONS, { first: 2, last: 2 })).toBe('VALIDATION_FAILED');
    expect(await errorCode(client, '{ publicCharacters(last: 0) { nodes { id } } }')).toBe('VALIDATION_FAILED');
  });

  it('lists characters as connections: mine counted, public ones (at most 8 by default) not counted', async () => {
    const owner = await member();
    const character = (name: string, isPublic: boolean) =>
      gql<{ createCharacter: { id: string } }>(owner, CREATE_CHARACTER, { input: { name, isPublic, rating: 'SAFE' } });
    const first = (await character('Private Iris', false)).createCharacter.id;
    const second = (await character('Public Orion', true)).createCharacter.id;

    const mine = await gql<{ characters: Connection }>(owner, `{ characters(first: 1) { ${CONNECTION} } }`);
    expect(mine.characters).toMatchObject({
      nodes: [{ id: second }],
      totalCount: 2,
      pageInfo: { hasNextPage: true, hasPreviousPage: false },
    });
    const older = await gql<{ characters: Connection }>(
      owner,
      `query($after: String) { characters(first: 1, after: $after) { ${CONNECTION} } }`,
      {
        after: mine.characters.pageInfo.endCursor,
      },
    );
    expect(older.characters).toMatchObject({ nodes: [{ id: first }], pageInfo: { hasNextPage: false, hasPreviousPage: true } });

    const discover = await gql<{ publicCharacters: Connection }>(await member(), `{ publicCharacters { ${CONNECTION} } }`);
    expect(discover.publicCharacters.nodes.map((c) => c.id)).toContain(second);
    expect(discover.publicCharacters.nodes.map((c) => c.id)).not.toContain(first);
    expect(discover.publicCharacters.nodes.length).toBeLessThanOrEqual(8);
    expect(discover.publicCharacters.totalCount).toBeNull();
  });

  it('node(id:) reads back my conversation, character, message, image and generation by id alone; others get null', async () => {
    const owner = await member();
    const character = (
      await gql<{ createCharacter: { id: string } }>(owner, CREATE_CHARACTER, {
        input: { name: 'Captain Vale', greeting: 'Ahoy, sailor.', isPublic: false },
      })
    ).createCharacter.id;
    const conversation = (
      await gql<{ createConversation: { id: string } }>(owner, CREATE_CONVERSATION, { title: 'Sailing', characterId: character })
    ).createConversation.id;
    const messages = await gql<{ messages: { nodes: { id: string }[] } }>(
      owner,
      'query($id: ID!) { messages(conversationId: $id) { nodes { id } } }',
      {
        id: conversation,
      },
    );
    const greeting = messages.messages.nodes[0]!.id;
    const generated = await owner.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'A lighthouse on a cliff at dawn' } });
    expect(generated.status).toBe(201);
    const image = ((await generated.json()) as { id: string }).id;
    const job = (
      await gql<{ generateImage: { id: string } }>(owner, 'mutation { generateImage(input: { prompt: "A harbour at night" }) { id } }')
    ).generateImage.id;

    expect(await node(owner, conversation)).toEqual({ __typename: 'Conversation', id: conversation, title: 'Sailing' });
    expect(await node(owner, character)).toEqual({ __typename: 'Character', id: character, name: 'Captain Vale' });
    expect(await node(owner, greeting)).toEqual({ __typename: 'Message', id: greeting, role: 'ASSISTANT' });
    expect(await node(owner, image)).toEqual({ __typename: 'Image', id: image, prompt: 'A lighthouse on a cliff at dawn' });
    expect(await node(owner, job)).toMatchObject({ __typename: 'GenerationJob', id: job });

    const stranger = await member();
    // An id that cannot exist is not found, like a stranger's: null, not a refusal.
    for (const id of [conversation, character, greeting, image, job, randomUUID(), 'not-a-uuid'])
      expect(await node(stranger, id)).toBeNull();
  });

  it('deletes answer the deleted id, and node(id:) finds nothing afterwards', async () => {
    const owner = await member();
    const [conversation] = await startConversations(owner, 1);
    const character = (await gql<{ createCharacter: { id: string } }>(owner, CREATE_CHARACTER, { input: { name: 'Brief' } }))
      .createCharacter.id;
    const generated = await owner.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'A paper boat' } });
    const image = ((await generated.json()) as { id: string }).id;

    for (const [mutation, id] of [
      ['deleteConversation', conversation!],
      ['deleteCharacter', character],
      ['deleteImage', image],
    ] as const) {
      expect(await gql(owner, `mutation($id: ID!) { ${mutation}(id: $id) }`, { id })).toEqual({ [mutation]: id });
      expect(await node(owner, id)).toBeNull();
    }
  });
});
