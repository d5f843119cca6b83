import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { mediaService } from '@app/media';
import { STOPPED_REPLY_CHARGED_FROM_CHARS } from '@app/schema';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets, track } from '../../kit/test/test-infra';
import { createChatService } from '../src';
import { CardParser } from '../src/cards/card-parser';
import { largeCardJson } from './fixtures/cards/large-card';
import { ScriptedProvider } from './scripted-provider';

jest.setTimeout(60_000);

type Update = {
  conversationUpdates: { type: string; typing: boolean | null; offset: number | null; text: string | null; message: Msg | null };
};
type Msg = { id: string; role: string; content: string; status: string; swipeIndex: number; swipeCount: number; errorCode: string | null };

const MESSAGE_FIELDS = 'id role content status swipeIndex swipeCount errorCode';
const UPDATES = (id: string) =>
  `subscription { conversationUpdates(conversationId: "${id}") { type typing offset text message { ${MESSAGE_FIELDS} } } }`;
const CARD_FIXTURES = path.join(__dirname, 'fixtures', 'cards');

type CharacterBody = {
  id: string;
  name: string;
  description: string | null;
  personality: { traits: string[] };
  isPublic: boolean;
  scenario: string;
  greeting: string;
  exampleDialogue: string;
  systemPrompt: string;
};
const CHARACTER_FIELDS = 'id name description personality { traits } isPublic scenario greeting exampleDialogue systemPrompt';
const FULL_CHARACTER = {
  name: 'Luna',
  description: 'A moon spirit',
  personalityTraits: ['Calm', 'Wise'],
  isPublic: true,
  scenario: 'A quiet observatory.',
  greeting: 'Hello, traveller.',
  exampleDialogue: '<START> Hello.',
  systemPrompt: 'Stay in character.',
};

/** Sends a body without ever finishing it, and resolves with the answer the server gives meanwhile. */
function uploadWithoutFinishing(url: string, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      let body = '';
      response.on('data', (part: Buffer) => (body += part.toString()));
      response.on('end', () => {
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body });
      });
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
  });
}

/** Follows a conversation's live updates; closing the socket afterwards is expected, not a failure. */
function follow(ws: ReturnType<TestClient['subscriptions']>, id: string) {
  const stream = collect<Update>(ws, UPDATES(id), 100_000);
  stream.done.catch(() => undefined);
  return stream;
}

