import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { type LocalServer, a1111Routes, ollamaRoutes, startLocalServer } from './local-model-servers';

jest.setTimeout(60_000);

const PROVIDER_QUERY = '{ chatProvider { kind model isDemo source server } imageProvider { model isDemo source server } }';
interface ProviderAnswer {
  chatProvider: { kind: string; model: string; isDemo: boolean; source: string; server: string | null };
  imageProvider: { model: string; isDemo: boolean; source: string; server: string | null };
}

async function signedUpMember(platform: EmbeddedPlatform): Promise<TestClient> {
  const client = new TestClient(platform.url);
  await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
  return client;
}

const memoryInfra = () => ({ dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null });

/** The whole product started as `npm start` starts it, with Ollama and AUTOMATIC1111 on "this computer" (local servers speaking their protocols). */
describe('first run with Ollama and AUTOMATIC1111 on this computer', () => {
  let ollama: LocalServer;
  let a1111: LocalServer;
  let platform: EmbeddedPlatform;

  beforeAll(async () => {
    ollama = await startLocalServer(ollamaRoutes({ running: 'ollama-ps', reply: 'Hi there, I run on your own computer.' }));
    a1111 = await startLocalServer(a1111Routes());
    platform = await startEmbedded({
      infra: memoryInfra(),
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
      probeLocalServers: {
        chat: [{ expected: 'Ollama', baseUrl: ollama.url }],
        images: [{ protocol: 'a1111', baseUrl: a1111.url }],
      },
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await ollama?.close();
    await a1111?.close();
  });

  it('streams replies from the Ollama model it picked, and tells members what it found on this computer', async () => {
    const client = await signedUpMember(platform);
    const conversation = (await (await client.fetch('/api/conversations', { method: 'POST', json: {} })).json()) as { id: string };
    const response = await client.fetch(`/api/chat/${conversation.id}`, { method: 'POST', json: { content: 'Hello' } });
    const body = (await response.json()) as { assistantMessage: { content: string; status: string; model: string } };
    expect(body.assistantMessage).toEqual(
      expect.objectContaining({ content: 'Hi there, I run on your own computer.', status: 'complete', model: 'llama3.2:3b' }),
    );
    expect(ollama.requests).toContain('POST /v1/chat/completions');
    const info = await client.graphql<ProviderAnswer>(PROVIDER_QUERY);
    expect(info.data?.imageProvider).toEqual({
      model: 'sd_xl_base_1.0.safetensors [31e35c80fc]',
      isDemo: false,
      source: 'detected',
      server: 'AUTOMATIC1111',
    });
    expect(info.data?.chatProvider).toEqual({
      kind: 'OPENAI_COMPATIBLE',
      model: 'llama3.2:3b',
      isDemo: false,
      source: 'detected',
      server: 'Ollama',
    });
  });
});

describe('first run with the demo asked for', () => {
  let ollama: LocalServer;
  beforeAll(async () => {
    ollama = await startLocalServer(ollamaRoutes());
  });
  afterAll(async () => {
    await ollama?.close();
  });

  it('keeps the labelled demo when CHAT_PROVIDER=demo, without asking Ollama', async () => {
    const platform = await startEmbedded({
      infra: memoryInfra(),
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', CHAT_PROVIDER: 'demo' },
      probeLocalServers: { chat: [{ expected: 'Ollama', baseUrl: ollama.url }], images: [] },
    });
    try {
      const info = await (await signedUpMember(platform)).graphql<ProviderAnswer>(PROVIDER_QUERY);
      expect(info.data?.chatProvider).toMatchObject({ isDemo: true, source: 'demo', server: null });
      expect(ollama.requests).toEqual([]);
    } finally {
      await platform.stop();
    }
  });
});
