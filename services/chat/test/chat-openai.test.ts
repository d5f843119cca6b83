import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { eventually } from '../../kit/test/test-infra';
import { type FakeOpenAi, fakeErrors, startFakeOpenAi } from './fake-openai-server';

jest.setTimeout(60_000);

/** The whole platform configured with an OpenAI-compatible provider (a local server speaking the real protocol). */
describe('chat with an OpenAI-compatible provider', () => {
  let fake: FakeOpenAi;
  let platform: EmbeddedPlatform;

  beforeAll(async () => {
    fake = await startFakeOpenAi({ apiKey: 'sk-test-secret-key' });
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: {
        SIGNUPS_PER_IP_PER_HOUR: '1000',
        CHAT_API_BASE_URL: fake.url,
        CHAT_API_KEY: 'sk-test-secret-key',
        CHAT_MODEL: 'fake-model',
        CHAT_MAX_REPLY_TOKENS: '300',
      },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await fake?.close();
  });

  async function member() {
    const client = new TestClient(platform.url);
    await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const conversation = (await (await client.fetch('/api/conversations', { method: 'POST', json: {} })).json()) as { id: string };
    return { client, id: conversation.id };
  }

  it('streams the model reply with the key, the persona prompt and the configured limits, and labels it as AI', async () => {
    fake.setScenario({ kind: 'stream', reply: 'Hi! How can I help?', delayMs: 5 });
    const { client, id } = await member();
    const info = await client.graphql<{ chatProvider: { kind: string; model: string; isDemo: boolean } }>(
      '{ chatProvider { kind model isDemo } }',
    );
    expect(info.data?.chatProvider).toEqual({ kind: 'OPENAI_COMPATIBLE', model: 'fake-model', isDemo: false });
    const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'Hello' } });
    const body = (await response.json()) as { assistantMessage: { content: string; status: string; model: string } };
    expect(body.assistantMessage).toMatchObject({ content: 'Hi! How can I help?', status: 'complete', model: 'fake-model' });
    const request = fake.lastRequest()!;
    expect(request.headers.authorization).toBe('Bearer sk-test-secret-key');
    expect(request.body).toMatchObject({ model: 'fake-model', stream: true, max_tokens: 300 });
    expect(request.body!.messages![0]).toMatchObject({ role: 'system' });
    expect(request.body!.messages!.at(-1)).toEqual({ role: 'user', content: 'Hello' });
  });

  it('maps a rate-limited provider to a failed, refunded reply without leaking the key', async () => {
    fake.setScenario(fakeErrors.rateLimited(7));
    const { client, id } = await member();
    const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'Hello' } });
    const body = (await response.json()) as { assistantMessage: { status: string; errorCode: string } };
    expect(body.assistantMessage).toMatchObject({ status: 'failed', errorCode: 'RATE_LIMITED' });
    expect(JSON.stringify(body)).not.toContain('sk-test-secret-key');
    await eventually(async () => expect(((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens).toBe(15));
  });

  it('keeps the text of a dropped stream visible but refunds the failed reply', async () => {
    fake.setScenario({ kind: 'stream', reply: 'one two three four five', interrupt: { afterChunks: 2, kind: 'drop' } });
    const { client, id } = await member();
    const response = await client.fetch(`/api/chat/${id}`, { method: 'POST', json: { content: 'Hello' } });
    const body = (await response.json()) as { assistantMessage: { status: string; errorCode: string; content: string } };
    expect(body.assistantMessage).toMatchObject({ status: 'failed', errorCode: 'UNAVAILABLE', content: 'one two ' });
    await eventually(async () => expect(((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens).toBe(15));
  });
});
