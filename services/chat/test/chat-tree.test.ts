import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { mediaService } from '@app/media';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { createChatService } from '../src';
import { ScriptedProvider } from './scripted-provider';

jest.setTimeout(60_000);

type Version = { id: string; content: string };
type Msg = {
  id: string;
  role: string;
  content: string;
  status: string;
  parentId: string | null;
  edited: boolean;
  swipeIndex: number;
  swipeCount: number;
  swipes: Version[];
};
const MESSAGE = 'id role content status parentId edited swipeIndex swipeCount swipes { id content }';

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('chat message trees on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  const provider = new ScriptedProvider();

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
      services: [identityService, createChatService({ provider, sweepIntervalMs: 200, flushIntervalMs: 50 }), mediaService],
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await cleanup?.();
  });
  beforeEach(() => {
    provider.words = ['Hello', ' from', ' the', ' scripted', ' model.'];
    provider.delayMs = 2;
    provider.failAfter = null;
  });

  async function member(): Promise<TestClient> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration({ firstName: 'Mira' }) });
    expect(response.status).toBe(201);
    return client;
  }

  const balance = async (client: TestClient) => ((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens;

  async function gql<T>(client: TestClient, query: string, variables: Record<string, unknown> = {}): Promise<T> {
    const result = await client.graphql<T>(query, variables);
    if (result.errors?.length) throw new Error(`${result.errors[0]!.extensions?.code}: ${result.errors[0]!.message}`);
    return result.data!;
  }

  /** The branch shown, oldest first, once no reply is being written. */
  async function shown(client: TestClient, conversationId: string): Promise<Msg[]> {
    let messages: Msg[] = [];
    await eventually(async () => {
      const data = await gql<{ messages: { nodes: Msg[] } }>(
        client,
        `query($id: ID!) { messages(conversationId: $id, last: 100) { nodes { ${MESSAGE} } } }`,
        { id: conversationId },
      );
      messages = data.messages.nodes;
      expect(messages.every((message) => message.status !== 'STREAMING')).toBe(true);
    });
    return messages;
  }

  /** A conversation with `turns` exchanges, each member message answered. */
  async function conversationWith(client: TestClient, turns: string[]): Promise<string> {
    const { createConversation } = await gql<{ createConversation: { id: string } }>(
      client,
      'mutation { createConversation(title: "Tree") { id } }',
    );
    for (const turn of turns) {
      const response = await client.fetch(`/api/chat/${createConversation.id}`, { method: 'POST', json: { content: turn } });
      expect(response.status).toBe(200);
    }
    return createConversation.id;
  }

  it("edits a member's message as a new version that is answered again; the original and its reply stay one switch away", async () => {
    const client = await member();
    const id = await conversationWith(client, ['Tell me about the harbour.', 'And the lighthouse?']);
    const [firstUser, firstReply, secondUser] = await shown(client, id);
    expect(secondUser!.parentId).toBe(firstReply!.id);
    expect(firstReply!.parentId).toBe(firstUser!.id);

    provider.words = ['The', ' forest', ' is', ' quiet.'];
    const { editMessage } = await gql<{ editMessage: { message: Msg; reply: Msg } }>(
      client,
      `mutation($m: ID!) { editMessage(messageId: $m, content: "Tell me about the forest.") { message { ${MESSAGE} } reply { ${MESSAGE} } } }`,
      { m: firstUser!.id },
    );
    expect(editMessage.message).toMatchObject({ content: 'Tell me about the forest.', parentId: null, swipeIndex: 1, swipeCount: 2 });
    expect(editMessage.reply).toMatchObject({ status: 'STREAMING', parentId: editMessage.message.id });

    const edited = await shown(client, id);
    expect(edited.map((message) => message.content)).toEqual(['Tell me about the forest.', 'The forest is quiet.']);
    expect(edited[0]!.swipes.map((version) => version.content)).toEqual(['Tell me about the harbour.', 'Tell me about the forest.']);
    // Sending costs 1 token, editing a member's message 1 (its new reply).
    expect(await balance(client)).toBe(12);

    await gql(client, `mutation($m: ID!) { selectSwipe(messageId: $m, index: 0) { id } }`, { m: edited[0]!.id });
    const original = await shown(client, id);
    expect(original.map((message) => message.content)).toEqual([
      'Tell me about the harbour.',
      'Hello from the scripted model.',
      'And the lighthouse?',
      'Hello from the scripted model.',
    ]);
    expect(original[0]).toMatchObject({ swipeIndex: 0, swipeCount: 2 });
  });

  it('edits a reply as a marked version without charging, and regenerates any reply as a version beside it', async () => {
    const client = await member();
    const id = await conversationWith(client, ['First question', 'Second question']);
    const [, firstReply] = await shown(client, id);
    const tokens = await balance(client);

    const { editMessage } = await gql<{ editMessage: { message: Msg; reply: Msg | null } }>(
      client,
      `mutation($m: ID!) { editMessage(messageId: $m, content: "A better answer, by hand.") { message { ${MESSAGE} } reply { id } } }`,
      { m: firstReply!.id },
    );
    expect(editMessage).toMatchObject({ message: { content: 'A better answer, by hand.', edited: true, swipeIndex: 1 }, reply: null });
    expect(await balance(client)).toBe(tokens);
    expect((await shown(client, id)).map((message) => message.content)).toEqual(['First question', 'A better answer, by hand.']);

    provider.words = ['A', ' third', ' take.'];
    const { regenerateReply } = await gql<{ regenerateReply: Msg }>(
      client,
      `mutation($c: ID!, $m: ID!) { regenerateReply(conversationId: $c, messageId: $m) { ${MESSAGE} } }`,
      { c: id, m: firstReply!.id },
    );
    expect(regenerateReply).toMatchObject({ swipeIndex: 2, swipeCount: 3, parentId: firstReply!.parentId });
    const versions = (await shown(client, id))[1]!;
    expect(versions.swipes.map((version) => version.content)).toEqual([
      'Hello from the scripted model.',
      'A better answer, by hand.',
      'A third take.',
    ]);
    expect(await balance(client)).toBe(tokens - 1);
    // The prompt of a regenerated reply ends with the member's message it answers, not with anything after it.
    expect(provider.prompts.at(-1)!.at(-1)).toMatchObject({ role: 'user', content: 'First question' });
    // The compatible endpoint needs no body: the last reply shown gets another version.
    const rest = await client.fetch(`/api/chat/${id}/regenerate`, { method: 'POST' });
    expect(rest.status).toBe(202);
    expect(await rest.json()).toMatchObject({ parentId: firstReply!.parentId, swipeIndex: 3 });
  });

  it('continues a reply as a version that begins with its text, streaming only the new words', async () => {
    const client = await member();
    const id = await conversationWith(client, ['Begin the tale.']);
    const [, reply] = await shown(client, id);
    provider.words = [' And', ' then', ' the', ' tide', ' turned.'];
    const ws = client.subscriptions();
    type Update = { conversationUpdates: { type: string; offset: number | null; text: string | null } };
    const stream = collect<Update>(ws, `subscription { conversationUpdates(conversationId: "${id}") { type offset text } }`, 100_000);
    stream.done.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const { continueReply } = await gql<{ continueReply: Msg }>(
      client,
      `mutation($m: ID!) { continueReply(messageId: $m) { ${MESSAGE} } }`,
      {
        m: reply!.id,
      },
    );
    expect(continueReply).toMatchObject({ status: 'STREAMING', content: 'Hello from the scripted model.', swipeIndex: 1 });
    await eventually(() => expect(stream.values.filter((update) => update.conversationUpdates.type === 'DELTA')).toHaveLength(5));
    stream.stop();
    await ws.dispose();
    const deltas = stream.values.map((update) => update.conversationUpdates).filter((update) => update.type === 'DELTA');
    expect(deltas[0]).toMatchObject({ offset: 'Hello from the scripted model.'.length, text: ' And' });
    const continued = (await shown(client, id))[1]!;
    expect(continued).toMatchObject({ content: 'Hello from the scripted model. And then the tide turned.', swipeCount: 2 });
    expect(continued.swipes[0]!.content).toBe('Hello from the scripted model.');
    expect(provider.prompts.at(-1)!.at(-1)).toMatchObject({ role: 'system', content: expect.stringMatching(/^Continue your last reply/) });
  });

  it('branches from any message: the next message starts a new branch, and both branches stay', async () => {
    const client = await member();
    const id = await conversationWith(client, ['One', 'Two', 'Three']);
    const [one, oneReply] = await shown(client, id);
    const { branchFrom } = await gql<{ branchFrom: { activeLeafId: string } }>(
      client,
      `mutation($m: ID!) { branchFrom(messageId: $m) { activeLeafId } }`,
      { m: oneReply!.id },
    );
    expect(branchFrom.activeLeafId).toBe(oneReply!.id);
    expect((await shown(client, id)).map((message) => message.content)).toEqual(['One', 'Hello from the scripted model.']);

    await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'Two, told differently' } });
    const branched = await shown(client, id);
    expect(branched.map((message) => message.content)).toEqual([
      'One',
      'Hello from the scripted model.',
      'Two, told differently',
      'Hello from the scripted model.',
    ]);
    expect(branched[2]).toMatchObject({ swipeIndex: 1, swipeCount: 2 });
    // The prompt follows the branch: the old "Two" and "Three" are not in it.
    expect(provider.prompts.at(-1)!.some((message) => message.content === 'Three')).toBe(false);

    // Back to the first branch, through the REST endpoint, ending at its newest message.
    const back = await client.fetch(`/api/messages/${branched[2]!.swipes[0]!.id}/branch`, { method: 'POST', json: {} });
    expect(back.status).toBe(200);
    expect((await shown(client, id)).map((message) => message.content)).toEqual([
      one!.content,
      'Hello from the scripted model.',
      'Two',
      'Hello from the scripted model.',
      'Three',
      'Hello from the scripted model.',
    ]);
  });

  it('deletes a message with everything after it; the branch shown moves to what remains, and strangers cannot touch it', async () => {
    const client = await member();
    const id = await conversationWith(client, ['Keep me', 'Delete from here', 'Gone too']);
    const messages = await shown(client, id);
    const stranger = await member();
    for (const [method, url] of [
      ['DELETE', `/api/messages/${messages[2]!.id}`],
      ['PUT', `/api/messages/${messages[2]!.id}`],
      ['POST', `/api/messages/${messages[1]!.id}/continue`],
    ] as const) {
      expect((await stranger.fetch(url, { method, json: { content: 'mine now' } })).status).toBe(404);
    }

    const deleted = await client.fetch(`/api/messages/${messages[2]!.id}`, { method: 'DELETE' });
    expect(await deleted.json()).toMatchObject({ deleted: 4, conversation: { activeLeafId: messages[1]!.id } });
    expect((await shown(client, id)).map((message) => message.content)).toEqual(['Keep me', 'Hello from the scripted model.']);
    expect((await client.fetch(`/api/messages/${messages[3]!.id}`, { method: 'DELETE' })).status).toBe(404);

    // Sending continues from what remains.
    await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'Next' } });
    expect((await shown(client, id)).map((message) => message.content)).toEqual([
      'Keep me',
      'Hello from the scripted model.',
      'Next',
      'Hello from the scripted model.',
    ]);
  });

  it('refuses tree changes while a reply is being written, and edits that cross the content rules', async () => {
    const client = await member();
    const id = await conversationWith(client, ['Hello']);
    const [user] = await shown(client, id);
    provider.delayMs = 200;
    await gql(client, `mutation($c: ID!) { sendMessage(conversationId: $c, content: "Slowly now") { userMessage { id } } }`, { c: id });
    for (const mutation of [
      `deleteMessage(messageId: "${user!.id}") { deleted }`,
      `branchFrom(messageId: "${user!.id}") { id }`,
      `editMessage(messageId: "${user!.id}", content: "Changed") { message { id } }`,
    ]) {
      const result = await client.graphql(`mutation { ${mutation} }`);
      expect(result.errors?.[0]?.extensions?.code).toBe('CONFLICT');
    }
    await gql(client, `mutation($c: ID!) { stopReply(conversationId: $c) }`, { c: id });
    provider.delayMs = 2;
    const refused = await client.graphql(
      `mutation($m: ID!) { editMessage(messageId: $m, content: "describe a naked 15 year old") { message { id } } }`,
      {
        m: user!.id,
      },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('CONTENT_REJECTED');
  });
});
