import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { eventually } from '../../kit/test/test-infra';

jest.setTimeout(90_000);

/** Embedded mode on disk: stopping the product mid-reply refunds the reply, and a restart shows it failed. */
describe('chat across a restart (embedded, on disk)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chat-restart-'));
  const env = { SIGNUPS_PER_IP_PER_HOUR: '1000', CHAT_DEMO_CHUNK_DELAY_MS: '100' };
  let platform: EmbeddedPlatform | null = null;

  afterAll(async () => {
    await platform?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a reply in flight when the product stops ends failed and refunded, never streaming', async () => {
    platform = await startEmbedded({ infra: { dataDir, databaseUrl: null, natsUrl: null }, gateway: { port: 0 }, env });
    const client = new TestClient(platform.url);
    const input = registration();
    await client.fetch('/api/auth/register', { method: 'POST', json: input });
    const { id } = (await (await client.fetch('/api/conversations', { method: 'POST', json: {} })).json()) as { id: string };
    await client.graphql(
      'mutation($id: ID!) { sendMessage(conversationId: $id, content: "Tell me a long story") { userMessage { id } } }',
      {
        id,
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    await platform.stop();
    platform = null;

    platform = await startEmbedded({ infra: { dataDir, databaseUrl: null, natsUrl: null }, gateway: { port: 0 }, env });
    const again = new TestClient(platform.url);
    await again.fetch('/api/auth/login', { method: 'POST', json: { email: input.email, password: input.password } });
    await eventually(async () => {
      const messages = (await (await again.fetch(`/api/conversations/${id}/messages`)).json()) as { role: string; status: string }[];
      expect(messages.map((m) => [m.role, m.status])).toEqual([
        ['user', 'complete'],
        ['assistant', 'failed'],
      ]);
    });
    expect(((await (await again.fetch('/api/user')).json()) as { tokens: number }).tokens).toBe(15);
  });
});
