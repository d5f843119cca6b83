import { randomUUID } from 'node:crypto';
import { chatService } from '@app/chat';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import sharp from 'sharp';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { eventually } from '../../kit/test/test-infra';
import { mediaService } from '../src';
import { FAKE_A1111_SAMPLERS, type FakeA1111, startFakeA1111 } from './fake-a1111-server';
import { type FakeOpenAiImages, imageErrors, startFakeOpenAiImages } from './fake-openai-images-server';

jest.setTimeout(60_000);

/** The platform configured only through the environment, as an operator would, against local servers speaking each protocol. */
async function platformWith(env: NodeJS.ProcessEnv): Promise<EmbeddedPlatform> {
  return startEmbedded({
    infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
    gateway: { port: 0 },
    env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_GENERATIONS_PER_IP_PER_MINUTE: '1000', ...env },
    services: [identityService, chatService, mediaService],
  });
}

async function member(platform: EmbeddedPlatform): Promise<TestClient> {
  const client = new TestClient(platform.url);
  expect((await client.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
  return client;
}

const balance = async (client: TestClient) => ((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens;

describe('media with an AUTOMATIC1111-compatible server', () => {
  let fake: FakeA1111;
  let platform: EmbeddedPlatform;

  beforeAll(async () => {
    const png = await sharp({ create: { width: 768, height: 1344, channels: 3, background: '#225577' } })
      .png()
      .toBuffer();
    fake = await startFakeA1111({ image: png, auth: 'painter:secret-pass', modelName: 'juggernautXL_v9' });
    platform = await platformWith({ A1111_URL: fake.url, A1111_AUTH: 'painter:secret-pass' });
  });
  afterAll(async () => {
    await platform?.stop();
    await fake?.close();
  });

  it('draws with the server, pushes its progress to the subscriber, and names the model it used', async () => {
    const client = await member(platform);
    const info = await client.graphql<{ imageProvider: { kind: string; isDemo: boolean } }>('{ imageProvider { kind isDemo } }');
    expect(info.data!.imageProvider).toEqual({ kind: 'A1111', isDemo: false });
    fake.setScenario({ kind: 'image', progress: [0.2, 0.45, 0.8] });
    const ws = client.subscriptions();
    const updates = collect<{
      generationUpdates: { status: string; progress: number | null; image: { model: string; width: number } | null };
    }>(ws, 'subscription { generationUpdates { status progress image { model width } } }', 1000);
    updates.done.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = await client.graphql(
      'mutation { generateImage(input: { prompt: "A harbour at dawn", size: PORTRAIT, quality: HD }) { id } }',
    );
    expect(started.errors).toBeUndefined();
    await eventually(() => expect(updates.values.at(-1)?.generationUpdates.status).toBe('DONE'), 20_000);
    const progress = updates.values
      .map((value) => value.generationUpdates.progress)
      .filter((value): value is number => value !== null && value < 1);
    expect(progress).toEqual(expect.arrayContaining([0.2, 0.45, 0.8]));
    expect(updates.values.at(-1)!.generationUpdates.image).toEqual({ model: 'juggernautXL_v9', width: 768 });
    expect(fake.lastTxt2img()!.body).toMatchObject({ prompt: 'A harbour at dawn', width: 768, height: 1344, steps: 40 });
    expect(fake.lastTxt2img()!.headers.authorization).toBe(`Basic ${Buffer.from('painter:secret-pass').toString('base64')}`);
    updates.stop();
    await ws.dispose();
    expect(await balance(client)).toBe(14);
  });

  it("offers every advanced setting and the server's samplers, sends them, and stores the seed the server drew", async () => {
    const client = await member(platform);
    const info = await client.graphql<{ imageProvider: Record<string, unknown> }>('{ imageProvider { advanced samplers source } }');
    expect(info.data!.imageProvider).toEqual({
      advanced: ['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler'],
      samplers: FAKE_A1111_SAMPLERS,
      source: 'configured',
    });
    fake.setScenario({ kind: 'image' });
    const asked = { negativePrompt: 'watermark', steps: 18, cfgScale: 6.5, sampler: 'Euler a' };
    const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'A harbour at noon', ...asked } });
    expect(response.status).toBe(201);
    const image = (await response.json()) as { settings: Record<string, unknown> };
    expect(fake.lastTxt2img()!.body).toMatchObject({
      negative_prompt: 'watermark',
      steps: 18,
      cfg_scale: 6.5,
      sampler_name: 'Euler a',
      seed: expect.any(Number),
    });
    // No seed asked for: the one drawn (and sent) is recorded on the image, so "Use these settings" repeats it.
    const sentSeed = fake.lastTxt2img()!.body!['seed'];
    expect(image.settings).toEqual({ size: '1024x1024', quality: 'standard', style: 'vivid', ...asked, seed: sentSeed });

    const unknown = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'A harbour', sampler: 'Nope' } });
    expect({ status: unknown.status, body: await unknown.json() }).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION_FAILED', message: 'This image provider has no sampler named "Nope"' },
    });
    expect(await balance(client)).toBe(14);
  });

  it('a failing server is retried, then the job fails and the token is refunded', async () => {
    const client = await member(platform);
    fake.setScenario({ kind: 'error', status: 500, body: { error: 'OutOfMemoryError', detail: 'CUDA out of memory' } });
    const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'Too big' } });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { message: string }).message).toBe('Failed to generate image. Please try again.');
    expect(
      fake.requests.filter((request) => request.path.startsWith('/sdapi/v1/txt2img') && request.body?.prompt === 'Too big'),
    ).toHaveLength(2);
    await eventually(async () => expect(await balance(client)).toBe(15));
  });
});

