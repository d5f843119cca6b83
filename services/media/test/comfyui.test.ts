import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import type { ImageSettings } from '@app/schema';
import sharp from 'sharp';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { chooseImageProvider, mediaService } from '../src';
import { ComfyUiProvider, type ComfyUiOptions, readComfyUiConfig } from '../src/providers/comfyui.provider';
import { DEFAULT_COMFYUI_WORKFLOW_PATH, loadComfyUiWorkflow } from '../src/providers/comfyui-workflow';
import { ImageProviderError } from '../src/providers/image-provider';
import { readImageProviderOrigin } from '../src/providers/image-provider.environment';
import { readMediaConfig } from '../src/media.config';
import { type FakeComfyUi, startFakeComfyUi } from './fake-comfyui-server';

jest.setTimeout(30_000);

const FIXTURES = path.join(__dirname, 'fixtures', 'comfyui');
const DEFAULTS: ImageSettings = { size: '1024x1024', quality: 'standard', style: 'vivid' };

async function failure(promise: Promise<unknown>): Promise<ImageProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ImageProviderError);
    return error as ImageProviderError;
  }
  throw new Error('expected the call to fail');
}

const eventually = async (check: () => boolean) => {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 3_000) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('ComfyUiProvider against a local ComfyUI server', () => {
  let png: Buffer;
  let fake: FakeComfyUi;

  beforeAll(async () => {
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    fake = await startFakeComfyUi({ image: png });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.setScenario({ kind: 'image' }));

  const provider = (options: Partial<ComfyUiOptions> = {}) =>
    new ComfyUiProvider({ baseUrl: fake.url, connectTimeoutMs: 1_000, totalTimeoutMs: 5_000, ...options });

  /** The id ComfyUI gave the next prompt queued after `count` prompts, once the client has had time to read it. */
  const queuedPromptId = async (count: number) => {
    await eventually(() => fake.prompts[count]?.promptId != null);
    await new Promise((resolve) => setTimeout(resolve, 50));
    return fake.prompts[count].promptId!;
  };

  it('runs the shipped workflow with the placeholders filled in, reports progress and returns the picture, model and seed', async () => {
    const comfy = provider();
    expect(comfy).toMatchObject({ kind: 'comfyui', isDemo: false, advanced: ['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler'] });
    const progress: number[] = [];
    const result = await comfy.generate({
      prompt: 'A lighthouse at dusk, "stormy"',
      settings: { size: '1792x1024', quality: 'hd', style: 'natural' },
      onProgress: (fraction) => progress.push(fraction),
    });

    expect(progress).toEqual([0.25, 0.5, 0.75, 1]);
    expect(result.image).toEqual(png);
    // No COMFYUI_MODEL: the server's first checkpoint, then named as the provider's model.
    expect(result.model).toBe('sd_xl_base_1.0.safetensors');
    expect(comfy.model).toBe('sd_xl_base_1.0.safetensors');
    expect(result.seed).toEqual(expect.any(Number));

    const posted = fake.prompts.at(-1)!.body;
    expect(fake.sockets).toContain(posted.client_id);
    const shipped = JSON.parse(fs.readFileSync(DEFAULT_COMFYUI_WORKFLOW_PATH, 'utf8')) as Record<string, { inputs: object }>;
    expect(posted.prompt).toEqual({
      ...shipped,
      '4': { ...shipped['4'], inputs: { ckpt_name: 'sd_xl_base_1.0.safetensors' } },
      '5': { ...shipped['5'], inputs: { width: 1344, height: 768, batch_size: 1 } },
      '6': { ...shipped['6'], inputs: { text: 'A lighthouse at dusk, "stormy"', clip: ['4', 1] } },
      '7': { ...shipped['7'], inputs: { text: 'lowres, blurry, watermark, text', clip: ['4', 1] } },
      '3': {
        ...shipped['3'],
        inputs: { ...shipped['3'].inputs, seed: result.seed, steps: 40, cfg: 4.5, sampler_name: 'dpmpp_2m' },
      },
    });
    expect(Object.fromEntries(fake.views.at(-1)!)).toEqual({
      filename: 'creator-platform_00001_.png',
      subfolder: 'renders',
      type: 'output',
    });
  });

  it('honours the advanced settings and COMFYUI_MODEL, and returns the seed it was given', async () => {
    const comfy = provider({ model: 'juggernautXL_v9.safetensors' });
    const result = await comfy.generate({
      prompt: 'A red fox in snow',
      settings: { ...DEFAULTS, negativePrompt: 'people', seed: 42, steps: 12, cfgScale: 3.5, sampler: 'euler_ancestral' },
    });
    expect(result).toMatchObject({ model: 'juggernautXL_v9.safetensors', seed: 42 });
    const graph = fake.prompts.at(-1)!.body.prompt!;
    expect(graph['4'].inputs.ckpt_name).toBe('juggernautXL_v9.safetensors');
    expect(graph['7'].inputs.text).toBe('people');
    expect(graph['5'].inputs).toMatchObject({ width: 1024, height: 1024 });
    expect(graph['3'].inputs).toMatchObject({ seed: 42, steps: 12, cfg: 3.5, sampler_name: 'euler_ancestral' });
  });

  it('draws a new random seed for each picture when none is given', async () => {
    const comfy = provider();
    const seeds = new Set<number | undefined>();
    for (let i = 0; i < 3; i++) seeds.add((await comfy.generate({ prompt: 'Clouds', settings: DEFAULTS })).seed);
    expect(seeds.size).toBe(3);
  });

  it('runs a custom workflow: only its placeholders are filled and only those settings are honoured', async () => {
    const comfy = provider({ workflow: loadComfyUiWorkflow(path.join(FIXTURES, 'portrait-seed-only.json')) });
    expect(comfy.advanced).toEqual(['seed']);
    // The workflow names its checkpoint itself.
    expect(comfy.model).toBe('juggernautXL_v9.safetensors');
    fake.setScenario({ kind: 'image', saveType: 'temp' });
    const result = await comfy.generate({ prompt: 'an old sailor', settings: { ...DEFAULTS, size: '1024x1792', seed: 7 } });
    expect(result).toEqual({ image: png, model: 'juggernautXL_v9.safetensors', seed: 7 });
    const graph = fake.prompts.at(-1)!.body.prompt!;
    expect(graph['2'].inputs).toEqual({ width: 1344, height: 768, batch_size: 1 });
    expect(graph['3'].inputs.text).toBe('cinematic photo of an old sailor, 35mm, 768x1344');
    expect(graph['5'].inputs).toMatchObject({ seed: 7, steps: 30, cfg: 5.5, sampler_name: 'euler_ancestral' });
    expect(fake.views.at(-1)!.get('type')).toBe('temp');
  });

  it('lists the samplers ComfyUI offers, and none when it cannot be asked', async () => {
    expect(await provider().samplers()).toEqual(['euler', 'euler_ancestral', 'dpmpp_2m', 'dpmpp_2m_sde', 'ddim', 'uni_pc']);
    expect(await new ComfyUiProvider({ baseUrl: 'http://127.0.0.1:9', connectTimeoutMs: 300 }).samplers()).toEqual([]);
  });

  it('on abort while drawing takes the prompt off the queue, interrupts it and throws CANCELLED', async () => {
    fake.setScenario({ kind: 'stall' });
    const controller = new AbortController();
    const [interruptsBefore, promptsBefore] = [fake.interrupts.length, fake.prompts.length];
    const generation = provider().generate({ prompt: 'Forever', settings: DEFAULTS, signal: controller.signal });
    const promptId = await queuedPromptId(promptsBefore);
    controller.abort();
    const error = await failure(generation);
    expect(error.code).toBe('CANCELLED');
    expect(fake.interrupts.slice(interruptsBefore)).toEqual([{ prompt_id: promptId }]);
    expect(fake.queueDeletes).toContain(promptId);
  });

  it('on abort while still queued only takes the prompt off the queue (another job may be running)', async () => {
    fake.setScenario({ kind: 'queued' });
    const controller = new AbortController();
    const [interruptsBefore, promptsBefore] = [fake.interrupts.length, fake.prompts.length];
    const generation = provider().generate({ prompt: 'Waiting', settings: DEFAULTS, signal: controller.signal });
    const promptId = await queuedPromptId(promptsBefore);
    controller.abort();
    expect((await failure(generation)).code).toBe('CANCELLED');
    expect(fake.queueDeletes).toContain(promptId);
    expect(fake.interrupts.length).toBe(interruptsBefore);
  });

  it('gives up with TIMEOUT after the total limit and interrupts the abandoned prompt', async () => {
    fake.setScenario({ kind: 'stall' });
    const interruptsBefore = fake.interrupts.length;
    const error = await failure(provider({ totalTimeoutMs: 400 }).generate({ prompt: 'Slow', settings: DEFAULTS }));
    expect(error).toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
      message: 'The image provider did not deliver the image within 400 ms',
    });
    expect(fake.interrupts.length).toBe(interruptsBefore + 1);
  });

  it('maps an execution error to UNAVAILABLE naming the node, retryable only when the GPU ran out of memory', async () => {
    const interruptsBefore = fake.interrupts.length;
    fake.setScenario({
      kind: 'execution-error',
      nodeType: 'VAEDecode',
      exceptionType: 'RuntimeError',
      exceptionMessage: 'Given groups=1, weight of size [4]',
    });
    const broken = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(broken).toMatchObject({ code: 'UNAVAILABLE', retryable: false });
    expect(broken.message).toBe('The image provider failed in VAEDecode: RuntimeError: Given groups=1, weight of size [4]');
    // ComfyUI ended the prompt itself: nothing to interrupt (an older ComfyUI would stop whatever runs next).
    expect(fake.interrupts.length).toBe(interruptsBefore);

    fake.setScenario({
      kind: 'execution-error',
      nodeType: 'KSampler',
      exceptionType: 'torch.OutOfMemoryError',
      exceptionMessage: 'Allocation on device',
    });
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
    });
  });

  it("maps ComfyUI's refusal of the prompt to VALIDATION_FAILED, naming the failing input", async () => {
    const error = await failure(provider().generate({ prompt: 'A cat', settings: { ...DEFAULTS, sampler: 'DPM++ 2M Karras' } }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, retryable: false });
    expect(error.message).toContain(
      "Prompt outputs failed validation; KSampler: Value not in list: sampler_name: 'DPM++ 2M Karras' not in",
    );
    expect(error.message).toContain(DEFAULT_COMFYUI_WORKFLOW_PATH);
  });

  it('maps a WebSocket that closes mid-picture and an unreachable server to UNAVAILABLE, retryable', async () => {
    fake.setScenario({ kind: 'drop-socket' });
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
      message: 'The image provider closed its WebSocket before the picture was done',
    });
    // The prompt may still run on the server while the job is retried: it is stopped, not left to draw for nobody.
    expect(fake.interrupts.at(-1)).toEqual({ prompt_id: fake.prompts.at(-1)!.promptId });
    const offline = new ComfyUiProvider({ baseUrl: 'http://127.0.0.1:9', connectTimeoutMs: 500 });
    expect(await failure(offline.generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
    });
  });
});

