import type { GenerationJob, Image } from '@app/schema';
import type { GenerationJobType, GenerationStatusType, ImageSettingsType, ImageType } from './media.types';
import type { ContentRatingType, ModerationStateType } from './moderation.types';

/** Where the gateway serves an image's files (ownership-checked for private images). */
export const imageFileUrl = (imageId: string, file: string) => `/api/media/images/${imageId}/${file}`;

/** The REST shape: SPEC §6 fields first, plus URLs for the renditions; `viewerId` is the signed-in member. */
export function toRestImage(image: Image, viewerId: string | undefined) {
  const { id, prompt, model, isPublic, likes, createdAt, settings, user, ownerId, renditions, ...rest } = image;
  return {
    id,
    imageUrl: imageFileUrl(id, 'original.png'),
    prompt,
    model,
    isPublic,
    likes,
    createdAt,
    settings,
    ...(isPublic ? { user } : {}),
    isMine: ownerId === viewerId,
    ...rest,
    renditions: renditions.map((rendition) => ({ ...rendition, url: imageFileUrl(id, `w${rendition.width}.webp`) })),
  };
}

export function toImageType(image: Image, viewerId: string | undefined): ImageType {
  const { ownerId, ...fields } = image;
  const renditions = image.renditions.map(({ width, height }) => ({ width, height, url: imageFileUrl(image.id, `w${width}.webp`) }));
  return {
    ...fields,
    isMine: ownerId === viewerId,
    imageUrl: imageFileUrl(image.id, 'original.png'),
    settings: image.settings as ImageSettingsType,
    rating: image.rating as ContentRatingType,
    moderationState: image.moderationState as ModerationStateType,
    renditions,
    srcSet: renditions.map((rendition) => `${rendition.url} ${rendition.width}w`).join(', '),
  };
}

export function toJobType(job: GenerationJob, viewerId: string | undefined): GenerationJobType {
  return {
    ...job,
    status: job.status as GenerationStatusType,
    settings: job.settings as ImageSettingsType,
    image: job.image ? toImageType(job.image, viewerId) : null,
  };
}

export function toRestJob(job: GenerationJob, viewerId: string | undefined) {
  return { ...job, image: job.image ? toRestImage(job.image, viewerId) : null };
}
