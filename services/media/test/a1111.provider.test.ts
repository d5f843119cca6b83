import sharp from 'sharp';
import { type ImageSettings, MEDIA_LIMITS } from '@app/schema';
import { A1111Provider, type A1111Options, readA1111Config } from '../src/providers/a1111.provider';
import { ImageProviderError } from '../src/providers/image-provider';
import { FAKE_A1111_SAMPLERS, type FakeA1111, startFakeA1111 } from './fake-a1111-server';
import { startSilentServer } from './fake-openai-images-server';

jest.setTimeout(15_000);

const AUTH = 'painter:hunter2-secret';
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

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('A1111Provider against a local AUTOMATIC1111 API', () => {
  let png: Buffer;
  let fake: FakeA1111;

  beforeAll(async () => {
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    fake = await startFakeA1111({ image: png, auth: AUTH });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.setScenario({ kind: 'image' });
    fake.setProgressMode('ok');
  });

  const provider = (options: Partial<A1111Options> = {}) =>
    new A1111Provider({ baseUrl: fake.url, auth: AUTH, progressIntervalMs: 10, connectTimeoutMs: 300, totalTimeoutMs: 3_000, ...options });

  it('sends the SDXL size, steps, cfg, sampler and checkpoint with basic auth, and returns the picture and the model the server used', async () => {
    const sd = provider({ model: 'sd_xl_base_1.0.safetensors [31e35c80fc]', negativePrompt: 'blurry' });
    expect(sd).toMatchObject({ kind: 'a1111', model: 'sd_xl_base_1.0.safetensors [31e35c80fc]', isDemo: false });
    const result = await sd.generate({ prompt: 'A lighthouse at dusk', settings: { size: '1792x1024', quality: 'hd', style: 'vivid' } });
    const request = fake.lastTxt2img()!;
    expect(result).toEqual({ image: png, model: 'sd_xl_base_1.0', seed: request.body!['seed'] });
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from(AUTH).toString('base64')}`);
    expect(request.body).toEqual({
      prompt: 'A lighthouse at dusk',
      negative_prompt: 'blurry',
      width: 1344,
      height: 768,
      steps: 40,
      cfg_scale: 7,
      sampler_name: 'DPM++ 2M',
      batch_size: 1,
      n_iter: 1,
      seed: expect.any(Number),
      send_images: true,
      save_images: false,
      override_settings: { sd_model_checkpoint: 'sd_xl_base_1.0.safetensors [31e35c80fc]' },
    });
  });

  it("sends the member's negative prompt, seed, steps, CFG scale and sampler instead of the defaults, and reports the seed used", async () => {
    const sd = provider({ negativePrompt: 'blurry' });
    expect(sd.advanced).toEqual(['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler']);
    const settings: ImageSettings = {
      ...DEFAULTS,
      negativePrompt: 'people, text',
      seed: 31337,
      steps: 12,
      cfgScale: 5.5,
      sampler: 'Euler a',
    };
    const result = await sd.generate({ prompt: 'A lighthouse at dusk', settings });
    expect(fake.lastTxt2img()!.body).toMatchObject({
      negative_prompt: 'people, text',
      seed: 31337,
      steps: 12,
      cfg_scale: 5.5,
      sampler_name: 'Euler a',
    });
    expect(result.seed).toBe(31337);

    // Only some given: the others keep what quality, style and the configuration choose; a seed is drawn here, within the
    // range the API records (A1111's own draw goes beyond it), and the one the server reports wins.
    const drawn = await sd.generate({ prompt: 'A lighthouse at dusk', settings: { ...DEFAULTS, steps: 8 } });
    const sentSeed = fake.lastTxt2img()!.body!['seed'] as number;
    expect(Number.isInteger(sentSeed) && sentSeed >= 0 && sentSeed <= MEDIA_LIMITS.seedMax).toBe(true);
    expect(fake.lastTxt2img()!.body).toMatchObject({
      negative_prompt: 'blurry',
      steps: 8,
      cfg_scale: 7,
      sampler_name: 'DPM++ 2M',
    });
    expect(drawn.seed).toBe(sentSeed);
  });

  it('reads the seed from an info object (forks), and records the seed it sent when the server reports none', async () => {
    fake.setScenario({ kind: 'image', info: { sd_model_name: 'fork-model', all_seeds: [99] } });
    await expect(provider().generate({ prompt: 'Fork', settings: DEFAULTS })).resolves.toMatchObject({ seed: 99 });
    fake.setScenario({ kind: 'image', info: null });
    const quiet = await provider().generate({ prompt: 'Quiet', settings: DEFAULTS });
    expect(quiet.seed).toBe(fake.lastTxt2img()!.body!['seed']);
  });

  it("lists the server's samplers once (concurrent asks share one request), and none while the server cannot be asked", async () => {
    const sd = provider();
    await expect(Promise.all([sd.samplers(), sd.samplers(), sd.samplers()])).resolves.toEqual([
      FAKE_A1111_SAMPLERS,
      FAKE_A1111_SAMPLERS,
      FAKE_A1111_SAMPLERS,
    ]);
    await expect(sd.samplers()).resolves.toEqual(FAKE_A1111_SAMPLERS);
    const asked = fake.requests.filter((request) => request.path === '/sdapi/v1/samplers');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.headers.authorization).toBe(`Basic ${Buffer.from(AUTH).toString('base64')}`);

    await expect(provider({ auth: 'painter:wrong' }).samplers()).resolves.toEqual([]);
    const unreachable = new A1111Provider({ baseUrl: 'http://127.0.0.1:9', connectTimeoutMs: 300 });
    await expect(unreachable.samplers()).resolves.toEqual([]);

    // A failed lookup is remembered for a while: the generator's page loads do not each wait on a dead server.
    const refused = provider({ auth: 'painter:wrong' });
    await refused.samplers();
    await refused.samplers();
    expect(fake.requests.filter((request) => request.path === '/sdapi/v1/samplers')).toHaveLength(3);
  });

  it('maps portrait, standard and natural and keeps the server checkpoint when none is configured', async () => {
    const sd = provider();
    expect(sd.model).toBe('stable-diffusion');
    await sd.generate({ prompt: 'A red fox in snow', settings: { size: '1024x1792', quality: 'standard', style: 'natural' } });
    const body = fake.lastTxt2img()!.body!;
    expect(body).toMatchObject({ prompt: 'A red fox in snow', width: 768, height: 1344, steps: 24, cfg_scale: 4.5 });
    expect(body.negative_prompt).toBe('lowres, blurry, watermark, text');
    expect(body).not.toHaveProperty('override_settings');

    await sd.generate({ prompt: 'Square', settings: DEFAULTS });
    expect(fake.lastTxt2img()!.body).toMatchObject({ width: 1024, height: 1024 });
  });

  it('falls back to the configured or default model name when the server does not say, and strips a data URL prefix', async () => {
    fake.setScenario({ kind: 'image', info: null, dataUrl: true });
    expect(await provider().generate({ prompt: 'A cat', settings: DEFAULTS })).toEqual({
      image: png,
      model: 'stable-diffusion',
      seed: fake.lastTxt2img()!.body!['seed'],
    });
    fake.setScenario({ kind: 'image', info: '{"sd_model_name": null}' });
    expect((await provider({ model: 'juggernautXL' }).generate({ prompt: 'A cat', settings: DEFAULTS })).model).toBe('juggernautXL');
    fake.setScenario({ kind: 'image', info: { sd_model_name: 'ponyXL' } });
    expect((await provider().generate({ prompt: 'A cat', settings: DEFAULTS })).model).toBe('ponyXL');
  });

  it('reports increasing progress while the picture is drawn and stops asking when it is done', async () => {
    fake.setScenario({ kind: 'image', progress: [0.1, 0.1, 0.5, 0.3, 0.9] });
    const reported: number[] = [];
    const result = await provider().generate({ prompt: 'A cat', settings: DEFAULTS, onProgress: (fraction) => reported.push(fraction) });
    expect(result.image.equals(png)).toBe(true);
    expect(reported).toEqual([0.1, 0.5, 0.9]);
    const progressRequest = fake.requests.find((request) => request.path.startsWith('/sdapi/v1/progress'))!;
    expect(progressRequest.path).toBe('/sdapi/v1/progress?skip_current_image=true');
    expect(progressRequest.headers.authorization).toBe(`Basic ${Buffer.from(AUTH).toString('base64')}`);
    const count = fake.requests.length;
    await wait(80);
    expect(fake.requests.length).toBe(count);
  });

  it.each(['error', 'malformed', 'stall'] as const)('keeps generating when /progress answers badly (%s)', async (mode) => {
    fake.setProgressMode(mode);
    fake.setScenario({ kind: 'image', delayMs: 150 });
    const onProgress = jest.fn();
    const result = await provider().generate({ prompt: 'A cat', settings: DEFAULTS, onProgress });
    expect(result.image.equals(png)).toBe(true);
    expect(onProgress).not.toHaveBeenCalled();
    expect(fake.requests.some((request) => request.path.startsWith('/sdapi/v1/progress'))).toBe(true);
  });

  it('keeps generating when the progress listener throws', async () => {
    fake.setScenario({ kind: 'image', progress: [0.2, 0.6] });
    const onProgress = jest.fn(() => {
      throw new Error('listener bug');
    });
    await provider().generate({ prompt: 'A cat', settings: DEFAULTS, onProgress });
    expect(onProgress).toHaveBeenCalledTimes(2);
  });

  it('on abort stops the request, interrupts the server and throws CANCELLED', async () => {
    fake.setScenario({ kind: 'stall' });
    const interruptsBefore = fake.interrupts;
    const controller = new AbortController();
    const pending = provider().generate({ prompt: 'A cat', settings: DEFAULTS, signal: controller.signal, onProgress: () => {} });
    await wait(100);
    controller.abort();
    const error = await failure(pending);
    expect(error).toMatchObject({ code: 'CANCELLED', retryable: false });
    expect(fake.interrupts).toBe(interruptsBefore + 1);
    const interrupt = fake.requests.findLast((request) => request.path === '/sdapi/v1/interrupt')!;
    expect(interrupt.headers.authorization).toBe(`Basic ${Buffer.from(AUTH).toString('base64')}`);
    expect(await fake.lastTxt2img()!.closed).toBe('client-closed');

    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS, signal: AbortSignal.abort() }))).toMatchObject({
      code: 'CANCELLED',
    });
    expect(fake.interrupts).toBe(interruptsBefore + 1);
  });

  it('gives up with TIMEOUT after the total limit and interrupts the abandoned job', async () => {
    fake.setScenario({ kind: 'stall' });
    const interruptsBefore = fake.interrupts;
    const error = await failure(provider({ totalTimeoutMs: 300 }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
      message: 'The image provider did not deliver the image within 300 ms',
    });
    expect(fake.interrupts).toBe(interruptsBefore + 1);
  });

  it('lets a long generation run past the connect limit', async () => {
    fake.setScenario({ kind: 'image', delayMs: 600 });
    const result = await provider({ connectTimeoutMs: 150 }).generate({ prompt: 'A cat', settings: DEFAULTS });
    expect(result.image.equals(png)).toBe(true);
  });

  it('gives up with TIMEOUT when the server cannot be reached within the connect limit', async () => {
    const silent = await startSilentServer();
    try {
      const error = await failure(
        provider({ baseUrl: `https://127.0.0.1:${silent.port}`, connectTimeoutMs: 200 }).generate({ prompt: 'A cat', settings: DEFAULTS }),
      );
      expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true, message: 'The image provider could not be reached within 200 ms' });
    } finally {
      await silent.close();
    }
  });

  it('maps refused credentials to UNAVAILABLE, final, without the password', async () => {
    const error = await failure(provider({ auth: 'painter:wrong-password' }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 401, retryable: false });
    expect(error.message).not.toContain('wrong-password');
    const missing = await failure(provider({ auth: null }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(missing).toMatchObject({ code: 'UNAVAILABLE', status: 401, retryable: false });
  });

  it('maps 422 to VALIDATION_FAILED, quoting FastAPI details without the credentials', async () => {
    fake.setScenario({
      kind: 'error',
      status: 422,
      body: { detail: [{ loc: ['body', 'width'], msg: `value is not a valid integer (${AUTH})`, type: 'type_error.integer' }] },
    });
    const error = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 422, retryable: false });
    expect(error.message).toContain('width: value is not a valid integer');
    expect(error.message).not.toContain('hunter2');
  });

  it('maps 5xx to UNAVAILABLE, retryable, quoting A1111 errors', async () => {
    fake.setScenario({
      kind: 'error',
      status: 500,
      body: { error: 'OutOfMemoryError', detail: '', body: '', errors: 'CUDA out of memory. Tried to allocate 2.00 GiB' },
    });
    const error = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 500, retryable: true });
    expect(error.message).toBe('The image provider failed (HTTP 500): CUDA out of memory. Tried to allocate 2.00 GiB');

    fake.setScenario({ kind: 'error', status: 429, retryAfter: 3 });
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'RATE_LIMITED',
      retryable: true,
      retryAfterSeconds: 3,
    });
  });

  it('explains a 404: an API that is not enabled, or a sampler the server lacks', async () => {
    const noApi = await failure(provider({ baseUrl: `${fake.url}/not-here` }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(noApi).toMatchObject({ code: 'UNAVAILABLE', status: 404, retryable: false });
    expect(noApi.message).toMatch(/--api/);
    const sampler = await failure(provider({ sampler: 'Imaginary' }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(sampler).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: false,
      message: 'The image provider refused the request (HTTP 404): Sampler not found',
    });
  });

  it('refuses malformed JSON, empty images, bad base64 and payloads that are not images', async () => {
    const cases: [Parameters<FakeA1111['setScenario']>[0], string][] = [
      [{ kind: 'raw', body: '{"images": ["iVBOR' }, 'The image provider sent a malformed response (not JSON)'],
      [{ kind: 'image', images: [] }, 'The image provider sent a response without an image'],
      [{ kind: 'image', images: [''] }, 'The image provider sent a response without an image'],
      [{ kind: 'raw', body: '{"detail": "queued"}' }, 'The image provider sent a response without an image'],
      [{ kind: 'image', images: ['%%% not base64 %%%'] }, 'not valid base64'],
      [
        { kind: 'image', images: [Buffer.from('GIF89a but not really').toString('base64')] },
        'The image provider sent something that is not an image',
      ],
    ];
    for (const [scenario, message] of cases) {
      fake.setScenario(scenario);
      const error = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
      expect(error).toMatchObject({ code: 'UNAVAILABLE', retryable: true });
      expect(error.message).toContain(message);
    }
  });

  it('maps an unreachable server to UNAVAILABLE, retryable', async () => {
    const closed = await startSilentServer();
    await closed.close();
    const error = await failure(provider({ baseUrl: `http://127.0.0.1:${closed.port}` }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', retryable: true, message: 'The image provider could not be reached' });
  });

  it('turns credentials in the URL into basic auth', async () => {
    const url = new URL(fake.url);
    url.username = 'painter';
    url.password = 'hunter2-secret';
    const sd = new A1111Provider({ baseUrl: `${url.toString()}sdapi/v1/`, progressIntervalMs: 10 });
    expect(sd.config.baseUrl).toBe(fake.url);
    await sd.generate({ prompt: 'A cat', settings: DEFAULTS });
    expect(fake.lastTxt2img()!.headers.authorization).toBe(`Basic ${Buffer.from(AUTH).toString('base64')}`);
  });
});

describe('readA1111Config', () => {
  it('is off without A1111_URL', () => {
    expect(readA1111Config({})).toBeNull();
    expect(readA1111Config({ A1111_AUTH: 'a:b', A1111_URL: '  ' })).toBeNull();
  });

  it('reads the defaults', () => {
    expect(readA1111Config({ A1111_URL: 'http://127.0.0.1:7860/' })).toEqual({
      baseUrl: 'http://127.0.0.1:7860',
      auth: null,
      model: null,
      negativePrompt: 'lowres, blurry, watermark, text',
      sampler: 'DPM++ 2M',
      progressIntervalMs: 500,
      connectTimeoutMs: 30_000,
      totalTimeoutMs: 600_000,
    });
  });

  it('reads every variable and names bad ones', () => {
    expect(
      readA1111Config({
        A1111_URL: 'https://sd.example.com/forge/sdapi/v1',
        A1111_AUTH: 'user:pa:ss',
        A1111_MODEL: 'sd_xl_base_1.0',
        A1111_NEGATIVE_PROMPT: '',
        A1111_SAMPLER: 'Euler a',
        A1111_TIMEOUT_MS: '120000',
      }),
    ).toEqual({
      baseUrl: 'https://sd.example.com/forge',
      auth: 'user:pa:ss',
      model: 'sd_xl_base_1.0',
      negativePrompt: '',
      sampler: 'Euler a',
      progressIntervalMs: 500,
      connectTimeoutMs: 30_000,
      totalTimeoutMs: 120_000,
    });
    expect(readA1111Config({ A1111_URL: 'http://me:secret@gpu-box:7860' })).toMatchObject({
      baseUrl: 'http://gpu-box:7860',
      auth: 'me:secret',
    });
    expect(() => readA1111Config({ A1111_URL: 'gpu-box:7860' })).toThrow(/A1111_URL/);
    expect(() => readA1111Config({ A1111_URL: 'http://gpu-box:7860', A1111_AUTH: 'nopassword' })).toThrow(/A1111_AUTH/);
    expect(() => readA1111Config({ A1111_URL: 'http://gpu-box:7860', A1111_TIMEOUT_MS: '-5' })).toThrow(/A1111_TIMEOUT_MS/);
  });
});
