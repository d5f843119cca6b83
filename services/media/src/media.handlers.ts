import type { Bus, Subscription } from '@app/kit';
import { mediaRpc } from '@app/schema';
import type { GenerationService } from './generations/generation.service';
import type { ImagesService } from './images/images.service';
import type { ImageProvider } from './providers/image-provider';

/** Bus endpoints: each validates (by contract), calls one service function, returns its result. */
export function serveMedia(
  bus: Bus,
  generations: GenerationService,
  images: ImagesService,
  provider: ImageProvider,
): Promise<Subscription[]> {
  return Promise.all([
    bus.serve(mediaRpc.createGeneration, ({ userId, input }) => generations.create(userId, input)),
    bus.serve(mediaRpc.getGeneration, ({ userId, jobId }) => generations.get(userId, jobId)),
    bus.serve(mediaRpc.listActiveGenerations, async ({ userId }) => ({ jobs: await generations.listActive(userId) })),
    bus.serve(mediaRpc.cancelGeneration, ({ userId, jobId }) => generations.cancel(userId, jobId)),
    bus.serve(mediaRpc.providerInfo, async () => ({ kind: provider.kind, model: provider.model, isDemo: provider.isDemo })),
    bus.serve(mediaRpc.listMyImages, ({ userId, ...page }) => images.listMine(userId, page)),
    bus.serve(mediaRpc.listPublicImages, ({ userId, ...page }) => images.listPublic(userId, page)),
    bus.serve(mediaRpc.getImage, ({ userId, imageId }) => images.get(userId, imageId)),
    bus.serve(mediaRpc.setVisibility, ({ userId, imageId, isPublic }) => images.setVisibility(userId, imageId, isPublic)),
    bus.serve(mediaRpc.likeImage, ({ userId, imageId }) => images.like(userId, imageId)),
    bus.serve(mediaRpc.unlikeImage, ({ userId, imageId }) => images.unlike(userId, imageId)),
    bus.serve(mediaRpc.deleteImage, async ({ userId, imageId }) => {
      await images.delete(userId, imageId);
      return { ok: true };
    }),
    bus.serve(mediaRpc.locateImageFile, ({ userId, imageId, variant }) => images.locateFile(userId, imageId, variant)),
  ]);
}
