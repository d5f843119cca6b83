import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type Output, main } from '../../docs/examples/third-party-client/client';
import { type TestTarget, testTargets } from '../../services/kit/test/test-infra';
import { TestClient, registration } from './http-client';

jest.setTimeout(300_000);

interface GraphQLReply<T> {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const CREATE_TOKEN = 'mutation($input: AccessTokenInput!) { createAccessToken(input: $input) { secret token { id } } }';
const REVOKE_TOKEN = 'mutation($id: ID!) { revokeAccessToken(id: $id) }';
const PUBLISH = 'mutation($id: ID!) { setImageVisibility(id: $id, isPublic: true, rating: SAFE) { id isPublic } }';
const CREATE_CHARACTER = `mutation { createCharacter(input: {
  name: "Captain Vale", description: "A sea captain", personalityTraits: ["friendly"], isPublic: true, rating: SAFE }) { id } }`;
const LATEST_REPLY = `query($id: ID!) { messages(conversationId: $id, last: 1) { nodes { role status content } } }`;

/** What the sample client wrote, each write as it came. */
function capturedOutput() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const output: Output = { stdout: { write: (text) => stdout.push(text) }, stderr: { write: (text) => stderr.push(text) } };
  return { output, stdout, stderr, text: () => stdout.join(''), errors: () => stderr.join('') };
}

/** docs/examples/third-party-client run against the product, as a third party holding a personal access token runs it. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))(
  'the sample third-party client on %s',
  (_name, target) => {
    let platform: EmbeddedPlatform;
    let cleanup: () => Promise<void>;
    let member: TestClient;
    let image: { id: string; prompt: string };

    const gql = async <T>(query: string, variables?: Record<string, unknown>) => {
      const reply = (await member.graphql(query, variables)) as GraphQLReply<T>;
      expect(reply.errors).toBeUndefined();
      return reply.data!;
    };
    const createToken = async (scopes: string[]) =>
      (
        await gql<{ createAccessToken: { secret: string; token: { id: string } } }>(CREATE_TOKEN, {
          input: { name: 'sample client', scopes },
        })
      ).createAccessToken;

    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      platform = await startEmbedded({ infra: created.infra, gateway: { port: 0 }, env: { SIGNUP_TOKEN_GRANT: '20' } });
      member = new TestClient(platform.url);
      expect((await member.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
      // The gallery starts empty: the member draws a picture (the demo renderer) and publishes it.
      const generated = await member.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'A lighthouse on a cliff at dawn' } });
      expect(generated.status).toBe(201);
      image = (await generated.json()) as { id: string; prompt: string };
      await gql(PUBLISH, { id: image.id });
      await gql(CREATE_CHARACTER);
    });
    afterAll(async () => {
      await platform?.stop();
      await cleanup?.();
    });

    it('lists the public images, sends a message to a character and prints the reply as it streams, then exits 0', async () => {
      const { secret } = await createToken(['READ', 'CHAT']);
      const run = capturedOutput();

      const code = await main({ API_URL: platform.url, API_TOKEN: secret, CHAT_MESSAGE: 'Hello! Who are you?' }, run.output);

      expect(run.errors()).toBe('');
      expect(code).toBe(0);
      const printed = run.text();
      expect(printed).toMatch(/^Signed in as m\w+@example\.com: 1[0-9] tokens, 0\/\d+ chat messages this month/);
      expect(printed).toContain(
        `  A lighthouse on a cliff at dawn (by a member, 1024×1024)\n    ${platform.url}/api/media/images/${image.id}/original.png\n`,
      );
      expect((await fetch(`${platform.url}/api/media/images/${image.id}/original.png`)).headers.get('content-type')).toBe('image/png');

      const conversationId = /Chatting with Captain Vale \(conversation ([\w-]+)\)\n> Hello! Who are you\?\n/.exec(printed)?.[1];
      expect(conversationId).toBeDefined();
      // The demo responder's scripted reply: an opener, the member's first sentence echoed, the character's trait line.
      const stored = await gql<{ messages: { nodes: { role: string; status: string; content: string }[] } }>(LATEST_REPLY, {
        id: conversationId,
      });
      const reply = stored.messages.nodes[0]!;
      expect(reply).toMatchObject({ role: 'ASSISTANT', status: 'COMPLETE' });
      expect(reply.content).toMatch(/^\*Captain Vale [^*]+\* "Hello\.\.\. I'm really glad you told me\. That's a good question\."$/);
      expect(printed.slice(printed.indexOf('> Hello!'))).toBe(`> Hello! Who are you?\n${reply.content}\n`);
      // Streamed: written a word or so at a time as the deltas arrived, not once at the end.
      const replyWrites = run.stdout.slice(run.stdout.findIndex((text) => text.includes('> Hello!')) + 1);
      expect(replyWrites.length).toBeGreaterThan(5);
      expect(replyWrites.filter((text) => text.trim()).every((text) => text.length < 30)).toBe(true);
    });

    it('exits non-zero saying UNAUTHENTICATED for a revoked or unknown token, and names a missing setting', async () => {
      const { secret, token } = await createToken(['READ', 'CHAT']);
      await gql(REVOKE_TOKEN, { id: token.id });
      for (const apiToken of [secret, 'cpat_not-a-token-anyone-was-given']) {
        const run = capturedOutput();
        expect(await main({ API_URL: platform.url, API_TOKEN: apiToken }, run.output)).toBe(1);
        expect(run.errors()).toBe('The API refused: UNAUTHENTICATED: Unauthorized\n');
        expect(run.text()).toBe('');
      }

      const unset = capturedOutput();
      expect(await main({ API_URL: platform.url }, unset.output)).toBe(2);
      expect(unset.errors()).toContain('Set API_URL');
      expect(unset.errors()).toContain('API_TOKEN');
    });

    it('a token without the CHAT scope lists the images, then stops at the chat with FORBIDDEN naming the scope', async () => {
      const { secret } = await createToken(['READ']);
      const run = capturedOutput();
      expect(await main({ API_URL: platform.url, API_TOKEN: secret }, run.output)).toBe(1);
      expect(run.text()).toContain('A lighthouse on a cliff at dawn');
      expect(run.errors()).toBe('The API refused: FORBIDDEN: This access token lacks the chat scope that createConversation needs.\n');
    });
  },
);
