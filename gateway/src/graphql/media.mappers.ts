import type { GenerationJob, Image } from '@app/schema';
import type { GenerationJobType, GenerationStatusType, ImageSettingsType, ImageType } from './media.types';
import type { ContentRatingType, ModerationStateType } from './moderation.types';

/** Where the gateway serves an image's files (ownership-checked for private images). */
export const imageFileUrl = (imageId: string, file: string) => `/api/media/images/${imageId}/${file}`;

/** The REST shape: SPEC §6 fields first, plus URLs for the renditions. */
export function toRestImage(image: Image) {
  const { id, prompt, model, isPublic, likes, createdAt, settings, user, ownerId: _ownerId, renditions, ...rest } = image;
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
    ...rest,
    renditions: renditions.map((rendition) => ({ ...rendition, url: imageFileUrl(id, `w${rendition.width}.webp`) })),
  };
}

export function toImageType(image: Image): ImageType {
  const renditions = image.renditions.map(({ width, height }) => ({ width, height, url: imageFileUrl(image.id, `w${width}.webp`) }));
  return {
    ...image,
    imageUrl: imageFileUrl(image.id, 'original.png'),
    settings: image.settings as ImageSettingsType,
    rating: image.rating as ContentRatingType,
    moderationState: image.moderationState as ModerationStateType,
    renditions,
    srcSet: renditions.map((rendition) => `${rendition.url} ${rendition.width}w`).join(', '),
  };
}

export function toJobType(job: GenerationJob): GenerationJobType {
  return {
    ...job,
    status: job.status as GenerationStatusType,
    settings: job.settings as ImageSettingsType,
    image: job.image ? toImageType(job.image) : null,
  };
}

export function toRestJob(job: GenerationJob) {
  return { ...job, image: job.image ? toRestImage(job.image) : null };
}
