import { type ObjectStorage, Outbox, type ServiceDefinition, openObjectStorage, readOutboxOptions } from '@app/kit';
import { GenerationUpdates } from './generations/generation-updates';
import { GenerationWorker } from './generations/generation-worker';
import { GenerationService } from './generations/generation.service';
import { ImageLedger } from './generations/image-ledger';
import { ImagesService, startImageFileCleanup } from './images/images.service';
import { type MediaConfig, readMediaConfig } from './media.config';
import { serveMedia } from './media.handlers';
import { MediaInitial1763800000001 } from './migrations/1763800000001-media-initial';
import { MediaCore1764000000000 } from './migrations/1764000000000-media-core';
import { A1111Provider, readA1111Config } from './providers/a1111.provider';
import { CircuitBreakerImageProvider } from './providers/circuit-breaker.provider';
import { DemoRendererProvider } from './providers/demo-renderer.provider';
import type { ImageProvider } from './providers/image-provider';
import { OpenAiImagesProvider, readOpenAiImagesConfig } from './providers/openai-images.provider';

export type { ImageProvider, ImageRequest, ImageResult } from './providers/image-provider';
export { ImageProviderError } from './providers/image-provider';
export { DemoRendererProvider } from './providers/demo-renderer.provider';
export { processImage } from './images/renditions';

export interface MediaServiceOverrides extends Partial<MediaConfig> {
  /** Replaces the provider chosen from the environment (tests). */
  provider?: ImageProvider;
  /** Replaces the object storage chosen from the environment (tests). */
  storage?: ObjectStorage;
}

/** IMAGE_PROVIDER (or A1111_URL / OPENAI_IMAGES_API_KEY) picks a real provider; otherwise the offline demo renderer. */
export function chooseImageProvider(env: NodeJS.ProcessEnv, config: MediaConfig): ImageProvider {
  const wanted = env.IMAGE_PROVIDER?.trim().toLowerCase();
  if (wanted === 'demo') return new DemoRendererProvider(config.demoStepDelayMs);
  // A dead provider fails jobs fast (and refunds them) instead of holding every member's job until it times out.
  const guarded = (provider: ImageProvider) => new CircuitBreakerImageProvider(provider, { failureThreshold: 5, cooldownMs: 30_000 });
  const a1111 = wanted === 'openai' ? null : readA1111Config(env);
  if (a1111) return guarded(new A1111Provider(a1111));
  if (wanted === 'a1111') throw new Error('IMAGE_PROVIDER=a1111 needs A1111_URL');
  const openAi = readOpenAiImagesConfig(env);
  if (openAi) return guarded(new OpenAiImagesProvider(openAi));
  if (wanted === 'openai') throw new Error('IMAGE_PROVIDER=openai needs OPENAI_IMAGES_API_KEY (or OPENAI_API_KEY)');
  if (wanted) throw new Error(`IMAGE_PROVIDER must be demo, openai or a1111, not ${JSON.stringify(wanted)}`);
  return new DemoRendererProvider(config.demoStepDelayMs);
}

/** Images, generation jobs, likes and stored objects: jobs run here, files go to object storage, charges via identity. */
export const createMediaService = (overrides: MediaServiceOverrides = {}): ServiceDefinition => ({
  name: 'media',
  schema: 'media',
  entities: [],
  migrations: [MediaInitial1763800000001, MediaCore1764000000000],
  async start({ bus, db, env, infra }) {
    const { provider: providerOverride, storage: storageOverride, ...configOverrides } = overrides;
    const config = { ...readMediaConfig(env), ...configOverrides };
    const provider = providerOverride ?? chooseImageProvider(env, config);
    const outbox = new Outbox(db, bus, 'media', readOutboxOptions(env));
    const storage = storageOverride ?? openObjectStorage(infra, env);
    const images = new ImagesService(db, bus, outbox, storage);
    const updates = new GenerationUpdates(bus, images);
    const ledger = new ImageLedger(bus);
    const worker = new GenerationWorker(db, bus, outbox, ledger, provider, storage, updates, config);
    const generations = new GenerationService(db, outbox, ledger, provider, worker, updates, config);
    const relay = outbox.start();
    const handlers = await serveMedia(bus, generations, images, provider);
    const fileCleanup = await startImageFileCleanup(bus, storage);
    // Handlers stop first so no job is queued while the worker hands its jobs back.
    return [...handlers, await worker.start(), fileCleanup, relay];
  },
});

export const mediaService = createMediaService();
