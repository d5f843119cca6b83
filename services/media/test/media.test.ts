import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chatService } from '@app/chat';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { Infra, type ObjectStorage, openObjectStorage } from '@app/kit';
import { ADVANCED_IMAGE_SETTINGS, MEDIA_LIMITS, accountDataRpc } from '@app/schema';
import sharp from 'sharp';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { ImageProviderError, createMediaService } from '../src';
import { attemptImageId } from '../src/images/images.service';
import { startLocalS3 } from './local-s3';
import { ScriptedImageProvider } from './scripted-image-provider';

jest.setTimeout(90_000);

interface RestImage {
  id: string;
  imageUrl: string;
  prompt: string;
  model: string;
  isPublic: boolean;
  likes: number;
  likedByMe: boolean;
  createdAt: string;
  settings: {
    size: string;
    quality: string;
    style: string;
    negativePrompt?: string;
    seed?: number;
    steps?: number;
    cfgScale?: number;
    sampler?: string;
  };
  width: number;
  height: number;
  placeholder: string;
  renditions: { width: number; height: number; url: string }[];
  user?: { firstName: string | null; lastName: string | null; profileImageUrl: string | null } | null;
}
interface Job {
  id: string;
  status: string;
  progress: number | null;
  errorCode: string | null;
  image: { id: string; imageUrl: string } | null;
}

const JOB_FIELDS = 'id status progress errorCode errorMessage attempts image { id imageUrl prompt isPublic likes }';

/**
 * Each run mode with one storage driver: embedded on disk stores files under DATA_DIR (local driver);
 * distributed (PostgreSQL + NATS) stores them in S3 (a local S3-compatible server).
 */
const cases = testTargets().map((target) => [target.name, target, target.name.startsWith('embedded') ? 'local' : 's3'] as const);