/** Writes a conversation's messages straight into the database, alternating member and reply, as one branch shown. */
async function insertBranch(
  db: { execute(sql: string, params: unknown[]): Promise<unknown> },
  conversationId: string,
  ownerId: string,
  contents: string[],
): Promise<void> {
  let parentId: string | null = null;
  for (const [i, content] of contents.entries()) {
    const id = randomUUID();
    await db.execute(
      `INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status", "parent_id")
       VALUES ($1, $2, $3, $4, $5, 'complete', $6)`,
      [id, conversationId, ownerId, i % 2 ? 'assistant' : 'user', content, parentId],
    );
    parentId = id;
  }
  await db.execute(`UPDATE "chat"."conversations" SET "active_leaf_id" = $2 WHERE "id" = $1`, [conversationId, parentId]);
}

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('chat on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let largeCardBytes = 0;
  const provider = new ScriptedProvider();

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    // NATS refuses messages over its max_payload (1 MB by default), and a card crosses it base64-encoded.
    largeCardBytes = created.infra.natsUrl ? 700 * 1024 : 7.5 * 1024 * 1024;
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
    provider.delayMs = 5;
    provider.failAfter = null;
  });

  async function member(): Promise<TestClient> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration({ firstName: 'Mira' }) });
    expect(response.status).toBe(201);
    return client;
  }

  async function newConversation(client: TestClient, body: Record<string, unknown> = { title: 'Test chat' }): Promise<string> {
    const response = await client.fetch('/api/conversations', { method: 'POST', json: body });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  const balance = async (client: TestClient) => ((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens;

  describe('conversations over /api', () => {
    it('creates (default title), lists newest first, reads, renames and deletes; strangers get 404', async () => {
      const alice = await member();
      const untitled = await alice.fetch('/api/conversations', { method: 'POST', json: {} });
      expect(await untitled.json()).toMatchObject({ title: 'New Conversation' });
      const second = await newConversation(alice, { title: '  Second  ' });
      const list = (await (await alice.fetch('/api/conversations')).json()) as { id: string; title: string; updatedAt: string }[];
      expect(list.map((c) => c.title)).toEqual(['Second', 'New Conversation']);
      expect(list[0]!.id).toBe(second);
      expect(await (await alice.fetch(`/api/conversations/${second}`)).json()).toMatchObject({ id: second, title: 'Second' });

      const renamed = await alice.fetch(`/api/conversations/${second}`, { method: 'PATCH', json: { title: 'Renamed' } });
      expect(await renamed.json()).toMatchObject({ title: 'Renamed' });

      const bob = await member();
      for (const [method, url] of [
        ['GET', `/api/conversations/${second}`],
        ['GET', `/api/conversations/${second}/messages`],
        ['DELETE', `/api/conversations/${second}`],
      ] as const) {
        const response = await bob.fetch(url, { method });
        expect(response.status).toBe(404);
      }
      const stranger = await bob.fetch(`/api/chat/${second}`, { method: 'POST', json: { content: 'hi' } });
      expect(stranger.status).toBe(404);
      expect(await balance(bob)).toBe(15);

      expect((await alice.fetch(`/api/conversations/${second}`, { method: 'DELETE' })).status).toBe(204);
      expect((await alice.fetch(`/api/conversations/${second}`)).status).toBe(404);
      expect((await new TestClient(platform.url).fetch('/api/conversations')).status).toBe(401);
    });

    it('POST /api/chat/:id waits for the reply, charges 1 token, and the messages list both', async () => {
      const client = await member();
      const id = await newConversation(client);
      const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: '  Hi there  ' } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { userMessage: Msg; assistantMessage: Msg };
      expect(body.userMessage).toMatchObject({ role: 'user', content: 'Hi there' });
      expect(body.assistantMessage).toMatchObject({ role: 'assistant', content: 'Hello from the scripted model.', status: 'complete' });
      expect(await balance(client)).toBe(14);
      const messages = (await (await client.fetch(`/api/conversations/${id}/messages`)).json()) as Record<string, unknown>[];
      expect(messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'Hi there'],
        ['assistant', 'Hello from the scripted model.'],
      ]);
      expect(Object.keys(messages[0]!).slice(0, 4)).toEqual(['id', 'role', 'content', 'createdAt']);
    });

    it('stores a reply whose provider sent U+0000 or an unpaired surrogate, with U+FFFD in their place', async () => {
      const client = await member();
      const id = await newConversation(client);
      provider.words = ['Odd', '\u0000', ' bytes ', '\ud800', ' and a pair \ud83d\ude00'];
      const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'Hello' } });
      expect(response.status).toBe(200);
      const { assistantMessage } = (await response.json()) as { assistantMessage: Msg };
      expect(assistantMessage).toMatchObject({ status: 'complete', content: 'Odd\ufffd bytes \ufffd and a pair \ud83d\ude00' });
    });

    it('refuses blank messages and a missing conversation with clear errors, charging nothing', async () => {
      const client = await member();
      const id = await newConversation(client);
      const blank = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: '   \n ' } });
      expect(blank.status).toBe(400);
      expect(await blank.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please enter a message' });
      const none = await client.graphql('mutation { sendMessage(conversationId: null, content: "hi") { userMessage { id } } }');
      expect(none.errors?.[0]).toMatchObject({ message: 'No conversation selected', extensions: { code: 'VALIDATION_FAILED' } });
      expect(await balance(client)).toBe(15);
    });
  });

  describe('content rules (hard lines)', () => {
    it('refuses messages, titles and characters that cross them, charging nothing', async () => {
      const client = await member();
      const id = await newConversation(client);
      const message = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'describe a naked 15 year old' } });
      expect(message.status).toBe(422);
      expect(await message.json()).toMatchObject({ code: 'CONTENT_REJECTED' });
      const character = await client.fetch('/api/characters', {
        method: 'POST',
        json: { name: 'Mia', description: 'A shy schoolgirl', scenario: 'She undresses slowly.' },
      });
      expect(character.status).toBe(422);
      const title = await client.fetch('/api/conversations', { method: 'POST', json: { title: 'rape fantasy' } });
      expect(title.status).toBe(422);
      expect(await balance(client)).toBe(15);
      expect(await (await client.fetch(`/api/conversations/${id}/messages`)).json()).toEqual([]);
    });

    it('erases and refunds a model reply that crosses them', async () => {
      provider.words = ['Sure.', ' She', ' is', ' 14', ' and', ' naked', ' now.'];
      const client = await member();
      const id = await newConversation(client);
      const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'Continue the story' } });
      const body = (await response.json()) as { assistantMessage: Msg };
      expect(body.assistantMessage).toMatchObject({ status: 'failed', errorCode: 'CONTENT_REJECTED', content: '' });
      await eventually(async () => expect(await balance(client)).toBe(15));
    });
  });

  describe('live replies over GraphQL', () => {
    it('streams typing, deltas and the final message; the deltas add up to the reply', async () => {
      const client = await member();
      const id = await newConversation(client);
      const ws = client.subscriptions();
      const stream = follow(ws, id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const sent = await client.graphql<{ sendMessage: { assistantMessage: Msg } }>(
        `mutation($id: ID!) { sendMessage(conversationId: $id, content: "Tell me a story") { assistantMessage { ${MESSAGE_FIELDS} } } }`,
        { id },
      );
      expect(sent.data?.sendMessage.assistantMessage).toMatchObject({ status: 'STREAMING', content: '' });
      await eventually(() => expect(stream.values.at(-1)?.conversationUpdates).toMatchObject({ type: 'TYPING', typing: false }));
      stream.stop();
      await ws.dispose();
      const updates = stream.values.map((value) => value.conversationUpdates);
      const typingOn = updates.findIndex((u) => u.type === 'TYPING' && u.typing);
      const firstDelta = updates.findIndex((u) => u.type === 'DELTA');
      expect(typingOn).toBeGreaterThanOrEqual(0);
      expect(firstDelta).toBeGreaterThan(typingOn);
      const deltas = updates.filter((u) => u.type === 'DELTA');
      expect(deltas.map((d) => d.text).join('')).toBe('Hello from the scripted model.');
      expect(deltas.map((d) => d.offset)).toEqual([0, 5, 10, 14, 23]);
      const final = updates.filter((u) => u.type === 'MESSAGE').at(-1)!.message!;
      expect(final).toMatchObject({ role: 'ASSISTANT', status: 'COMPLETE', content: 'Hello from the scripted model.' });
    });

    it('a client that reconnects mid-reply gets the text so far and the rest live; nothing is lost', async () => {
      provider.words = Array.from({ length: 30 }, (_, i) => `w${i} `);
      provider.delayMs = 40;
      const client = await member();
      const id = await newConversation(client);
      await client.graphql('mutation($id: ID!) { sendMessage(conversationId: $id, content: "go") { userMessage { id } } }', { id });
      await new Promise((resolve) => setTimeout(resolve, 500));
      // "Reload" as the web app does it: subscribe, then read the page, then apply live deltas by offset.
      const ws = client.subscriptions();
      const stream = follow(ws, id);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const page = await client.graphql<{ messages: { nodes: Msg[] } }>(
        `query($id: ID!) { messages(conversationId: $id, last: 10) { nodes { ${MESSAGE_FIELDS} } } }`,
        { id },
      );
      const partial = page.data!.messages.nodes.at(-1)!;
      expect(partial.status).toBe('STREAMING');
      expect(partial.content.length).toBeGreaterThan(0);
      let text = partial.content;
      let applied = 0;
      let refetches = 0;
      for (;;) {
        const finished = stream.values.some((v) => v.conversationUpdates.type === 'MESSAGE');
        const deltas = stream.values.map((v) => v.conversationUpdates).filter((u) => u.type === 'DELTA');
        for (; applied < deltas.length; applied++) {
          const delta = deltas[applied]!;
          if (delta.offset! > text.length) {
            // A gap between the saved text and the first live delta: read the saved text again.
            refetches++;
            const again = await client.graphql<{ message: Msg }>(`query($m: ID!) { message(id: $m) { content } }`, { m: partial.id });
            text = again.data!.message.content;
            applied = -1;
            continue;
          }
          text = text.slice(0, delta.offset!) + delta.text!;
        }
        if (finished) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      stream.stop();
      await ws.dispose();
      const expected = provider.words.join('');
      expect(text).toBe(expected);
      expect(expected.startsWith(partial.content)).toBe(true);
      expect(refetches).toBeLessThan(10);
    });

    it('stops a reply on request: text so far is kept, typing ends, no refund for delivered text', async () => {
      provider.words = Array.from({ length: 50 }, (_, i) => `x${i} `);
      provider.delayMs = 30;
      const client = await member();
      const id = await newConversation(client);
      const ws = client.subscriptions();
      const stream = follow(ws, id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await client.graphql('mutation($id: ID!) { sendMessage(conversationId: $id, content: "go") { userMessage { id } } }', { id });
      // Past the threshold (STOPPED_REPLY_CHARGED_FROM_CHARS) the delivered text is worth its token.
      await eventually(() => expect(stream.values.filter((v) => v.conversationUpdates.type === 'DELTA').length).toBeGreaterThan(15));
      const stopped = await client.graphql<{ stopReply: boolean }>('mutation($id: ID!) { stopReply(conversationId: $id) }', { id });
      expect(stopped.data?.stopReply).toBe(true);
      await eventually(() => expect(stream.values.at(-1)?.conversationUpdates).toMatchObject({ type: 'TYPING', typing: false }));
      stream.stop();
      await ws.dispose();
      const final = stream.values
        .map((v) => v.conversationUpdates)
        .filter((u) => u.type === 'MESSAGE')
        .at(-1)!.message!;
      expect(final.status).toBe('CANCELLED');
      expect(final.content.trim().length).toBeGreaterThanOrEqual(STOPPED_REPLY_CHARGED_FROM_CHARS);
      expect(final.content.length).toBeLessThan(provider.words.join('').length);
      expect(await balance(client)).toBe(14);
    });

    it('refunds a reply stopped before it said almost anything, and keeps the little text it had', async () => {
      provider.words = Array.from({ length: 50 }, (_, i) => `x${i} `);
      provider.delayMs = 150;
      const client = await member();
      const id = await newConversation(client);
      const ws = client.subscriptions();
      const stream = follow(ws, id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await client.graphql('mutation($id: ID!) { sendMessage(conversationId: $id, content: "go") { userMessage { id } } }', { id });
      await eventually(() => expect(stream.values.some((v) => v.conversationUpdates.type === 'DELTA')).toBe(true));
      await client.graphql('mutation($id: ID!) { stopReply(conversationId: $id) }', { id });
      await eventually(() => expect(stream.values.at(-1)?.conversationUpdates).toMatchObject({ type: 'TYPING', typing: false }));
      stream.stop();
      await ws.dispose();
      const final = stream.values
        .map((v) => v.conversationUpdates)
        .filter((u) => u.type === 'MESSAGE')
        .at(-1)!.message!;
      expect(final.status).toBe('CANCELLED');
      expect(final.content.length).toBeGreaterThan(0);
      expect(final.content.trim().length).toBeLessThan(STOPPED_REPLY_CHARGED_FROM_CHARS);
      await eventually(async () => expect(await balance(client)).toBe(15));
    });

    it('limits how fast one member starts replies', async () => {
      const chat = platform.services.find((service) => service.name === 'chat')!;
      const client = await member();
      const id = await newConversation(client);
      const owner = ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
      // 20 replies in the last minute already (CHAT_SENDS_PER_MINUTE default).
      for (let i = 0; i < 20; i++) {
        await chat.db.execute(
          `INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status") VALUES ($1, $2, $3, 'assistant', 'x', 'complete')`,
          [randomUUID(), id, owner],
        );
      }
      const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'one more' } });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('60');
      expect(await balance(client)).toBe(15);
    });

    it('a failed reply is refunded exactly once and ends typing with the error code', async () => {
      provider.failAfter = 2;
      const client = await member();
      const id = await newConversation(client);
      const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'hi' } });
      const body = (await response.json()) as { assistantMessage: Msg };
      expect(body.assistantMessage).toMatchObject({ status: 'failed', errorCode: 'UNAVAILABLE', content: 'Hello from' });
      await eventually(async () => expect(await balance(client)).toBe(15));
      // A stale sweep or retry must not refund twice.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await balance(client)).toBe(15);
    });

    it('regenerates the last reply as a new swipe and switches between versions', async () => {
      const client = await member();
      const id = await newConversation(client);
      await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'hi' } });
      provider.words = ['Another', ' take.'];
      const regenerated = await client.graphql<{ regenerateReply: Msg }>(
        `mutation($id: ID!) { regenerateReply(conversationId: $id) { ${MESSAGE_FIELDS} } }`,
        { id },
      );
      expect(regenerated.data?.regenerateReply).toMatchObject({ status: 'STREAMING', swipeIndex: 1, swipeCount: 2 });
      const messageId = regenerated.data!.regenerateReply.id;
      await eventually(async () => {
        const current = await client.graphql<{ message: Msg }>(`query($m: ID!) { message(id: $m) { ${MESSAGE_FIELDS} } }`, {
          m: messageId,
        });
        expect(current.data?.message).toMatchObject({ status: 'COMPLETE', content: 'Another take.' });
      });
      const back = await client.graphql<{ selectSwipe: Msg }>(
        `mutation($m: ID!) { selectSwipe(messageId: $m, index: 0) { ${MESSAGE_FIELDS} } }`,
        { m: messageId },
      );
      expect(back.data?.selectSwipe).toMatchObject({ content: 'Hello from the scripted model.', swipeIndex: 0, swipeCount: 2 });
      expect(await balance(client)).toBe(13);
      const out = await client.graphql(`mutation($m: ID!) { selectSwipe(messageId: $m, index: 5) { id } }`, { m: messageId });
      expect(out.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    });

    it('folds turns that no longer fit the context into a rolling summary the next prompt carries', async () => {
      provider.contextTokens = 400;
      provider.maxReplyTokens = 64;
      try {
        const client = await member();
        const id = await newConversation(client);
        const chat = platform.services.find((service) => service.name === 'chat')!;
        const owner = ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
        await insertBranch(
          chat.db,
          id,
          owner,
          Array.from({ length: 20 }, (_, i) => `turn ${i}: ${'a long sentence about the voyage '.repeat(6)}`),
        );
        const before = provider.prompts.length;
        await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'What happened so far?' } });
        await eventually(() => {
          const summaryCall = provider.prompts.slice(before).find((prompt) => prompt[0]!.content.startsWith('Summarize'));
          expect(summaryCall?.some((m) => m.content.startsWith('turn 0:'))).toBe(true);
        });
        await eventually(async () => {
          const rows = await chat.db.query<{ summary: string | null }>(`SELECT "summary" FROM "chat"."conversations" WHERE "id" = $1`, [
            id,
          ]);
          expect(rows[0]!.summary).toBe('Hello from the scripted model.');
        });
        await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'And then?' } });
        const prompt = provider.prompts.filter((p) => !p[0]!.content.startsWith('Summarize')).at(-1)!;
        expect(prompt[1]).toEqual({ role: 'system', content: 'Summary of the earlier conversation: Hello from the scripted model.' });
        expect(prompt.some((m) => m.content.startsWith('turn 0:'))).toBe(false);
      } finally {
        provider.contextTokens = 4096;
        provider.maxReplyTokens = 256;
      }
    });

    it('pages long conversations from the newest message backwards', async () => {
      const client = await member();
      const id = await newConversation(client);
      const chat = platform.services.find((service) => service.name === 'chat')!;
      const owner = ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
      await insertBranch(
        chat.db,
        id,
        owner,
        Array.from({ length: 75 }, (_, i) => `message ${i}`),
      );
      const query = `query($id: ID!, $before: String) { messages(conversationId: $id, last: 30, before: $before) {
        nodes { content } pageInfo { hasPreviousPage startCursor } } }`;
      type Page = { messages: { nodes: { content: string }[]; pageInfo: { hasPreviousPage: boolean; startCursor: string } } };
      const first = (await client.graphql<Page>(query, { id })).data!.messages;
      expect(first.nodes[0]!.content).toBe('message 45');
      expect(first.nodes.at(-1)!.content).toBe('message 74');
      expect(first.pageInfo.hasPreviousPage).toBe(true);
      const second = (await client.graphql<Page>(query, { id, before: first.pageInfo.startCursor })).data!.messages;
      expect(second.nodes.map((n) => n.content)).toEqual(Array.from({ length: 30 }, (_, i) => `message ${15 + i}`));
      const third = (await client.graphql<Page>(query, { id, before: second.pageInfo.startCursor })).data!.messages;
      expect(third.nodes).toHaveLength(15);
      expect(third.pageInfo.hasPreviousPage).toBe(false);
      const bad = await client.graphql(query.replace('last: 30', 'last: 500'), { id });
      expect(bad.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
    });

    it('fails and refunds a reply whose process stopped renewing its lease (sweeper)', async () => {
      const client = await member();
      const id = await newConversation(client);
      const owner = ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
      const chat = platform.services.find((service) => service.name === 'chat')!;
      const messageId = randomUUID();
      const debitKey = `chat-reply:${messageId}:0`;
      const identity = platform.services.find((service) => service.name === 'identity')!;
      // As if another instance charged the reply, wrote some text, and died.
      await identity.db.execute(`UPDATE "identity"."users" SET "token_balance" = 9 WHERE "id" = $1`, [owner]);
      await identity.db.execute(
        `INSERT INTO "identity"."token_ledger" ("user_id", "kind", "delta", "balance_after", "reason", "idempotency_key", "created_at")
         VALUES ($1, 'debit', -1, 9, 'Chat reply', $2, now())`,
        [owner, debitKey],
      );
      await chat.db.execute(
        `INSERT INTO "chat"."messages" ("id", "conversation_id", "owner_id", "role", "content", "status", "debit_key", "lease_until")
         VALUES ($1, $2, $3, 'assistant', 'half a rep', 'streaming', $4, now() - interval '1 second')`,
        [messageId, id, owner, debitKey],
      );
      await eventually(async () => {
        const message = await client.graphql<{ message: Msg }>(`query($m: ID!) { message(id: $m) { ${MESSAGE_FIELDS} } }`, {
          m: messageId,
        });
        expect(message.data?.message).toMatchObject({ status: 'FAILED', errorCode: 'INTERRUPTED', content: 'half a rep' });
      });
      await eventually(async () => expect(await balance(client)).toBe(15));
    });
  });

  describe('characters', () => {
    it('creates with the spec rules, keeps them private by default, and only the owner edits or deletes', async () => {
      const alice = await member();
      const noName = await alice.fetch('/api/characters', { method: 'POST', json: { name: '   ' } });
      expect(noName.status).toBe(400);
      expect(await noName.json()).toMatchObject({ message: 'Please enter a name for your character.' });
      const created = await alice.fetch('/api/characters', {
        method: 'POST',
        json: { name: '  Luna ', description: '   ', personalityTraits: ['Calm', ' calm ', '', 'Wise'] },
      });
      expect(created.status).toBe(201);
      const luna = (await created.json()) as {
        id: string;
        isPublic: boolean;
        description: string | null;
        personality: { traits: string[] };
      };
      expect(luna).toMatchObject({ name: 'Luna', description: null, isPublic: false, personality: { traits: ['Calm', 'Wise'] } });

      const bob = await member();
      expect(((await (await bob.fetch('/api/characters/public')).json()) as { id: string }[]).map((c) => c.id)).not.toContain(luna.id);
      expect((await bob.fetch(`/api/characters/${luna.id}`, { method: 'PUT', json: { name: 'Stolen' } })).status).toBe(404);
      expect((await bob.fetch(`/api/characters/${luna.id}`, { method: 'DELETE' })).status).toBe(404);

      const updated = await alice.fetch(`/api/characters/${luna.id}`, { method: 'PUT', json: { isPublic: true, description: 'Moon' } });
      expect(await updated.json()).toMatchObject({ isPublic: true, description: 'Moon', name: 'Luna' });
      const discovered = (await (await bob.fetch('/api/characters/public')).json()) as { id: string; isMine: boolean }[];
      expect(discovered.find((c) => c.id === luna.id)).toMatchObject({ isMine: false });
      expect(((await (await alice.fetch('/api/characters')).json()) as { id: string }[]).map((c) => c.id)).toEqual([luna.id]);

      expect((await alice.fetch(`/api/characters/${luna.id}`, { method: 'DELETE' })).status).toBe(200);
      expect(await (await alice.fetch('/api/characters')).json()).toEqual([]);
    });

    it('allows 2 character creations a month on the free plan', async () => {
      const client = await member();
      for (const name of ['One', 'Two'])
        expect((await client.fetch('/api/characters', { method: 'POST', json: { name } })).status).toBe(201);
      const third = await client.fetch('/api/characters', { method: 'POST', json: { name: 'Three' } });
      expect(third.status).toBe(429);
      expect(((await third.json()) as { code: string }).code).toBe('QUOTA_EXCEEDED');
    });

    it('a chat with a character opens with its greeting and the prompt carries the persona', async () => {
      const client = await member();
      const character = (await (
        await client.fetch('/api/characters', {
          method: 'POST',
          json: {
            name: 'Captain Vex',
            description: 'A sky pirate',
            personalityTraits: ['Adventurous'],
            scenario: 'Aboard the airship Kestrel.',
            greeting: 'Welcome aboard, {{user}}! I am {{char}}.',
          },
        })
      ).json()) as { id: string };
      const conversation = (await (
        await client.fetch('/api/conversations', { method: 'POST', json: { title: 'Sky', characterId: character.id } })
      ).json()) as { id: string };
      const messages = (await (await client.fetch(`/api/conversations/${conversation.id}/messages`)).json()) as Msg[];
      expect(messages.map((m) => [m.role, m.content])).toEqual([['assistant', 'Welcome aboard, Mira! I am Captain Vex.']]);
      await client.fetch(`/api/chat/${conversation.id}`, { method: 'POST', json: { content: 'Where are we headed?' } });
      const prompt = provider.prompts.at(-1)!;
      expect(prompt[0]!.content).toContain('Name: Captain Vex');
      expect(prompt[0]!.content).toContain('Description: A sky pirate');
      expect(prompt[0]!.content).toContain('Scenario: Aboard the airship Kestrel.');
      expect(prompt.slice(1).map((m) => m.role)).toEqual(['assistant', 'user']);
      expect(prompt.at(-1)!.content).toBe('Where are we headed?');
    });

    it('feeds the dashboard stats: member messages and characters created, each counted once', async () => {
      const client = await member();
      await client.fetch('/api/characters', { method: 'POST', json: { name: 'Counted' } });
      const id = await newConversation(client);
      await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'one' } });
      await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'two' } });
      await eventually(async () => {
        const stats = await (await client.fetch('/api/dashboard/stats')).json();
        expect(stats).toMatchObject({ chatMessages: 2, charactersCreated: 1 });
      });
    });

    it('imports a card file, exports it as V2/V3 JSON and PNG, and re-imports it without losing fields', async () => {
      const fixture = fs.readdirSync(CARD_FIXTURES).find((file) => /v2.*\.json$/i.test(file));
      expect(fixture).toBeDefined();
      const client = await member();
      const imported = await client.fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: fs.readFileSync(path.join(CARD_FIXTURES, fixture!)),
      });
      expect(imported.status).toBe(201);
      const character = (await imported.json()) as { id: string; name: string; isPublic: boolean };
      expect(character.isPublic).toBe(false);
      const original = JSON.parse(fs.readFileSync(path.join(CARD_FIXTURES, fixture!), 'utf8')) as { data: Record<string, unknown> };

      const v2 = await client.fetch(`/api/characters/${character.id}/card?format=json_v2`);
      expect(v2.headers.get('content-disposition')).toContain('attachment');
      const exported = (await v2.json()) as { spec: string; data: Record<string, unknown> };
      expect(exported.spec).toBe('chara_card_v2');
      expect(exported.data.extensions).toEqual(original.data.extensions);
      expect(exported.data.character_book).toEqual(original.data.character_book);
      expect(exported.data.first_mes).toBe(original.data.first_mes);

      const png = await client.fetch(`/api/characters/${character.id}/card?format=png`);
      expect(png.headers.get('content-type')).toBe('image/png');
      const again = await client.fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'image/png' },
        body: Buffer.from(await png.arrayBuffer()),
      });
      expect(again.status).toBe(201);
      const reimported = (await again.json()) as { id: string };
      const v3 = (await (await client.fetch(`/api/characters/${reimported.id}/card?format=json_v3`)).json()) as {
        spec: string;
        data: Record<string, unknown>;
      };
      expect(v3.spec).toBe('chara_card_v3');
      expect(v3.data.extensions).toEqual(original.data.extensions);
      expect(v3.data.personality).toBe(original.data.personality);

      // The member has used both creations of the month; one with a creation left is told what is wrong with the file.
      const garbage = await (
        await member()
      ).fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from('not a card'),
      });
      expect(garbage.status).toBe(400);
    });
  });

  describe('partial updates: fields not sent keep their values', () => {
    const toUpdated = (character: CharacterBody, changes: Partial<CharacterBody>) => ({ ...character, ...changes });
    const strip = ({ id, name, description, personality, isPublic, scenario, greeting, exampleDialogue, systemPrompt }: CharacterBody) => ({
      id,
      name,
      description,
      personality,
      isPublic,
      scenario,
      greeting,
      exampleDialogue,
      systemPrompt,
    });

    async function fullCharacter(client: TestClient): Promise<CharacterBody> {
      const created = await client.fetch('/api/characters', { method: 'POST', json: FULL_CHARACTER });
      expect(created.status).toBe(201);
      return strip((await created.json()) as CharacterBody);
    }

    it('PUT /api/characters/:id changes only the fields in the body', async () => {
      const client = await member();
      const luna = await fullCharacter(client);
      expect(luna).toMatchObject({ personality: { traits: ['Calm', 'Wise'] }, isPublic: true });

      const greeted = await client.fetch(`/api/characters/${luna.id}`, { method: 'PUT', json: { greeting: 'Welcome back.' } });
      expect(greeted.status).toBe(200);
      expect(strip((await greeted.json()) as CharacterBody)).toEqual(toUpdated(luna, { greeting: 'Welcome back.' }));
      const unchanged = await client.fetch(`/api/characters/${luna.id}`, { method: 'PUT', json: {} });
      expect(strip((await unchanged.json()) as CharacterBody)).toEqual(toUpdated(luna, { greeting: 'Welcome back.' }));
      const stored = strip((await (await client.fetch(`/api/characters/${luna.id}`)).json()) as CharacterBody);
      expect(stored).toEqual(toUpdated(luna, { greeting: 'Welcome back.' }));

      // Named fields still change, and an explicit null clears the description.
      const cleared = await client.fetch(`/api/characters/${luna.id}`, {
        method: 'PUT',
        json: { description: null, isPublic: false, personalityTraits: ['Mysterious'] },
      });
      expect(strip((await cleared.json()) as CharacterBody)).toEqual(
        toUpdated(luna, { greeting: 'Welcome back.', description: null, isPublic: false, personality: { traits: ['Mysterious'] } }),
      );
    });

    it('updateCharacter over GraphQL changes only the fields in the input; nulls leave fields as they are', async () => {
      const client = await member();
      const luna = await fullCharacter(client);
      const update = `mutation($id: ID!, $input: CharacterPatchInput!) { updateCharacter(id: $id, input: $input) { ${CHARACTER_FIELDS} } }`;
      const greeted = await client.graphql<{ updateCharacter: CharacterBody }>(update, {
        id: luna.id,
        input: { greeting: 'Welcome back.' },
      });
      expect(greeted.data?.updateCharacter).toEqual(toUpdated(luna, { greeting: 'Welcome back.' }));
      const nulls = await client.graphql<{ updateCharacter: CharacterBody }>(update, {
        id: luna.id,
        input: { name: null, personalityTraits: null, isPublic: null, scenario: null, systemPrompt: 'Be brief.' },
      });
      expect(nulls.data?.updateCharacter).toEqual(toUpdated(luna, { greeting: 'Welcome back.', systemPrompt: 'Be brief.' }));
      const read = await client.graphql<{ character: CharacterBody }>(`query($id: ID!) { character(id: $id) { ${CHARACTER_FIELDS} } }`, {
        id: luna.id,
      });
      expect(read.data?.character).toEqual(toUpdated(luna, { greeting: 'Welcome back.', systemPrompt: 'Be brief.' }));
    });

    it("an imported character's card fields survive an update that does not name them", async () => {
      const client = await member();
      const file = fs.readFileSync(path.join(CARD_FIXTURES, 'v2-sillytavern.json'));
      const imported = await client.fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: file,
      });
      expect(imported.status).toBe(201);
      const { id } = (await imported.json()) as { id: string };
      const before = (await (await client.fetch(`/api/characters/${id}/card?format=json_v2`)).json()) as { data: Record<string, unknown> };
      await client.fetch(`/api/characters/${id}`, { method: 'PUT', json: { isPublic: true } });
      const after = (await (await client.fetch(`/api/characters/${id}/card?format=json_v2`)).json()) as { data: Record<string, unknown> };
      expect(after).toEqual(before);
    });

    it('renaming without a title keeps the title', async () => {
      const client = await member();
      const id = await newConversation(client, { title: 'Kept' });
      const response = await client.fetch(`/api/conversations/${id}`, { method: 'PATCH', json: {} });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id, title: 'Kept' });
      expect(await (await client.fetch(`/api/conversations/${id}`)).json()).toMatchObject({ title: 'Kept' });
    });
  });

  describe('how many conversations a member starts', () => {
    const countConversations = async (client: TestClient) =>
      ((await (await client.fetch('/api/conversations')).json()) as unknown[]).length;

    it('over /api: a burst past 10 a minute is refused with 429 and Retry-After, and creates nothing more', async () => {
      const client = await member();
      const responses = await Promise.all(
        Array.from({ length: 13 }, (_, i) => client.fetch('/api/conversations', { method: 'POST', json: { title: `Burst ${i}` } })),
      );
      const refused = responses.filter((response) => response.status === 429);
      expect(responses.filter((response) => response.status === 201)).toHaveLength(10);
      expect(refused).toHaveLength(3);
      for (const response of refused) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
        expect(await response.json()).toMatchObject({
          code: 'RATE_LIMITED',
          message: 'You are starting conversations too quickly. Please wait a moment.',
        });
      }
      expect(await countConversations(client)).toBe(10);
    });

    it('over GraphQL: aliases of createConversation past the limit are refused with a retry time', async () => {
      // Mutation fields run one after another, and the first refusal ends the operation.
      const client = await member();
      const aliases = Array.from({ length: 12 }, (_, i) => `c${i}: createConversation(title: "Alias ${i}") { id }`).join('\n');
      const result = await client.graphql(`mutation { ${aliases} }`);
      const limited = (result.errors ?? []).filter((error) => error.extensions?.code === 'RATE_LIMITED');
      expect(limited).toHaveLength(1);
      expect(limited[0]!.extensions?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(await countConversations(client)).toBe(10);
    });

    it('a member who keeps 1000 conversations must delete one before starting another', async () => {
      const client = await member();
      const owner = ((await (await client.fetch('/api/user')).json()) as { id: string }).id;
      const chat = platform.services.find((service) => service.name === 'chat')!;
      await chat.db.execute(
        `INSERT INTO "chat"."conversations" ("id", "owner_id", "title", "created_at", "updated_at")
         SELECT gen_random_uuid(), $1, 'Old', now() - interval '1 day', now() - interval '1 day' FROM generate_series(1, 1000)`,
        [owner],
      );
      const refused = await client.fetch('/api/conversations', { method: 'POST', json: { title: 'One too many' } });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({
        code: 'QUOTA_EXCEEDED',
        message: 'You have 1000 conversations, the most one account can keep. Delete one to start a new one.',
      });
      const [oldest] = (await (await client.fetch('/api/conversations')).json()) as { id: string }[];
      expect((await client.fetch(`/api/conversations/${oldest!.id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await client.fetch('/api/conversations', { method: 'POST', json: { title: 'Room again' } })).status).toBe(201);
    });
  });

  describe('card imports', () => {
    afterEach(() => jest.restoreAllMocks());

    it('a member with no character creation left is answered before the card is read', async () => {
      const client = await member();
      for (const name of ['One', 'Two'])
        expect((await client.fetch('/api/characters', { method: 'POST', json: { name } })).status).toBe(201);
      const read = jest.spyOn(CardParser.prototype, 'read');
      const overQuota = await client.fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: Buffer.from('not a card at all'),
      });
      expect(overQuota.status).toBe(429);
      expect(await overQuota.json()).toMatchObject({
        code: 'QUOTA_EXCEEDED',
        message: 'You have used all 2 character creations of the Free plan this month.',
      });
      const overGraphQL = await client.graphql('mutation($file: String!) { importCharacterCard(fileBase64: $file) { id } }', {
        file: Buffer.from('not a card at all').toString('base64'),
      });
      expect(overGraphQL.errors?.[0]?.extensions?.code).toBe('QUOTA_EXCEEDED');
      expect(read).not.toHaveBeenCalled();
    });

    it('other requests are served while a large card is being read', async () => {
      const client = await member();
      const readCard = CardParser.prototype.read;
      let reading: { settled: boolean } | undefined;
      let other: Promise<Response> | undefined;
      // The moment the card is handed over for reading, another request starts.
      jest.spyOn(CardParser.prototype, 'read').mockImplementation(function (this: CardParser, ...args) {
        const read = readCard.apply(this, args);
        reading = track(read);
        other = client.fetch('/api/conversations');
        return read;
      });
      const importing = client.fetch('/api/characters/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: largeCardJson(largeCardBytes),
      });
      await eventually(() => expect(other).toBeDefined(), 30_000);
      expect((await other!).status).toBe(200);
      // That request went in and out while the card was still being read.
      expect(reading!.settled).toBe(false);
      expect((await importing).status).toBe(201);
    });

    it('an upload past 8 MB is refused with 413 while it streams, and an anonymous one before its body is read', async () => {
      const client = await member();
      const url = `${platform.url}/api/characters/import`;
      const megabyte = Buffer.alloc(1024 * 1024, 0x20);
      const declared = await uploadWithoutFinishing(url, { cookie: client.cookie!, 'content-length': String(9 * 1024 * 1024) }, [megabyte]);
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body)).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The card file is too large (the limit is 8 MB).',
      });
      const streamed = await uploadWithoutFinishing(
        url,
        { cookie: client.cookie!, 'transfer-encoding': 'chunked' },
        Array(9).fill(megabyte),
      );
      expect(streamed.status).toBe(413);
      const anonymous = await uploadWithoutFinishing(url, { 'content-length': String(9 * 1024 * 1024) }, [megabyte]);
      expect(anonymous.status).toBe(401);
    });
  });
});
