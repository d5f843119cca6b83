import { type ObjectStorage, PendingCharges, type ServiceDefinition, circuitStates, openObjectStorage, storageEnvironment } from '@app/kit';
import { MODERATION_MODEL_CIRCUIT, modelStageEnvironment, openContentPolicy, policyEnvironment } from '@app/policy';
import { mediaEvents } from '@app/schema';
import { GenerationUpdates } from './generations/generation-updates';
import { GenerationWorker } from './generations/generation-worker';
import { GenerationService } from './generations/generation.service';
import { ImageLedger } from './generations/image-ledger';
import { ImagesService, startImageFileCleanup } from './images/images.service';
import { type MediaConfig, mediaEnvironment, readMediaConfig } from './media.config';
import { serveMedia } from './media.handlers';
import { openMediaAccountDataStore, serveMediaAccountData, startMediaErasure } from './account-data/account-data';
import { createMediaStore } from './media.store';
import { MediaInitial1763800000001 } from './migrations/1763800000001-media-initial';
import { MediaCore1764000000000 } from './migrations/1764000000000-media-core';
import { MediaPendingCharges1764200000000 } from './migrations/1764200000000-media-pending-charges';
import { MediaModeration1764400000000 } from './migrations/1764400000000-media-moderation';
import { MediaJobPolicyCategory1765000000001 } from './migrations/1765000000001-media-job-policy-category';
import { MediaSelfAiPhotos1766600000000 } from './migrations/1766600000000-media-self-ai-photos';
import { MediaAdvancedSettings1767000000000 } from './migrations/1767000000000-media-advanced-settings';
import { ModerationService, startModerationConsumer } from './moderation/moderation.service';
import { PhotosService } from './photos/photos.service';
import { A1111Provider, readA1111Config } from './providers/a1111.provider';
import { CircuitBreakerImageProvider, IMAGE_PROVIDER_CIRCUIT } from './providers/circuit-breaker.provider';
import { ComfyUiProvider, readComfyUiConfig } from './providers/comfyui.provider';
import { DemoRendererProvider } from './providers/demo-renderer.provider';
import type { ImageProvider } from './providers/image-provider';
import { imageProviderEnvironment, readImageProviderOrigin } from './providers/image-provider.environment';
import { OpenAiImagesProvider, readOpenAiImagesConfig } from './providers/openai-images.provider';

export type { ImageProvider, ImageRequest, ImageResult } from './providers/image-provider';
export { ImageProviderError } from './providers/image-provider';
export { DemoRendererProvider } from './providers/demo-renderer.provider';
export { processImage } from './images/renditions';
export { mediaEnvironment } from './media.config';
export { imageProviderEnvironment } from './providers/image-provider.environment';

export interface MediaServiceOverrides extends Partial<MediaConfig> {
  /** Replaces the provider chosen from the environment (tests). */
  provider?: ImageProvider;
  /** Replaces the object storage chosen from the environment (tests). */
  storage?: ObjectStorage;
}

/** IMAGE_PROVIDER (or A1111_URL / COMFYUI_URL / OPENAI_IMAGES_API_KEY) picks a real provider; otherwise the offline demo renderer. */
export function chooseImageProvider(env: NodeJS.ProcessEnv, config: MediaConfig): ImageProvider {
  const wanted = imageProviderEnvironment.parse(env).IMAGE_PROVIDER;
  // A dead provider fails jobs fast (and refunds them) instead of holding every member's job until it times out. The demo
  // never fails, but behind the same breaker operators see its circuit like a real provider's.
  const guarded = (provider: ImageProvider) =>
    new CircuitBreakerImageProvider(provider, { name: IMAGE_PROVIDER_CIRCUIT, failureThreshold: 5, cooldownMs: 30_000 });
  if (wanted === 'demo') return guarded(new DemoRendererProvider(config.demoStepDelayMs));
  const a1111 = wanted === 'openai' || wanted === 'comfyui' ? null : readA1111Config(env);
  if (a1111) return guarded(new A1111Provider(a1111));
  if (wanted === 'a1111') throw new Error('IMAGE_PROVIDER=a1111 needs A1111_URL');
  // IMAGE_PROVIDER=comfyui alone means ComfyUI on its default local port.
  const comfyUi = wanted === 'openai' ? null : readComfyUiConfig(env);
  if (comfyUi) return guarded(new ComfyUiProvider(comfyUi));
  const openAi = readOpenAiImagesConfig(env);
  if (openAi) return guarded(new OpenAiImagesProvider(openAi));
  if (wanted === 'openai') throw new Error('IMAGE_PROVIDER=openai needs OPENAI_IMAGES_API_KEY (or OPENAI_API_KEY)');
  return guarded(new DemoRendererProvider(config.demoStepDelayMs));
}