describe.each(cases)('media on %s', (_name, target: TestTarget, driver) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  let infra: Infra;
  const provider = new ScriptedImageProvider();
  const cleanups: (() => Promise<void>)[] = [];
  /** The media service's store; writes to keys matching `failWrites` fail, as a full disk or a refusing bucket would. */
  let storage: ObjectStorage;
  let failWrites: RegExp | null = null;
  const written: string[] = [];
  const imageFiles = (imageId: string) =>
    ['original.png', 'w256.webp', 'w512.webp', 'w1024.webp'].map((file) => `images/${imageId}/${file}`);
  const storedFiles = async (imageId: string) => {
    const present = await Promise.all(imageFiles(imageId).map((key) => storage.exists(key)));
    return imageFiles(imageId).filter((_key, index) => present[index]);
  };

  beforeAll(async () => {
    const created = await target.create();
    cleanups.push(created.cleanup);
    let settings = created.infra.settings;
    const env: NodeJS.ProcessEnv = {
      SIGNUPS_PER_IP_PER_HOUR: '1000',
      MEDIA_GENERATIONS_PER_MINUTE: '100',
      MEDIA_ACTIVE_JOBS_PER_MEMBER: '50',
      MEDIA_GENERATIONS_PER_IP_PER_MINUTE: '1000',
    };
    if (driver === 'local') {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-'));
      settings = { ...settings, dataDir: dir };
      cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    } else {
      const s3 = await startLocalS3();
      cleanups.push(s3.stop);
      Object.assign(env, {
        S3_BUCKET: s3.config.bucket,
        S3_ENDPOINT: s3.config.endpoint,
        S3_REGION: s3.config.region,
        S3_ACCESS_KEY_ID: s3.config.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      });
    }
    // The platform and the test share one Infra: the S3 settings come from `env`.
    infra = Infra.from(settings, env);
    storage = openObjectStorage(infra);
    const flaky: ObjectStorage = {
      driver: storage.driver,
      direct: storage.direct,
      ensureReady: () => storage.ensureReady(),
      put: (key, body, type) => {
        written.push(key);
        return failWrites?.test(key) ? Promise.reject(new Error('The store refused the write')) : storage.put(key, body, type);
      },
      get: (key) => storage.get(key),
      openStream: (key) => storage.openStream(key),
      exists: (key) => storage.exists(key),
      delete: (key) => storage.delete(key),
      putStream: (key, body, maxBytes, options) => storage.putStream(key, body, maxBytes, options),
      list: (prefix) => storage.list(prefix),
    };
    platform = await startEmbedded({
      infra,
      gateway: { port: 0 },
      env,
      services: [
        identityService,
        chatService,
        createMediaService({
          provider,
          storage: flaky,
          sweepIntervalMs: 200,
          pollIntervalMs: 100,
          jobLeaseMs: 1_500,
          retryDelayMs: 50,
        }),
      ],
    });
    cleanup = async () => {
      await platform?.stop();
      for (const step of cleanups.reverse()) await step();
    };
  });
  afterAll(() => cleanup?.());
  beforeEach(() => {
    failWrites = null;
    provider.answers = [];
    provider.fallback = { steps: 3, stepDelayMs: 10 };
    provider.advanced = ADVANCED_IMAGE_SETTINGS;
  });

  const mediaDb = () => platform.services.find((service) => service.name === 'media')!.db;
  const identityDb = () => platform.services.find((service) => service.name === 'identity')!.db;

  async function member(firstName = 'Ada', lastName = 'Lovelace'): Promise<TestClient> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration({ firstName, lastName }) });
    expect(response.status).toBe(201);
    return client;
  }
  const me = async (client: TestClient) => (await (await client.fetch('/api/user')).json()) as { id: string; tokens: number };
  const balance = async (client: TestClient) => (await me(client)).tokens;

  async function generate(client: TestClient, body: Record<string, unknown>): Promise<RestImage> {
    const response = await client.fetch('/api/generate/image', { method: 'POST', json: body });
    const json = (await response.json()) as RestImage & { message?: string };
    expect({ status: response.status, message: json.message }).toEqual({ status: 201, message: undefined });
    return json;
  }

  describe('generation over /api', () => {
    it('waits for the job and returns the stored image; 1 token is charged; files are served to the owner only', async () => {
      const alice = await member();
      expect(await balance(alice)).toBe(15);
      const image = await generate(alice, { prompt: '  A Lighthouse in the Fog  ' });
      expect(image).toMatchObject({
        prompt: 'A Lighthouse in the Fog',
        model: 'scripted-model',
        isPublic: false,
        likes: 0,
        settings: { size: '1024x1024', quality: 'standard', style: 'vivid' },
        width: 1024,
        height: 1024,
        imageUrl: `/api/media/images/${image.id}/original.png`,
      });
      expect(image.placeholder.length).toBeGreaterThan(10);
      expect(image.renditions.map((rendition) => rendition.width)).toEqual([256, 512, 1024]);
      expect(await balance(alice)).toBe(14);

      const original = await alice.fetch(image.imageUrl);
      expect(original.status).toBe(200);
      expect(original.headers.get('content-type')).toBe('image/png');
      expect(original.headers.get('cache-control')).toContain('private');
      const originalBytes = Buffer.from(await original.arrayBuffer());
      expect(Number(original.headers.get('content-length'))).toBe(originalBytes.length);
      // A revalidation with the ETag is answered 304 with no body; HEAD gives the headers alone.
      const revalidated = await alice.fetch(image.imageUrl, { headers: { 'if-none-match': original.headers.get('etag')! } });
      expect(revalidated.status).toBe(304);
      expect((await revalidated.arrayBuffer()).byteLength).toBe(0);
      const head = await alice.fetch(image.imageUrl, { method: 'HEAD' });
      expect({ status: head.status, length: Number(head.headers.get('content-length')) }).toEqual({
        status: 200,
        length: originalBytes.length,
      });
      const metadata = await sharp(originalBytes).metadata();
      expect({ format: metadata.format, width: metadata.width, height: metadata.height }).toEqual({
        format: 'png',
        width: 1024,
        height: 1024,
      });
      const small = await alice.fetch(image.renditions[0]!.url);
      expect(small.headers.get('content-type')).toBe('image/webp');
      expect((await sharp(Buffer.from(await small.arrayBuffer())).metadata()).width).toBe(256);
      const download = await alice.fetch(`${image.imageUrl}?download`);
      expect(download.headers.get('content-disposition')).toContain(encodeURIComponent('A Lighthouse in the Fog.png'));

      const stranger = await member('Eve');
      expect((await stranger.fetch(image.imageUrl)).status).toBe(404);
      expect((await new TestClient(platform.url).fetch(image.imageUrl)).status).toBe(404);
      expect((await stranger.fetch(`/api/images/${image.id}`)).status).toBe(404);
      const list = (await (await alice.fetch('/api/images')).json()) as RestImage[];
      expect(list.map((entry) => entry.id)).toEqual([image.id]);
      expect((await (await stranger.fetch('/api/images')).json()) as RestImage[]).toEqual([]);
    });

    it('refuses bad input with clear errors and charges nothing', async () => {
      const bob = await member();
      const cases: [Record<string, unknown>, string][] = [
        [{ prompt: '   ' }, 'Please enter a description for your image.'],
        [{}, 'Please enter a description for your image.'],
        [{ prompt: 'ok', size: '512x512' }, 'Size must be one of 1024x1024, 1792x1024, 1024x1792'],
        [{ prompt: 'ok', quality: 'ultra' }, 'Quality must be one of standard, hd'],
        [{ prompt: 'ok', style: 'noir' }, 'Style must be one of vivid, natural'],
        [{ prompt: 'x'.repeat(4001) }, 'A prompt must be at most 4000 characters'],
      ];
      for (const [body, message] of cases) {
        const response = await bob.fetch('/api/generate/image', { method: 'POST', json: body });
        expect({ status: response.status, body: await response.json() }).toMatchObject({
          status: 400,
          body: { code: 'VALIDATION_FAILED', message },
        });
      }
      expect((await bob.fetch('/api/images/not-an-id')).status).toBe(404);
      expect((await bob.fetch('/api/media/images/not-an-id/original.png')).status).toBe(404);
      expect((await bob.fetch(`/api/media/images/${randomUUID()}/w999.webp`)).status).toBe(404);
      const tooMany = await bob.graphql('{ publicImages(first: 500) { nodes { id } } }');
      expect(tooMany.errors?.[0]?.message).toBe('first must be between 1 and 100');
      const badEnum = await bob.graphql('mutation { generateImage(input: { prompt: "x", size: HUGE }) { id } }');
      expect(badEnum.errors?.[0]?.message).toContain('ImageSize');
      const rejected = await bob.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'a nude 15 year old girl' } });
      expect(rejected.status).toBe(422);
      expect((await new TestClient(platform.url).fetch('/api/generate/image', { method: 'POST', json: { prompt: 'x' } })).status).toBe(401);
      expect(await balance(bob)).toBe(15);
    });

    it('honours the size, quality and style options', async () => {
      const carol = await member();
      const image = await generate(carol, { prompt: 'Dunes', size: '1792x1024', quality: 'hd', style: 'natural' });
      expect(image).toMatchObject({ width: 1792, height: 1024, settings: { size: '1792x1024', quality: 'hd', style: 'natural' } });
      expect(provider.calls.at(-1)!.settings).toEqual({ size: '1792x1024', quality: 'hd', style: 'natural' });
      expect(image.renditions.map((rendition) => [rendition.width, rendition.height])).toEqual([
        [256, 146],
        [512, 293],
        [1024, 585],
      ]);
    });

    it('stores the advanced settings on the job and the image, with the seed the provider drew, and exports them', async () => {
      const erin = await member();
      const advanced = { negativePrompt: '  people, text  ', seed: 31337, steps: 12, cfgScale: 5.5, sampler: 'Euler a' };
      const image = await generate(erin, { prompt: 'Harbour at dawn', ...advanced });
      const stored = { size: '1024x1024', quality: 'standard', style: 'vivid', ...advanced, negativePrompt: 'people, text' };
      expect(image.settings).toEqual(stored);
      expect(provider.calls.at(-1)!.settings).toEqual(stored);

      // No seed asked for: the one the provider drew is recorded, so "use these settings" repeats the picture.
      const drawn = await generate(erin, { prompt: 'Harbour at dusk', steps: 30, seed: null });
      expect(drawn.settings).toEqual({ size: '1024x1024', quality: 'standard', style: 'vivid', steps: 30, seed: provider.drawnSeed });

      const query = `query($id: ID!) { image(id: $id) { settings { size negativePrompt seed steps cfgScale sampler } } }`;
      const read = await erin.graphql<{ image: { settings: Record<string, unknown> } }>(query, { id: drawn.id });
      expect(read.data?.image.settings).toEqual({
        size: 'SQUARE',
        negativePrompt: null,
        seed: provider.drawnSeed,
        steps: 30,
        cfgScale: null,
        sampler: null,
      });

      const mutation = `mutation($input: GenerateImageInput!) { generateImage(input: $input) {
        id settings { negativePrompt seed steps cfgScale sampler } } }`;
      const queued = await erin.graphql<{ generateImage: { id: string; settings: Record<string, unknown> } }>(mutation, {
        input: { prompt: 'Lighthouse', negativePrompt: 'fog', seed: 7, steps: 150, cfgScale: 1, sampler: 'DPM++ 2M' },
      });
      expect(queued.errors).toBeUndefined();
      // The job keeps what was asked; the image what was drawn.
      expect(queued.data?.generateImage.settings).toEqual({ negativePrompt: 'fog', seed: 7, steps: 150, cfgScale: 1, sampler: 'DPM++ 2M' });
      const jobId = queued.data!.generateImage.id;
      let finished: { status: string; image: { settings: Record<string, unknown> } | null } | undefined;
      await eventually(async () => {
        const job = await erin.graphql<{ generation: NonNullable<typeof finished> }>(
          `query($id: ID!) { generation(id: $id) { status image { settings { seed steps sampler } } } }`,
          { id: jobId },
        );
        finished = job.data?.generation;
        expect(finished?.status).toBe('DONE');
      });
      expect(finished?.image?.settings).toEqual({ seed: 7, steps: 150, sampler: 'DPM++ 2M' });

      // The member's export carries them, on images and on jobs.
      const { id: userId } = await me(erin);
      const exported = async (part: 'images' | 'generations') =>
        (await platform.bus.request(accountDataRpc.exportMedia, { userId, part, after: null, limit: 10 })).rows.map(
          (row) => (row as { advanced: unknown }).advanced,
        );
      expect(await exported('images')).toEqual(
        expect.arrayContaining([
          { seed: provider.drawnSeed, steps: 30 },
          { ...advanced, negativePrompt: 'people, text' },
        ]),
      );
      expect(await exported('generations')).toEqual(
        expect.arrayContaining([{ steps: 30 }, { ...advanced, negativePrompt: 'people, text' }]),
      );
    });

    it('refuses advanced settings out of range, or that the provider does not honour, on both paths, and charges nothing', async () => {
      const fay = await member();
      // The last element: whether GraphQL's own types refuse it first (Int is whole and 32-bit), as BAD_USER_INPUT.
      const outOfRange: [Record<string, unknown>, string, boolean?][] = [
        [{ steps: 0 }, `Steps must be between ${MEDIA_LIMITS.stepsMin} and ${MEDIA_LIMITS.stepsMax}`],
        [{ steps: 151 }, 'Steps must be between 1 and 150'],
        [{ steps: 2.5 }, 'Steps must be a whole number', true],
        [{ cfgScale: 0.5 }, 'CFG scale must be between 1 and 30'],
        [{ cfgScale: 31 }, 'CFG scale must be between 1 and 30'],
        [{ seed: -1 }, 'Seed must be 0 or more'],
        [{ seed: MEDIA_LIMITS.seedMax + 1 }, `Seed must be at most ${MEDIA_LIMITS.seedMax}`, true],
        [{ negativePrompt: 'x'.repeat(2001) }, 'A negative prompt must be at most 2000 characters'],
        [{ sampler: 'Warp Drive' }, 'This image provider has no sampler named "Warp Drive"'],
      ];
      const mutation = `mutation($input: GenerateImageInput!) { generateImage(input: $input) { id } }`;
      for (const [settings, message, notAnInt] of outOfRange) {
        const response = await fay.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'ok', ...settings } });
        expect({ settings, status: response.status, body: await response.json() }).toMatchObject({
          settings,
          status: 400,
          body: { code: 'VALIDATION_FAILED', message, fieldErrors: { [Object.keys(settings)[0]!]: message } },
        });
        const viaGraphql = await fay.graphql(mutation, { input: { prompt: 'ok', ...settings } });
        expect({ settings, error: viaGraphql.errors?.[0] }).toMatchObject({
          settings,
          error: notAnInt ? { extensions: { code: 'BAD_USER_INPUT' } } : { message, extensions: { code: 'VALIDATION_FAILED' } },
        });
      }

      // The negative prompt steers the picture and is published with it: the hard content lines apply to it too.
      const crossing = await fay.fetch('/api/generate/image', {
        method: 'POST',
        json: { prompt: 'ok', negativePrompt: 'nude schoolgirl' },
      });
      expect({ status: crossing.status, body: await crossing.json() }).toMatchObject({ status: 422, body: { code: 'CONTENT_REJECTED' } });
      const crossingViaGraphql = await fay.graphql(mutation, { input: { prompt: 'ok', negativePrompt: 'nude schoolgirl' } });
      expect(crossingViaGraphql.errors?.[0]).toMatchObject({ extensions: { code: 'CONTENT_REJECTED', policyCategory: 'minors' } });

      // A provider that honours only the seed (as the demo renderer does) refuses the others by name.
      provider.advanced = ['seed'];
      const info = await fay.graphql<{ imageProvider: Record<string, unknown> }>('{ imageProvider { advanced samplers source server } }');
      expect(info.data?.imageProvider).toEqual({ advanced: ['seed'], samplers: [], source: 'configured', server: null });
      const unsupported: [Record<string, unknown>, string][] = [
        [{ steps: 20 }, 'This image provider does not support steps'],
        [{ negativePrompt: 'blur' }, 'This image provider does not support a negative prompt'],
        [{ cfgScale: 7 }, 'This image provider does not support CFG scale'],
        [{ sampler: 'Euler a' }, 'This image provider does not support a sampler'],
      ];
      for (const [settings, message] of unsupported) {
        const response = await fay.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'ok', seed: 5, ...settings } });
        expect({ status: response.status, body: await response.json() }).toMatchObject({
          status: 400,
          body: { code: 'VALIDATION_FAILED', message },
        });
        const viaGraphql = await fay.graphql(mutation, { input: { prompt: 'ok', ...settings } });
        expect(viaGraphql.errors?.[0]).toMatchObject({ message, extensions: { code: 'VALIDATION_FAILED' } });
      }
      const seeded = await generate(fay, { prompt: 'Only a seed', seed: 5, steps: null });
      expect(seeded.settings).toEqual({ size: '1024x1024', quality: 'standard', style: 'vivid', seed: 5 });
      expect(await balance(fay)).toBe(14);
    });

    it('tells members what the provider honours and which samplers it offers', async () => {
      const gus = await member();
      const info = await gus.graphql<{ imageProvider: Record<string, unknown> }>(
        '{ imageProvider { kind model isDemo advanced samplers source server } }',
      );
      expect(info.data?.imageProvider).toEqual({
        kind: 'A1111',
        model: 'scripted-model',
        isDemo: false,
        advanced: [...ADVANCED_IMAGE_SETTINGS],
        samplers: provider.samplerNames,
        source: 'configured',
        server: null,
      });
    });

    it('counts toward the free plan: the fourth image in a month is refused and not charged', async () => {
      const dan = await member();
      for (let i = 0; i < 3; i++) await generate(dan, { prompt: `Quota ${i}` });
      const fourth = await dan.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'Quota 4' } });
      expect(fourth.status).toBe(429);
      expect(((await fourth.json()) as { code: string }).code).toBe('QUOTA_EXCEEDED');
      expect(await balance(dan)).toBe(12);
    });

    it('20 concurrent generations by a member with 3 tokens: exactly 3 succeed and the balance ends at 0', async () => {
      const erin = await member();
      await identityDb().execute(`UPDATE "identity"."users" SET "token_balance" = 3 WHERE "id" = $1`, [(await me(erin)).id]);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => erin.fetch('/api/generate/image', { method: 'POST', json: { prompt: `Race ${i}` } })),
      );
      const outcomes = await Promise.all(
        responses.map(async (response) => (response.status === 201 ? 'created' : ((await response.json()) as { code: string }).code)),
      );
      expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(3);
      // The 3 tokens are also the free plan's 3 images: whichever runs out first refuses the rest.
      expect(
        outcomes.filter((outcome) => outcome !== 'created').every((code) => ['INSUFFICIENT_TOKENS', 'QUOTA_EXCEEDED'].includes(code)),
      ).toBe(true);
      expect(await balance(erin)).toBe(0);
      expect((await (await erin.fetch('/api/images')).json()) as unknown[]).toHaveLength(3);
    });
  });

  describe('jobs', () => {
    it('pushes queued → running with progress → storing → done over the generationUpdates subscription', async () => {
      const fay = await member();
      provider.answers = [{ steps: 5, stepDelayMs: 120 }];
      const ws = fay.subscriptions();
      const updates = collect<{ generationUpdates: Job }>(ws, `subscription { generationUpdates { ${JOB_FIELDS} } }`, 1000);
      updates.done.catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = await fay.graphql<{ generateImage: Job }>(
        `mutation($input: GenerateImageInput!) { generateImage(input: $input) { ${JOB_FIELDS} } }`,
        { input: { prompt: 'Progress please', size: 'PORTRAIT' } },
      );
      expect(started.errors).toBeUndefined();
      expect(started.data!.generateImage.status).toBe('QUEUED');
      const jobId = started.data!.generateImage.id;
      await eventually(() => expect(updates.values.at(-1)?.generationUpdates.status).toBe('DONE'), 15_000);
      const seen = updates.values.map((value) => value.generationUpdates).filter((job) => job.id === jobId);
      const statuses = [...new Set(seen.map((job) => job.status))];
      expect(statuses).toEqual(['QUEUED', 'RUNNING', 'STORING', 'DONE']);
      const progress = seen.filter((job) => job.status === 'RUNNING' && job.progress !== null).map((job) => job.progress!);
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect([...progress].sort((a, b) => a - b)).toEqual(progress);
      expect(seen.at(-1)!.image).toMatchObject({ prompt: 'Progress please', isPublic: false, likes: 0 });
      updates.stop();
      await ws.dispose();

      const read = await fay.graphql<{ generation: Job }>(`query($id: ID!) { generation(id: $id) { ${JOB_FIELDS} } }`, { id: jobId });
      expect(read.data!.generation.status).toBe('DONE');
      const stranger = await member();
      const hidden = await stranger.graphql(`query($id: ID!) { generation(id: $id) { id } }`, { id: jobId });
      expect(hidden.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    });

    it('a member cancels a running job: it ends cancelled and the token comes back', async () => {
      const gus = await member();
      provider.answers = [{ steps: 50, stepDelayMs: 100 }];
      const started = provider.started();
      const response = await gus.fetch('/api/generations', { method: 'POST', json: { prompt: 'Slow one' } });
      expect(response.status).toBe(202);
      const job = (await response.json()) as Job;
      await started;
      expect(await balance(gus)).toBe(14);
      const cancelled = (await (await gus.fetch(`/api/generations/${job.id}`, { method: 'DELETE' })).json()) as Job;
      expect(cancelled.status).toBe('cancelled');
      await eventually(async () => expect(await balance(gus)).toBe(15));
      expect((await (await gus.fetch('/api/images')).json()) as unknown[]).toEqual([]);
    });

    it('retries a retryable provider failure, and fails with one refund when the provider refuses', async () => {
      const hal = await member();
      provider.answers = [{ steps: 1, fail: new ImageProviderError('UNAVAILABLE', 'upstream 502', 502, true) }, { steps: 1 }];
      await generate(hal, { prompt: 'Second time lucky' });
      expect(await balance(hal)).toBe(14);

      provider.answers = [{ steps: 1, fail: new ImageProviderError('CONTENT_REJECTED', 'The image provider refused this prompt', 400) }];
      const refused = await hal.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'Refused upstream' } });
      expect(refused.status).toBe(422);
      expect(((await refused.json()) as { message: string }).message).toBe('The image provider refused this prompt');
      await eventually(async () => expect(await balance(hal)).toBe(14));

      provider.answers = [
        { steps: 1, fail: new ImageProviderError('UNAVAILABLE', 'down', 503, true) },
        { steps: 1, fail: new ImageProviderError('UNAVAILABLE', 'still down', 503, true) },
      ];
      const failed = await hal.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'Never works' } });
      expect(failed.status).toBe(503);
      expect(((await failed.json()) as { message: string }).message).toBe('Failed to generate image. Please try again.');
      await eventually(async () => expect(await balance(hal)).toBe(14));
      const [row] = await mediaDb().query<{ status: string; attempts: number; refund_due: boolean }>(
        `SELECT "status", "attempts", "refund_due" FROM "media"."generation_jobs" WHERE "prompt" = 'Never works'`,
      );
      expect(row).toEqual({ status: 'failed', attempts: 2, refund_due: false });
    });

    it('a job whose lease expires (its instance died) is taken back by the sweeper and completed', async () => {
      const ivy = await member();
      const id = randomUUID();
      // A job leased by an instance that no longer exists.
      const userId = (await me(ivy)).id;
      await mediaDb().execute(
        `INSERT INTO "media"."generation_jobs" ("id", "user_id", "status", "prompt", "size", "quality", "style", "provider", "model", "is_demo",
           "debit_key", "attempts", "lease_owner", "lease_expires_at")
         VALUES ($1, $2, 'running', 'Orphaned', '1024x1024', 'standard', 'vivid', 'scripted', 'scripted-model', false, $3, 1, 'media-gone', now() - interval '1 second')`,
        [id, userId, `image-generation:${id}`],
      );
      // It died while storing its first attempt: half of that attempt's files are there.
      const stale = Buffer.from('half-written');
      const firstAttempt = attemptImageId(id, 1);
      await storage.put(`images/${firstAttempt}/original.png`, stale, 'image/png');
      await storage.put(`images/${firstAttempt}/w1024.webp`, stale, 'image/webp');
      let job: Job | null = null;
      await eventually(async () => {
        job = (await (await ivy.fetch(`/api/generations/${id}`)).json()) as Job;
        expect(job.status).toBe('done');
      }, 15_000);
      // The second attempt stored its image under its own id and removed what the first one left.
      const imageId = job!.image!.id;
      expect(imageId).toBe(attemptImageId(id, 2));
      expect(await storedFiles(imageId)).toEqual(imageFiles(imageId));
      expect((await sharp((await storage.get(`images/${imageId}/original.png`))!.body).metadata()).width).toBe(1024);
      expect(await storedFiles(firstAttempt)).toEqual([]);
    });

    it('a job that ends without an image, cancelled while queued or failed by the sweeper, leaves no files of its attempts', async () => {
      const kay = await member();
      const userId = (await me(kay)).id;
      const [queued, swept] = [randomUUID(), randomUUID()];
      const insertJob = (id: string, status: string, attempts: number, extra: string) =>
        mediaDb().execute(
          `INSERT INTO "media"."generation_jobs" ("id", "user_id", "status", "prompt", "size", "quality", "style", "provider", "model", "is_demo",
             "debit_key", "attempts", "lease_owner", "lease_expires_at", "available_at")
           VALUES ($1, $2, $3, 'Ends empty', '1024x1024', 'standard', 'vivid', 'scripted', 'scripted-model', false, $4, $5, ${extra})`,
          [id, userId, status, `image-generation:${id}`, attempts],
        );
      // The files dead attempts left come first: the sweeper may take the job back as soon as its row exists.
      const leftovers = [attemptImageId(queued, 1), attemptImageId(swept, 1), attemptImageId(swept, 2)];
      for (const imageId of leftovers) await storage.put(`images/${imageId}/original.png`, Buffer.from('half-written'), 'image/png');
      // Queued again after a first attempt that died while storing, not due for a minute.
      await insertJob(queued, 'queued', 1, `NULL, NULL, now() + interval '1 minute'`);
      // On its last attempt, on an instance that is gone.
      await insertJob(swept, 'running', 2, `'media-gone', now() - interval '1 second', now()`);

      const cancelled = (await (await kay.fetch(`/api/generations/${queued}`, { method: 'DELETE' })).json()) as Job;
      expect(cancelled.status).toBe('cancelled');
      await eventually(
        async () => expect(((await (await kay.fetch(`/api/generations/${swept}`)).json()) as Job).status).toBe('failed'),
        15_000,
      );
      // Files go right after the ending commits (the member sees the status first).
      await eventually(async () => {
        for (const imageId of leftovers) expect(await storedFiles(imageId)).toEqual([]);
      }, 5_000);
    });

    it('a job whose files cannot all be stored fails, is refunded, and leaves no file behind', async () => {
      const jo = await member();
      failWrites = /\/w1024\.webp$/;
      written.length = 0;
      const failed = await jo.fetch('/api/generate/image', { method: 'POST', json: { prompt: 'Nowhere to put it' } });
      expect(failed.status).toBe(503);
      const [row] = await mediaDb().query<{ id: string; status: string }>(
        `SELECT "id", "status" FROM "media"."generation_jobs" WHERE "prompt" = 'Nowhere to put it'`,
      );
      expect(row?.status).toBe('failed');
      // The original and the smaller renditions were written before the last one failed; all of them are gone.
      const attempt = attemptImageId(row!.id, 1);
      expect(written).toEqual(expect.arrayContaining(imageFiles(attempt)));
      expect(await storedFiles(attempt)).toEqual([]);
      await eventually(async () => expect(await balance(jo)).toBe(15));
    });
  });

  describe('gallery', () => {
    it('new images are private; the owner publishes; others see the creator, like once, and cannot change visibility', async () => {
      const owner = await member('Nora', 'Quill');
      const image = await generate(owner, { prompt: 'A Quiet Harbour at Dawn' });
      const viewer = await member('Otto');
      const publicIds = async (client: TestClient) =>
        ((await (await client.fetch('/api/images/public?search=quiet harbour')).json()) as RestImage[]).map((entry) => entry.id);
      expect(await publicIds(viewer)).toEqual([]);
      expect((await viewer.fetch(`/api/images/${image.id}/like`, { method: 'POST' })).status).toBe(404);
      expect((await viewer.fetch(`/api/images/${image.id}/visibility`, { method: 'PUT', json: { isPublic: true } })).status).toBe(404);

      const bad = await owner.fetch(`/api/images/${image.id}/visibility`, { method: 'PUT', json: { isPublic: 'yes' } });
      expect(bad.status).toBe(400);
      // Rated safe, so visitors (who see safe only) and shared caches may have it too.
      const published = await owner.fetch(`/api/images/${image.id}/visibility`, {
        method: 'PUT',
        json: { isPublic: true, rating: 'safe' },
      });
      expect(((await published.json()) as RestImage).isPublic).toBe(true);
      expect(await publicIds(viewer)).toEqual([image.id]);
      const [shown] = (await (await viewer.fetch('/api/images/public?search=QUIET HARBOUR')).json()) as RestImage[];
      expect(shown!.user).toEqual({ firstName: 'Nora', lastName: 'Quill', profileImageUrl: null });
      expect((await viewer.fetch(image.imageUrl)).headers.get('cache-control')).toContain('public');
      expect((await new TestClient(platform.url).fetch(image.imageUrl)).status).toBe(200);
      expect((await viewer.fetch(`/api/images/${image.id}/visibility`, { method: 'PUT', json: { isPublic: false } })).status).toBe(403);

      const first = (await (await viewer.fetch(`/api/images/${image.id}/like`, { method: 'POST' })).json()) as RestImage;
      const second = (await (await viewer.fetch(`/api/images/${image.id}/like`, { method: 'POST' })).json()) as RestImage;
      expect([first.likes, second.likes, second.likedByMe]).toEqual([1, 1, true]);
      const others = await Promise.all(Array.from({ length: 6 }, () => member()));
      await Promise.all(others.flatMap((client) => [1, 2].map(() => client.fetch(`/api/images/${image.id}/like`, { method: 'POST' }))));
      const liked = (await (await owner.fetch(`/api/images/${image.id}`)).json()) as RestImage;
      expect(liked.likes).toBe(7);
      const unliked = (await (await viewer.fetch(`/api/images/${image.id}/like`, { method: 'DELETE' })).json()) as RestImage;
      expect([unliked.likes, unliked.likedByMe]).toEqual([6, false]);

      // The owner's dashboard counts the image, the public image and the likes, from media events.
      await eventually(async () => {
        const stats = (await (await owner.fetch('/api/dashboard/stats')).json()) as Record<string, number>;
        expect(stats).toMatchObject({ imagesGenerated: 1, publicImages: 1, totalLikes: 6 });
      }, 10_000);

      const hidden = await owner.fetch(`/api/images/${image.id}/visibility`, { method: 'PUT', json: { isPublic: false } });
      expect(((await hidden.json()) as RestImage).isPublic).toBe(false);
      expect(await publicIds(viewer)).toEqual([]);
      expect((await viewer.fetch(image.imageUrl)).status).toBe(404);
    });

    it('the owner deletes an image: files, likes and counts go with it; nobody else can', async () => {
      const owner = await member('Della');
      const image = await generate(owner, { prompt: 'Soon gone' });
      await owner.fetch(`/api/images/${image.id}/visibility`, { method: 'PUT', json: { isPublic: true } });
      const viewer = await member();
      await viewer.fetch(`/api/images/${image.id}/like`, { method: 'POST' });
      await eventually(async () => {
        expect(await (await owner.fetch('/api/dashboard/stats')).json()).toMatchObject({
          imagesGenerated: 1,
          publicImages: 1,
          totalLikes: 1,
        });
      }, 10_000);
      expect((await viewer.fetch(`/api/images/${image.id}`, { method: 'DELETE' })).status).toBe(403);
      expect(await storedFiles(image.id)).toEqual(imageFiles(image.id));
      const deleted = await owner.graphql<{ deleteImage: string }>('mutation($id: ID!) { deleteImage(id: $id) }', { id: image.id });
      expect(deleted.data?.deleteImage).toBe(image.id);
      // The files follow the committed deletion (through its event).
      await eventually(async () => expect(await storedFiles(image.id)).toEqual([]), 10_000);
      expect((await owner.fetch(`/api/images/${image.id}`)).status).toBe(404);
      expect((await owner.fetch(image.imageUrl)).status).toBe(404);
      expect((await owner.fetch(image.renditions[0]!.url)).status).toBe(404);
      expect((await owner.fetch(`/api/images/${image.id}`, { method: 'DELETE' })).status).toBe(404);
      expect((await (await owner.fetch('/api/images')).json()) as unknown[]).toEqual([]);
      await eventually(async () => {
        expect(await (await owner.fetch('/api/dashboard/stats')).json()).toMatchObject({
          imagesGenerated: 1,
          publicImages: 0,
          totalLikes: 0,
        });
      }, 10_000);
    });

    it('pages with stable cursors (newest first, or most liked), and searches case-insensitively on the server', async () => {
      const seeder = await member('Sam');
      const userId = (await me(seeder)).id;
      // 30 public images seeded directly (generation is covered above); `%` and `_` in prompts must match literally.
      for (let i = 0; i < 30; i++) {
        await mediaDb().execute(
          `INSERT INTO "media"."images" ("id", "user_id", "prompt", "model", "provider", "is_demo", "size", "quality", "style", "width", "height",
             "placeholder", "renditions", "byte_size", "is_public", "likes", "created_at")
           VALUES ($1, $2, $3, 'seed', 'seed', false, '1024x1024', 'standard', 'vivid', 1024, 1024, 'AAAA', '[]', 1, true, $4, now() - $5 * interval '1 second')`,
          [randomUUID(), userId, i === 7 ? 'Zebra 100%_off Pattern' : `Paged Cosmos ${i}`, i % 5, i],
        );
      }
      const collectAll = async (order: string) => {
        const seen: { prompt: string; likes: number }[] = [];
        let after: string | null = null;
        do {
          const result: {
            data?: {
              publicImages: { nodes: { prompt: string; likes: number }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
            };
          } = await seeder.graphql(
            `query($after: String, $order: ImageOrder) { publicImages(first: 7, after: $after, search: "paged COSMOS", order: $order) { nodes { prompt likes } pageInfo { hasNextPage endCursor } } }`,
            { after, order },
          );
          seen.push(...result.data!.publicImages.nodes);
          after = result.data!.publicImages.pageInfo.hasNextPage ? result.data!.publicImages.pageInfo.endCursor : null;
        } while (after);
        return seen;
      };
      const newest = await collectAll('NEWEST');
      expect(newest.map((image) => image.prompt)).toEqual(
        Array.from({ length: 30 }, (_, i) => i)
          .filter((i) => i !== 7)
          .map((i) => `Paged Cosmos ${i}`),
      );
      const mostLiked = await collectAll('MOST_LIKED');
      expect(mostLiked).toHaveLength(29);
      expect(mostLiked.map((image) => image.likes)).toEqual([...mostLiked.map((image) => image.likes)].sort((a, b) => b - a));

      const literal = (await (await seeder.fetch(`/api/images/public?search=${encodeURIComponent('100%_OFF')}`)).json()) as RestImage[];
      expect(literal.map((image) => image.prompt)).toEqual(['Zebra 100%_off Pattern']);
      const wildcard = (await (await seeder.fetch(`/api/images/public?search=${encodeURIComponent('1_0')}`)).json()) as RestImage[];
      expect(wildcard).toEqual([]);
      const badCursor = await seeder.graphql(`{ publicImages(after: "nonsense") { nodes { id } } }`);
      expect(badCursor.errors?.[0]?.message).toBe('The page cursor is not valid');
    });
  });
});

