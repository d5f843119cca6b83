import type { Bus, Subscription } from '@app/kit';
import { type ImageProviderInfo, type ProviderSource, mediaRpc } from '@app/schema';
import type { GenerationService } from './generations/generation.service';
import type { ImagesService } from './images/images.service';
import type { ModerationService } from './moderation/moderation.service';
import type { PhotosService } from './photos/photos.service';
import type { ImageProvider } from './providers/image-provider';

/** How the provider was chosen (IMAGE_PROVIDER_SOURCE / IMAGE_PROVIDER_SERVER where it is chosen), shown with its model. */
export interface ProviderOrigin {
  source: ProviderSource;
  /** The server product when known ('AUTOMATIC1111', 'ComfyUI'). */
  server: string | null;
}

/** What the generator needs to know of the provider: its model, whether it is the demo, and the settings it honours. */
export async function describeProvider(provider: ImageProvider, origin: ProviderOrigin | undefined): Promise<ImageProviderInfo> {
  return {
    kind: provider.kind,
    model: provider.model,
    isDemo: provider.isDemo,
    advanced: [...provider.advanced],
    samplers: provider.advanced.includes('sampler') ? await provider.samplers() : [],
    source: origin?.source ?? (provider.isDemo ? 'demo' : 'configured'),
    server: origin?.server ?? null,
  };
}

/** Bus endpoints: each validates (by contract), calls one service function, returns its result. */
export function serveMedia(
  bus: Bus,
  generations: GenerationService,
  images: ImagesService,
  moderation: ModerationService,
  photos: PhotosService,
  provider: ImageProvider,
  origin?: ProviderOrigin,
): Promise<Subscription[]> {
  return Promise.all([
    bus.serve(mediaRpc.createGeneration, ({ userId, input }) => generations.create(userId, input)),
    bus.serve(mediaRpc.getGeneration, ({ userId, jobId }) => generations.get(userId, jobId)),
    bus.serve(mediaRpc.listActiveGenerations, async ({ userId }) => ({ jobs: await generations.listActive(userId) })),
    bus.serve(mediaRpc.cancelGeneration, ({ userId, jobId }) => generations.cancel(userId, jobId)),
    bus.serve(mediaRpc.providerInfo, () => describeProvider(provider, origin)),
    bus.serve(mediaRpc.listMyImages, ({ userId, ...page }) => images.listMine(userId, page)),
    bus.serve(mediaRpc.listPublicImages, ({ userId, ratings, ...page }) => images.listPublic(userId, page, ratings)),
    bus.serve(mediaRpc.getImage, ({ userId, imageId, ratings }) => images.get(userId, imageId, ratings)),
    bus.serve(mediaRpc.setVisibility, ({ userId, imageId, isPublic, rating }) =>
      images.setVisibility(userId, imageId, isPublic, rating ?? null),
    ),
    bus.serve(mediaRpc.likeImage, ({ userId, imageId }) => images.like(userId, imageId)),
    bus.serve(mediaRpc.unlikeImage, ({ userId, imageId }) => images.unlike(userId, imageId)),
    bus.serve(mediaRpc.deleteImage, async ({ userId, imageId }) => {
      await images.delete(userId, imageId);
      return { ok: true };
    }),
    bus.serve(mediaRpc.locateImageFile, ({ userId, imageId, variant, ratings }) => images.locateFile(userId, imageId, variant, ratings)),
    bus.serve(mediaRpc.describeImages, async ({ imageIds }) => ({ targets: await moderation.describe(imageIds) })),
    bus.serve(mediaRpc.locateModeratedImageFile, ({ imageId, variant }) => moderation.locateFile(imageId, variant)),
    bus.serve(mediaRpc.registerSelfAiPhoto, ({ userId, key, attestation }) => photos.register(userId, key, attestation)),
    bus.serve(mediaRpc.listSelfAiPhotos, async ({ userId }) => ({ photos: await photos.list(userId) })),
    bus.serve(mediaRpc.deleteSelfAiPhoto, async ({ userId, photoId }) => {
      await photos.delete(userId, photoId);
      return { ok: true };
    }),
    bus.serve(mediaRpc.locateSelfAiPhotoFile, ({ userId, photoId, variant }) => photos.locateFile(userId, photoId, variant)),
    bus.serve(mediaRpc.setAvatar, ({ userId, key }) => photos.setAvatar(userId, key)),
  ]);
}
