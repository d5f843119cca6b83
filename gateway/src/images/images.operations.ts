import { AppError, ContentRating, GenerateImageInput, IMAGE_ORDERS, IMAGE_VARIANTS, type ImageVariant } from '@app/schema';
import { z } from 'zod';
import { LIVE_TOPICS } from '../live-hub';
import { type Caller, type LiveServices, type Services, member } from '../operations/caller';
import { type RawInput, foundId, pageSize, parseInput } from '../operations/input';

const IMAGE_NOT_FOUND = 'Image not found';
const GENERATION_NOT_FOUND = 'Generation not found';

/** A gallery page: GraphQL's `first` (24 by default in the SDL) or REST's `limit`, after a cursor, newest or most liked. */
const ImagesWindow = z.object({
  first: pageSize('first').optional(),
  limit: pageSize('limit').optional(),
  after: z.string().nullish(),
  search: z.string().nullish(),
  order: z.enum(IMAGE_ORDERS, { error: 'order must be newest or most_liked' }).default('newest'),
});
export type ImagesWindow = RawInput<typeof ImagesWindow>;

const Visibility = z.object({
  isPublic: z.boolean({ error: 'isPublic must be true or false' }),
  rating: ContentRating.nullish(),
});

function imagesPage(window: ImagesWindow) {
  const { first, limit, ...rest } = parseInput(ImagesWindow, { ...window });
  return { ...rest, first: limit ?? first };
}

export const listMyImages = async (services: Services, caller: Caller, window: ImagesWindow) =>
  services.media.listMyImages(member(caller).id, imagesPage(window), caller.meta);

export async function listPublicImages(services: Services, caller: Caller, window: ImagesWindow) {
  const user = member(caller);
  return services.media.listPublicImages(user.id, imagesPage(window), services.access.ratingsFor(user), caller.meta);
}

export async function getImage(services: Services, caller: Caller, id: string) {
  const user = member(caller);
  return services.media.getImage(user.id, foundId(id, IMAGE_NOT_FOUND), services.access.ratingsFor(user), caller.meta);
}

export async function setImageVisibility(services: Services, caller: Caller, id: string, input: { isPublic?: unknown; rating?: unknown }) {
  const user = member(caller);
  const imageId = foundId(id, IMAGE_NOT_FOUND);
  const { isPublic, rating } = parseInput(Visibility, { isPublic: input.isPublic, rating: input.rating });
  return services.media.setVisibility(user.id, imageId, isPublic, rating ?? null, caller.meta);
}

export async function deleteImage(services: Services, caller: Caller, id: string): Promise<string> {
  await services.media.deleteImage(member(caller).id, foundId(id, IMAGE_NOT_FOUND), caller.meta);
  return id;
}

export const likeImage = async (services: Services, caller: Caller, id: string) =>
  services.media.likeImage(member(caller).id, foundId(id, IMAGE_NOT_FOUND), caller.meta);

export const unlikeImage = async (services: Services, caller: Caller, id: string) =>
  services.media.unlikeImage(member(caller).id, foundId(id, IMAGE_NOT_FOUND), caller.meta);

/** Charges 1 token and queues the job. */
export const createGeneration = async (services: Services, caller: Caller, input: unknown) =>
  services.media.createGeneration(member(caller).id, parseInput(GenerateImageInput, input), caller.meta, caller.clientIp);

/** The compatible call: generates and answers once the job has finished. */
export const generateImageAndWait = async (services: Services, caller: Caller, input: unknown) =>
  services.media.generateAndWait(member(caller).id, parseInput(GenerateImageInput, input), caller.meta, caller.clientIp);

export const getGeneration = async (services: Services, caller: Caller, id: string) =>
  services.media.getGeneration(member(caller).id, foundId(id, GENERATION_NOT_FOUND), caller.meta);

export const cancelGeneration = async (services: Services, caller: Caller, id: string) =>
  services.media.cancelGeneration(member(caller).id, foundId(id, GENERATION_NOT_FOUND), caller.meta);

export const activeGenerations = async (services: Services, caller: Caller) =>
  services.media.activeGenerations(member(caller).id, caller.meta);

export async function imageProvider(services: Services, caller: Caller) {
  member(caller);
  return services.media.providerInfo(caller.meta);
}

/** Every change to the member's generation jobs. */
export const watchGenerations = async (services: LiveServices, caller: Caller) =>
  services.live.listen(LIVE_TOPICS.generation, member(caller).id);

/** A file of an image anyone may see when public, its owner only when private; files named otherwise do not exist. */
export async function locateImageFile(services: Services, caller: Caller, id: string, file: string) {
  const variant = /^(original\.png|w\d+\.webp)$/.test(file) ? (file.slice(0, file.lastIndexOf('.')) as ImageVariant) : null;
  if (!variant || !IMAGE_VARIANTS.includes(variant)) throw new AppError('NOT_FOUND', 'Not found');
  const imageId = foundId(id, IMAGE_NOT_FOUND);
  const ratings = services.access.ratingsFor(caller.user);
  return { imageId, variant, ...(await services.media.locateImageFile(caller.user?.id ?? null, imageId, variant, ratings, caller.meta)) };
}