/** Images, generation jobs, likes and stored objects: jobs run here, files go to object storage, charges via identity. */
export const createMediaService = (overrides: MediaServiceOverrides = {}): ServiceDefinition => ({
  name: 'media',
  schema: 'media',
  entities: [],
  environments: [mediaEnvironment, imageProviderEnvironment, storageEnvironment, policyEnvironment, modelStageEnvironment],
  migrations: [
    MediaInitial1763800000001,
    MediaCore1764000000000,
    MediaPendingCharges1764200000000,
    MediaModeration1764400000000,
    MediaJobPolicyCategory1765000000001,
    MediaSelfAiPhotos1766600000000,
    MediaAdvancedSettings1767000000000,
  ],
  async start({ bus, db, env, infra }) {
    const { provider: providerOverride, storage: storageOverride, ...configOverrides } = overrides;
    const config = { ...readMediaConfig(env), ...configOverrides };
    const provider = providerOverride ?? chooseImageProvider(env, config);
    const store = createMediaStore(db);
    const storage = storageOverride ?? openObjectStorage(infra);
    const images = new ImagesService(store, bus, storage);
    const moderation = new ModerationService(store, images);
    const updates = new GenerationUpdates(bus, images);
    const charges = new PendingCharges(db, bus, { sweepIntervalMs: config.sweepIntervalMs });
    const ledger = new ImageLedger(bus, charges);
    const worker = new GenerationWorker(store, bus, ledger, provider, storage, updates, config);
    const policy = openContentPolicy(env, (refusal) => bus.publishEvent(mediaEvents.contentRefused, refusal, refusal.userId));
    const generations = new GenerationService(store, ledger, provider, worker, updates, config, policy);
    const photos = new PhotosService(store, storage);
    const origin = providerOverride ? undefined : readImageProviderOrigin(env, provider);
    const handlers = await serveMedia(bus, generations, images, moderation, photos, provider, origin);
    const fileCleanup = await startImageFileCleanup(bus, storage);
    const accountData = openMediaAccountDataStore(db);
    const moderationConsumer = await startModerationConsumer(bus, moderation);
    // Discovery and the metrics show the provider's circuit, the content policy's model's, and the job queue every instance
    // shares (apart, so a database that does not answer leaves the circuits in the report).
    bus.reportStatus(() => ({ circuits: circuitStates([IMAGE_PROVIDER_CIRCUIT, MODERATION_MODEL_CIRCUIT]) }));
    bus.reportStatus(async () => {
      const { waiting, running } = await store.run(({ jobs }) => jobs.depth());
      return {
        queues: [
          { name: 'media.image-jobs.waiting', depth: waiting },
          { name: 'media.image-jobs.running', depth: running },
        ],
      };
    });
    // Handlers stop first so no job is queued while the worker hands its jobs back (the kit stops the outbox relay last).
    return [
      ...handlers,
      await worker.start(),
      charges.start(),
      fileCleanup,
      moderationConsumer,
      photos.startStagingSweep(),
      ...(await serveMediaAccountData(bus, accountData, storage)),
      await startMediaErasure(bus, accountData, storage),
    ];
  },
});

export const mediaService = createMediaService();