describe('generation pace limits', () => {
  let platform: EmbeddedPlatform;
  beforeAll(async () => {
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_GENERATIONS_PER_IP_PER_MINUTE: '4', MEDIA_GENERATIONS_PER_MINUTE: '2' },
      services: [identityService, chatService, createMediaService({ provider: new ScriptedImageProvider() })],
    });
  });
  afterAll(() => platform?.stop());

  it('limits each member per minute, and each client address across accounts, with Retry-After', async () => {
    const clients = [new TestClient(platform.url), new TestClient(platform.url), new TestClient(platform.url)];
    for (const client of clients) await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const start = (client: TestClient) => client.fetch('/api/generations', { method: 'POST', json: { prompt: 'Pace' } });
    const [a, b, c] = clients as [TestClient, TestClient, TestClient];
    expect([(await start(a)).status, (await start(a)).status]).toEqual([202, 202]);
    const memberLimited = await start(a);
    expect(memberLimited.status).toBe(429);
    expect(((await memberLimited.json()) as { code: string }).code).toBe('RATE_LIMITED');
    // Three attempts from this address so far (the refused one counts); one more goes through, then the address is refused.
    expect((await start(b)).status).toBe(202);
    const addressLimited = await start(c);
    expect(addressLimited.status).toBe(429);
    expect(((await addressLimited.json()) as { message: string }).message).toBe(
      'Too many images are being generated from your network. Please wait a minute.',
    );
    expect(Number(addressLimited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
