import sharp from 'sharp';
import type { ImageSettings } from '@app/schema';
import { ImageProviderError } from '../src/providers/image-provider';
import { ImageProviderHttpError } from '../src/providers/http-provider-util';
import { OpenAiImagesProvider, type OpenAiImagesOptions, readOpenAiImagesConfig } from '../src/providers/openai-images.provider';
import { type FakeOpenAiImages, imageErrors, startFakeOpenAiImages, startSilentServer } from './fake-openai-images-server';

jest.setTimeout(15_000);

const KEY = 'sk-test-images-secret-0123456789';
const DEFAULTS: ImageSettings = { size: '1024x1024', quality: 'standard', style: 'vivid' };

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(promise: Promise<unknown>): Promise<ImageProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ImageProviderError);
    return error as ImageProviderError;
  }
  throw new Error('expected the call to fail');
}

describe('OpenAiImagesProvider against a local OpenAI Images server', () => {
  let png: Buffer;
  let fake: FakeOpenAiImages;

  beforeAll(async () => {
    png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    fake = await startFakeOpenAiImages({ image: png, apiKey: KEY });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.setScenario({ kind: 'image' }));

  const provider = (options: Partial<OpenAiImagesOptions> = {}) =>
    new OpenAiImagesProvider({ baseUrl: fake.url, apiKey: KEY, connectTimeoutMs: 300, totalTimeoutMs: 2_000, ...options });

  it('sends the dall-e-3 options unchanged with the key and returns the picture and the revised prompt', async () => {
    const onProgress = jest.fn();
    const dalle = provider();
    expect(dalle).toMatchObject({ kind: 'openai-images', model: 'dall-e-3', isDemo: false });
    const result = await dalle.generate({
      prompt: 'A lighthouse at dusk',
      settings: { size: '1792x1024', quality: 'hd', style: 'natural' },
      onProgress,
    });
    expect(result.image.equals(png)).toBe(true);
    expect(result.model).toBe('dall-e-3');
    expect(result.revisedPrompt).toBe('An artistic rendering of: A lighthouse at dusk');
    const request = fake.lastGeneration()!;
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toEqual({
      model: 'dall-e-3',
      prompt: 'A lighthouse at dusk',
      n: 1,
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
      response_format: 'b64_json',
    });
    expect(onProgress).not.toHaveBeenCalled();
  });

  it.each([
    [{ size: '1792x1024', quality: 'hd', style: 'vivid' }, '1536x1024', 'high'],
    [{ size: '1024x1792', quality: 'standard', style: 'natural' }, '1024x1536', 'medium'],
    [{ size: '1024x1024', quality: 'standard', style: 'vivid' }, '1024x1024', 'medium'],
  ] as [ImageSettings, string, string][])(
    'maps %j to gpt-image-1 names (%s, %s) without style or response_format',
    async (settings, size, quality) => {
      const result = await provider({ model: 'gpt-image-1' }).generate({ prompt: 'A red fox', settings });
      expect(result).toEqual({ image: png, model: 'gpt-image-1' });
      expect(fake.lastGeneration()!.body).toEqual({ model: 'gpt-image-1', prompt: 'A red fox', n: 1, size, quality, output_format: 'png' });
    },
  );

  it('treats any gpt-image model the same way', async () => {
    await provider({ model: 'gpt-image-1-mini' }).generate({ prompt: 'A boat', settings: { ...DEFAULTS, quality: 'hd' } });
    expect(fake.lastGeneration()!.body).toMatchObject({ model: 'gpt-image-1-mini', quality: 'high' });
    expect(fake.lastGeneration()!.body).not.toHaveProperty('style');
  });

  it('downloads the picture when the answer carries a url instead of base64, without sending the key elsewhere', async () => {
    fake.setScenario({ kind: 'image', as: 'url', revisedPrompt: 'A calm sea' });
    // 'localhost' is another origin than the 127.0.0.1 download links: the key must stay home.
    const result = await provider({ baseUrl: fake.url.replace('127.0.0.1', 'localhost') }).generate({ prompt: 'Sea', settings: DEFAULTS });
    expect(result.image.equals(png)).toBe(true);
    expect(result.revisedPrompt).toBe('A calm sea');
    const download = fake.requests.at(-1)!;
    expect(download).toMatchObject({ method: 'GET', outcome: 'completed' });
    expect(download.path).toMatch(/^\/files\//);
    expect(download.headers.authorization).toBeUndefined();
  });

  it('reports a failed download as UNAVAILABLE and retryable', async () => {
    fake.setScenario({ kind: 'image', as: 'url', download: { status: 500 } });
    const error = await failure(provider().generate({ prompt: 'Sea', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', retryable: true, message: "The image provider's image link failed (HTTP 500)" });
  });

  it('maps a content policy refusal to CONTENT_REJECTED, final', async () => {
    fake.setScenario(imageErrors.contentPolicy());
    const error = await failure(provider().generate({ prompt: 'Something forbidden', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'CONTENT_REJECTED', status: 400, retryable: false });
    expect(error.message).toMatch(/content policy: Your request was rejected as a result of our safety system/);

    fake.setScenario(imageErrors.moderationBlocked());
    const blocked = await failure(provider({ model: 'gpt-image-1' }).generate({ prompt: 'Something forbidden', settings: DEFAULTS }));
    expect(blocked).toMatchObject({ code: 'CONTENT_REJECTED', retryable: false });
  });

  it("maps other 400s to VALIDATION_FAILED, quoting at most 300 characters of the provider's message without secrets", async () => {
    fake.setScenario({
      kind: 'error',
      status: 400,
      error: { message: `Bad prompt sent with ${KEY}: ${'x'.repeat(1000)}`, type: 'invalid_request_error', code: 'invalid_value' },
    });
    const error = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, retryable: false });
    expect(error.message).not.toContain(KEY);
    expect(error.message).toContain('[redacted]');
    expect(error.message.length).toBeLessThan(400);

    fake.setScenario({ kind: 'error', status: 422, error: { message: 'Unprocessable' } });
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'VALIDATION_FAILED',
      retryable: false,
    });
  });

  it('maps a refused key to UNAVAILABLE, final, without quoting the key', async () => {
    const wrongKey = 'sk-wrong-key-abcdef0123456789';
    const error = await failure(provider({ apiKey: wrongKey }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 401, retryable: false, message: 'The image provider refused the API key' });
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain(wrongKey);

    fake.setScenario({ kind: 'error', status: 403, error: { message: `Project key ${KEY} lacks access` } });
    const forbidden = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(forbidden).toMatchObject({
      code: 'UNAVAILABLE',
      status: 403,
      retryable: false,
      message: 'The image provider refused the API key',
    });
  });

  it('maps 429 to RATE_LIMITED, retryable, with the Retry-After seconds', async () => {
    fake.setScenario(imageErrors.rateLimited(7));
    const error = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toBeInstanceOf(ImageProviderHttpError);
    expect(error).toMatchObject({ code: 'RATE_LIMITED', status: 429, retryable: true, retryAfterSeconds: 7 });

    fake.setScenario(imageErrors.rateLimited());
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'RATE_LIMITED',
      retryAfterSeconds: undefined,
    });
  });

  it('treats an exhausted account as UNAVAILABLE and final rather than a retryable limit', async () => {
    fake.setScenario(imageErrors.billingLimit());
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: false,
    });
  });

  it('maps 5xx to UNAVAILABLE, retryable', async () => {
    fake.setScenario(imageErrors.serverError(500));
    const error = await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({ code: 'UNAVAILABLE', status: 500, retryable: true });
    expect(error.message).toMatch(/^The image provider failed \(HTTP 500\): The server had an error/);

    fake.setScenario({ kind: 'error', status: 502, rawBody: '<html><body>Bad gateway</body></html>', contentType: 'text/html' });
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'UNAVAILABLE',
      retryable: true,
      message: 'The image provider failed (HTTP 502)',
    });
  });

  it('refuses malformed JSON, answers without an image, bad base64 and payloads that are not images', async () => {
    const cases: [Parameters<FakeOpenAiImages['setScenario']>[0], string][] = [
      [{ kind: 'raw', body: '{"created": 1, "data": [{"b64_json": "iVBOR' }, 'The image provider sent a malformed response (not JSON)'],
      [{ kind: 'raw', body: '<!doctype html><html></html>', contentType: 'text/html' }, 'answered with a web page'],
      [{ kind: 'raw', body: '{"created": 1, "data": []}' }, 'The image provider sent a response without an image'],
      [{ kind: 'raw', body: '{"created": 1, "data": [{"revised_prompt": "x"}]}' }, 'The image provider sent a response without an image'],
      [{ kind: 'raw', body: '{"created": 1, "data": [{"b64_json": "not base64 at all!"}]}' }, 'not valid base64'],
      [
        { kind: 'image', image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
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

  it('lets a slow generation run past the connect limit once the request has reached the server', async () => {
    fake.setScenario({ kind: 'image', headersDelayMs: 600 });
    const result = await provider({ connectTimeoutMs: 150, totalTimeoutMs: 3_000 }).generate({ prompt: 'Slow', settings: DEFAULTS });
    expect(result.image.equals(png)).toBe(true);
  });

  it('gives up with TIMEOUT when the server cannot be reached within the connect limit', async () => {
    const silent = await startSilentServer();
    try {
      const started = Date.now();
      const error = await failure(
        provider({ baseUrl: `https://127.0.0.1:${silent.port}/v1`, connectTimeoutMs: 200 }).generate({
          prompt: 'A cat',
          settings: DEFAULTS,
        }),
      );
      expect(error).toMatchObject({ code: 'TIMEOUT', retryable: true, message: 'The image provider could not be reached within 200 ms' });
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await silent.close();
    }
  });

  it('gives up with TIMEOUT after the total limit, whether the answer never starts or stalls halfway', async () => {
    fake.setScenario({ kind: 'stall' });
    const error = await failure(provider({ totalTimeoutMs: 300 }).generate({ prompt: 'A cat', settings: DEFAULTS }));
    expect(error).toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
      message: 'The image provider did not deliver the image within 300 ms',
    });
    expect(await fake.lastGeneration()!.closed).toBe('client-closed');

    fake.setScenario({ kind: 'image', bodyStallMs: 2_000 });
    expect(await failure(provider({ totalTimeoutMs: 300 }).generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'TIMEOUT',
      retryable: true,
    });

    fake.setScenario({ kind: 'image', as: 'url', download: { delayMs: 2_000 } });
    expect(await failure(provider({ totalTimeoutMs: 300 }).generate({ prompt: 'A cat', settings: DEFAULTS }))).toMatchObject({
      code: 'TIMEOUT',
    });
  });

  it('stops the upstream request at once when the caller aborts', async () => {
    fake.setScenario({ kind: 'stall' });
    const controller = new AbortController();
    const pending = provider().generate({ prompt: 'A cat', settings: DEFAULTS, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    const error = await failure(pending);
    expect(error).toMatchObject({ code: 'CANCELLED', retryable: false });
    expect(await fake.lastGeneration()!.closed).toBe('client-closed');

    const before = fake.requests.length;
    expect(await failure(provider().generate({ prompt: 'A cat', settings: DEFAULTS, signal: AbortSignal.abort() }))).toMatchObject({
      code: 'CANCELLED',
    });
    expect(fake.requests.length).toBe(before);
  });

  it('maps an unreachable server to UNAVAILABLE, retryable', async () => {
    const closed = await startSilentServer();
    await closed.close();
    const error = await failure(
      provider({ baseUrl: `http://127.0.0.1:${closed.port}/v1` }).generate({ prompt: 'A cat', settings: DEFAULTS }),
    );
    expect(error).toMatchObject({ code: 'UNAVAILABLE', retryable: true, message: 'The image provider could not be reached' });
  });

  it('sends no Authorization header without a key (local servers)', async () => {
    const open = await startFakeOpenAiImages({ image: png });
    try {
      await new OpenAiImagesProvider({ baseUrl: `${open.url}/images/generations/`, apiKey: null }).generate({
        prompt: 'A cat',
        settings: DEFAULTS,
      });
      expect(open.lastGeneration()!.headers.authorization).toBeUndefined();
      expect(open.lastGeneration()!.path).toBe('/v1/images/generations');
    } finally {
      await open.close();
    }
  });
});

describe('readOpenAiImagesConfig', () => {
  it('is off unless chosen or configured', () => {
    expect(readOpenAiImagesConfig({})).toBeNull();
    expect(readOpenAiImagesConfig({ OPENAI_API_KEY: 'sk-chat-only' })).toBeNull();
    expect(readOpenAiImagesConfig({ IMAGE_PROVIDER: 'a1111', OPENAI_BASE_URL: 'http://x/v1' })).toBeNull();
  });

  it('reads the defaults and the shared OpenAI variables as fallbacks', () => {
    expect(readOpenAiImagesConfig({ IMAGE_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-shared' })).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      apiKey: 'sk-shared',
      model: 'dall-e-3',
      connectTimeoutMs: 30_000,
      totalTimeoutMs: 180_000,
    });
    expect(
      readOpenAiImagesConfig({
        OPENAI_IMAGES_API_KEY: 'sk-images',
        OPENAI_API_KEY: 'sk-shared',
        OPENAI_BASE_URL: 'https://proxy.example/v1/',
        OPENAI_IMAGES_MODEL: 'gpt-image-1',
        OPENAI_IMAGES_TIMEOUT_MS: '240000',
      }),
    ).toEqual({
      baseUrl: 'https://proxy.example/v1',
      apiKey: 'sk-images',
      model: 'gpt-image-1',
      connectTimeoutMs: 30_000,
      totalTimeoutMs: 240_000,
    });
  });

  it('needs no key for a local server but does for api.openai.com, and names bad variables', () => {
    expect(readOpenAiImagesConfig({ OPENAI_IMAGES_BASE_URL: 'http://127.0.0.1:8080/v1/images/generations' })).toMatchObject({
      baseUrl: 'http://127.0.0.1:8080/v1',
      apiKey: null,
    });
    expect(() => readOpenAiImagesConfig({ IMAGE_PROVIDER: 'openai' })).toThrow(/OPENAI_IMAGES_API_KEY/);
    expect(() => readOpenAiImagesConfig({ OPENAI_IMAGES_BASE_URL: 'ftp://x' })).toThrow(/OPENAI_IMAGES_BASE_URL/);
    expect(() => readOpenAiImagesConfig({ OPENAI_IMAGES_API_KEY: 'sk-x', OPENAI_IMAGES_TIMEOUT_MS: 'soon' })).toThrow(
      /OPENAI_IMAGES_TIMEOUT_MS/,
    );
  });
});