describe('media with an OpenAI Images server', () => {
  let fake: FakeOpenAiImages;
  let platform: EmbeddedPlatform;
  const key = 'sk-test-images-key-1234';

  beforeAll(async () => {
    const png = await sharp({ create: { width: 1792, height: 1024, channels: 3, background: '#775522' } })
      .png()
      .toBuffer();
    fake = await startFakeOpenAiImages({ image: png, apiKey: key });
    platform = await platformWith({ OPENAI_IMAGES_BASE_URL: fake.url, OPENAI_IMAGES_API_KEY: key });
  });
  afterAll(async () => {
    await platform?.stop();
    await fake?.close();
  });

  it("sends dall-e-3 the member's options as they are and stores the picture", async () => {
    const client = await member(platform);
    const response = await client.fetch('/api/generate/image', {
      method: 'POST',
      json: { prompt: 'Dunes under a green sky', size: '1792x1024', quality: 'hd', style: 'natural' },
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ model: 'dall-e-3', isDemo: false, width: 1792, height: 1024 });
    expect(fake.lastGeneration()!.body).toMatchObject({
      model: 'dall-e-3',
      prompt: 'Dunes under a green sky',
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
      response_format: 'b64_json',
    });
  });

  it('offers no advanced settings and refuses them by name, without a charge', async () => {
    const client = await member(platform);
    const info = await client.graphql<{ imageProvider: Record<string, unknown> }>('{ imageProvider { advanced samplers } }');
    expect(info.data!.imageProvider).toEqual({ advanced: [], samplers: [] });
    const calls = fake.requests.length;
    const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'Dunes', seed: 12 } });
    expect({ status: response.status, body: await response.json() }).toMatchObject({
      status: 400,
      body: {
        code: 'VALIDATION_FAILED',
        message: 'This image provider does not support a seed',
        fieldErrors: { seed: 'This image provider does not support a seed' },
      },
    });
    expect(fake.requests.length).toBe(calls);
    expect(await balance(client)).toBe(15);
  });

  it("a refusal by the provider's safety system is answered 422 and refunded", async () => {
    const client = await member(platform);
    fake.setScenario(imageErrors.contentPolicy());
    const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'Something the provider refuses' } });
    expect(response.status).toBe(422);
    const body = (await response.json()) as { code: string; message: string };
    expect(body.code).toBe('CONTENT_REJECTED');
    expect(body.message).not.toContain(key);
    await eventually(async () => expect(await balance(client)).toBe(15));
  });
});