describe('ComfyUI configuration', () => {
  const config = readMediaConfig({});
  let tmp: string;
  beforeAll(() => (tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'comfyui-'))));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('is chosen by COMFYUI_URL or IMAGE_PROVIDER=comfyui (its default port), after AUTOMATIC1111 when both are set', () => {
    expect(readComfyUiConfig({})).toBeNull();
    expect(readComfyUiConfig({ IMAGE_PROVIDER: 'comfyui' })).toMatchObject({ baseUrl: 'http://127.0.0.1:8188', model: null });
    expect(
      readComfyUiConfig({ COMFYUI_URL: 'http://gpu.lan:8188/prompt/', COMFYUI_MODEL: 'x.safetensors', COMFYUI_TIMEOUT_MS: '9000' }),
    ).toMatchObject({
      baseUrl: 'http://gpu.lan:8188',
      model: 'x.safetensors',
      totalTimeoutMs: 9000,
    });
    expect(chooseImageProvider({ COMFYUI_URL: 'http://127.0.0.1:8188' }, config)).toMatchObject({ kind: 'comfyui', isDemo: false });
    expect(chooseImageProvider({ COMFYUI_URL: 'http://127.0.0.1:8188', A1111_URL: 'http://127.0.0.1:7860' }, config).kind).toBe('a1111');
    expect(chooseImageProvider({ IMAGE_PROVIDER: 'comfyui', A1111_URL: 'http://127.0.0.1:7860' }, config).kind).toBe('comfyui');
    expect(chooseImageProvider({ IMAGE_PROVIDER: 'demo', COMFYUI_URL: 'http://127.0.0.1:8188' }, config).isDemo).toBe(true);
    expect(() => readComfyUiConfig({ COMFYUI_URL: 'ftp://nas/comfy' })).toThrow('COMFYUI_URL must be an http(s) URL');
  });

  it('refuses a workflow file that cannot be used, naming the file and the problem, when the provider is chosen', () => {
    const write = (name: string, text: string) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, text);
      return file;
    };
    const choose = (file: string) => () => chooseImageProvider({ COMFYUI_URL: 'http://127.0.0.1:8188', COMFYUI_WORKFLOW: file }, config);
    const broken = write('broken.json', '{ "3": { "class_type": "KSampler", ');
    expect(choose(broken)).toThrow(`The ComfyUI workflow ${broken} is not valid JSON`);
    const noPrompt = path.join(FIXTURES, 'no-prompt.json');
    expect(choose(noPrompt)).toThrow(`The ComfyUI workflow ${noPrompt} has no {{prompt}} placeholder`);
    expect(choose(path.join(FIXTURES, 'editor-format.json'))).toThrow('is in the editor format; export it with "Save (API Format)"');
    const missing = path.join(tmp, 'missing.json');
    expect(choose(missing)).toThrow(`The ComfyUI workflow ${missing} cannot be read (ENOENT)`);
    const unknown = write('unknown.json', '{ "6": { "class_type": "CLIPTextEncode", "inputs": { "text": "{{prompt}} by {{artist}}" } } }');
    expect(choose(unknown)).toThrow('uses an unknown placeholder {{artist}}');
  });

  it("reports how the provider was found: the probe's source and server, ComfyUI naming itself, the demo as demo", () => {
    const comfy = { kind: 'comfyui', isDemo: false };
    expect(readImageProviderOrigin({}, comfy)).toEqual({ source: 'configured', server: 'ComfyUI' });
    expect(readImageProviderOrigin({ IMAGE_PROVIDER_SOURCE: 'detected' }, comfy)).toEqual({ source: 'detected', server: 'ComfyUI' });
    expect(
      readImageProviderOrigin({ IMAGE_PROVIDER_SOURCE: 'detected', IMAGE_PROVIDER_SERVER: 'Forge' }, { kind: 'a1111', isDemo: false }),
    ).toEqual({
      source: 'detected',
      server: 'Forge',
    });
    expect(readImageProviderOrigin({ IMAGE_PROVIDER_SOURCE: 'detected' }, { kind: 'demo', isDemo: true })).toEqual({
      source: 'demo',
      server: null,
    });
    expect(() => readImageProviderOrigin({ IMAGE_PROVIDER_SOURCE: 'guessed' }, comfy)).toThrow('IMAGE_PROVIDER_SOURCE');
  });
});

describe('media with a ComfyUI server, configured through the environment', () => {
  let fake: FakeComfyUi;
  let platform: EmbeddedPlatform;

  beforeAll(async () => {
    const png = await sharp({ create: { width: 1024, height: 1024, channels: 3, background: '#335577' } })
      .png()
      .toBuffer();
    fake = await startFakeComfyUi({ image: png });
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: {
        SIGNUPS_PER_IP_PER_HOUR: '1000',
        COMFYUI_URL: fake.url,
        COMFYUI_MODEL: 'juggernautXL_v9.safetensors',
        IMAGE_PROVIDER_SOURCE: 'detected',
      },
      services: [identityService, mediaService],
    });
  });
  afterAll(async () => {
    await platform?.stop();
    await fake?.close();
  });

  it('names ComfyUI, its samplers and how it was found, draws with the settings asked for and stores the seed it used', async () => {
    const client = new TestClient(platform.url);
    expect((await client.fetch('/api/auth/register', { method: 'POST', json: registration() })).status).toBe(201);
    const info = await client.graphql<{ imageProvider: Record<string, unknown> }>(
      '{ imageProvider { kind model isDemo advanced samplers source server } }',
    );
    expect(info.data!.imageProvider).toEqual({
      kind: 'COMFYUI',
      model: 'juggernautXL_v9.safetensors',
      isDemo: false,
      advanced: ['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler'],
      samplers: ['euler', 'euler_ancestral', 'dpmpp_2m', 'dpmpp_2m_sde', 'ddim', 'uni_pc'],
      source: 'detected',
      server: 'ComfyUI',
    });

    const asked = { negativePrompt: 'text', steps: 10, cfgScale: 5, sampler: 'euler' };
    const response = await client.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'A harbour at noon', ...asked } });
    expect(response.status).toBe(201);
    const image = (await response.json()) as { model: string; settings: Record<string, unknown> };
    const sampler = fake.prompts.at(-1)!.body.prompt!['3'].inputs;
    expect(sampler).toMatchObject({ steps: 10, cfg: 5, sampler_name: 'euler', seed: expect.any(Number) });
    expect(image.model).toBe('juggernautXL_v9.safetensors');
    expect(image.settings).toEqual({ size: '1024x1024', quality: 'standard', style: 'vivid', ...asked, seed: sampler.seed });
  });
});
