import { z } from 'zod';
import { ErrorDetails } from '../errors';
import { ContentRefusal, defineEvent, defineRpc } from './contract';
import { ContentRating, MODERATION_LIMITS, ModerationState, ModerationTarget, ViewerRatings } from './moderation';

const Id = z.string().uuid();

/** SPEC §5: the generator's options and their defaults. */
export const IMAGE_SIZES = ['1024x1024', '1792x1024', '1024x1792'] as const;
export const IMAGE_QUALITIES = ['standard', 'hd'] as const;
export const IMAGE_STYLES = ['vivid', 'natural'] as const;
export const IMAGE_DEFAULTS = { size: '1024x1024', quality: 'standard', style: 'vivid' } as const;

export const MEDIA_LIMITS = {
  /** dall-e-3's own prompt limit; the other providers accept at least as much. */
  promptLength: 4000,
  searchLength: 200,
  pageSizeDefault: 24,
  pageSizeMax: 100,
  /** Advanced settings (A1111/ComfyUI ranges): negative prompt length, seed, steps, CFG scale, sampler name. */
  negativePromptLength: 2000,
  // GraphQL Int is 32-bit signed; A1111 and ComfyUI accept any seed in this range.
  seedMax: 2_147_483_647,
  stepsMin: 1,
  stepsMax: 150,
  cfgScaleMin: 1,
  cfgScaleMax: 30,
  samplerLength: 64,
} as const;

/** WebP renditions are stored at these widths (never wider than the original). */
export const RENDITION_WIDTHS = [256, 512, 1024] as const;

export const ImageSize = z.enum(IMAGE_SIZES, { error: `Size must be one of ${IMAGE_SIZES.join(', ')}` });
export const ImageQuality = z.enum(IMAGE_QUALITIES, { error: `Quality must be one of ${IMAGE_QUALITIES.join(', ')}` });
export const ImageStyle = z.enum(IMAGE_STYLES, { error: `Style must be one of ${IMAGE_STYLES.join(', ')}` });

/** The advanced settings a provider may honour; `ImageProviderInfo.advanced` lists the ones the current provider does. */
export const ADVANCED_IMAGE_SETTINGS = ['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler'] as const;
export type AdvancedImageSetting = (typeof ADVANCED_IMAGE_SETTINGS)[number];

/** Optional advanced settings (absent = the provider's own default; a seed of null = random, recorded after drawing). */
export const AdvancedImageSettings = z.object({
  negativePrompt: z
    .string()
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .max(MEDIA_LIMITS.negativePromptLength, `A negative prompt must be at most ${MEDIA_LIMITS.negativePromptLength} characters`),
    )
    .optional(),
  seed: z
    .number()
    .int('Seed must be a whole number')
    .min(0, 'Seed must be 0 or more')
    .max(MEDIA_LIMITS.seedMax, `Seed must be at most ${MEDIA_LIMITS.seedMax}`)
    .optional(),
  steps: z
    .number()
    .int('Steps must be a whole number')
    .min(MEDIA_LIMITS.stepsMin, `Steps must be between ${MEDIA_LIMITS.stepsMin} and ${MEDIA_LIMITS.stepsMax}`)
    .max(MEDIA_LIMITS.stepsMax, `Steps must be between ${MEDIA_LIMITS.stepsMin} and ${MEDIA_LIMITS.stepsMax}`)
    .optional(),
  cfgScale: z
    .number()
    .min(MEDIA_LIMITS.cfgScaleMin, `CFG scale must be between ${MEDIA_LIMITS.cfgScaleMin} and ${MEDIA_LIMITS.cfgScaleMax}`)
    .max(MEDIA_LIMITS.cfgScaleMax, `CFG scale must be between ${MEDIA_LIMITS.cfgScaleMin} and ${MEDIA_LIMITS.cfgScaleMax}`)
    .optional(),
  sampler: z.string().trim().min(1).max(MEDIA_LIMITS.samplerLength).optional(),
});
export type AdvancedImageSettings = z.infer<typeof AdvancedImageSettings>;

/** The same settings as a request may send them: null (GraphQL, JSON) means absent, the provider's own default. */
const advanced = AdvancedImageSettings.shape;
const AdvancedImageInput = {
  negativePrompt: advanced.negativePrompt.unwrap().nullish(),
  seed: advanced.seed.unwrap().nullish(),
  steps: advanced.steps.unwrap().nullish(),
  cfgScale: advanced.cfgScale.unwrap().nullish(),
  sampler: advanced.sampler.unwrap().nullish(),
};

export const ImageSettings = z.object({ size: ImageSize, quality: ImageQuality, style: ImageStyle }).extend(AdvancedImageSettings.shape);
export type ImageSettings = z.infer<typeof ImageSettings>;

/** POST /api/generate/image body (SPEC §7); missing options take the defaults, unknown values are refused. */
export const GenerateImageInput = z.object({
  prompt: z
    .string({ error: 'Please enter a description for your image.' })
    .transform((value) => value.trim())
    .pipe(
      z
        .string()
        .min(1, 'Please enter a description for your image.')
        .max(MEDIA_LIMITS.promptLength, `A prompt must be at most ${MEDIA_LIMITS.promptLength} characters`),
    ),
  size: ImageSize.default(IMAGE_DEFAULTS.size),
  quality: ImageQuality.default(IMAGE_DEFAULTS.quality),
  style: ImageStyle.default(IMAGE_DEFAULTS.style),
  ...AdvancedImageInput,
});
export type GenerateImageInput = z.input<typeof GenerateImageInput>;

export const GENERATION_STATUSES = ['queued', 'running', 'storing', 'done', 'failed', 'cancelled'] as const;
export const GenerationStatus = z.enum(GENERATION_STATUSES);
export type GenerationStatus = z.infer<typeof GenerationStatus>;
export const FINISHED_GENERATION_STATUSES: readonly GenerationStatus[] = ['done', 'failed', 'cancelled'];

export const Rendition = z.object({ width: z.number().int(), height: z.number().int(), format: z.literal('webp') });
export type Rendition = z.infer<typeof Rendition>;

export const ImageCreator = z.object({
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
});
export type ImageCreator = z.infer<typeof ImageCreator>;

/** SPEC §6 Image, plus what a fast gallery needs: dimensions, renditions and a ThumbHash placeholder. */
export const Image = z.object({
  id: z.string().uuid(),
  ownerId: z.string().uuid(),
  prompt: z.string(),
  model: z.string(),
  /** Drawn by the offline demo renderer, not by an AI model. */
  isDemo: z.boolean(),
  isPublic: z.boolean(),
  /** Set by the owner when publishing; moderators may change it. */
  rating: ContentRating,
  /** `hidden`: a moderator took it out of public view (only its owner sees it, marked). */
  moderationState: ModerationState,
  likes: z.number().int(),
  likedByMe: z.boolean(),
  createdAt: z.string().datetime(),
  settings: ImageSettings,
  width: z.number().int(),
  height: z.number().int(),
  /** ThumbHash (base64) of the picture, drawn by the client while the image loads. */
  placeholder: z.string(),
  renditions: z.array(Rendition),
  /** Set for public images (the public gallery and any public image read by a non-owner). */
  user: ImageCreator.nullable(),
});
export type Image = z.infer<typeof Image>;

export const IMAGE_ORDERS = ['newest', 'most_liked'] as const;
export const ImageOrder = z.enum(IMAGE_ORDERS);
export type ImageOrder = z.infer<typeof ImageOrder>;

/** `cursors[i]` pages after `images[i]`; `nextCursor` is the last one when more follow. */
export const ImagePage = z.object({ images: z.array(Image), cursors: z.array(z.string()), nextCursor: z.string().nullable() });
export type ImagePage = z.infer<typeof ImagePage>;

/** Which content rule refused something: the values errors carry in `details.policyCategory`. */
export const PolicyCategory = ErrorDetails.unwrap().shape.policyCategory.unwrap();
export type PolicyCategory = z.infer<typeof PolicyCategory>;

export const GenerationJob = z.object({
  id: z.string().uuid(),
  status: GenerationStatus,
  /** 0..1 when the provider reports progress; null while it cannot tell. */
  progress: z.number().min(0).max(1).nullable(),
  prompt: z.string(),
  settings: ImageSettings,
  provider: z.string(),
  model: z.string(),
  isDemo: z.boolean(),
  attempts: z.number().int(),
  /** Set once status is done. */
  image: Image.nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** CONTENT_REJECTED: the rule that refused it (`blocked_hash`: the picture drawn matches one moderators removed). */
  policyCategory: PolicyCategory.nullable(),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
});
export type GenerationJob = z.infer<typeof GenerationJob>;

/** What draws images: the offline demo renderer, the OpenAI Images API, an AUTOMATIC1111-compatible server, or ComfyUI. */
export const IMAGE_PROVIDER_KINDS = ['demo', 'openai-images', 'a1111', 'comfyui'] as const;
export type ImageProviderKind = (typeof IMAGE_PROVIDER_KINDS)[number];
/** How the provider was chosen: set by the operator, found on a loopback port at start, or the offline demo. */
export const PROVIDER_SOURCES = ['configured', 'detected', 'demo'] as const;
export const ProviderSource = z.enum(PROVIDER_SOURCES);
export type ProviderSource = z.infer<typeof ProviderSource>;
export const ImageProviderInfo = z.object({
  kind: z.enum(IMAGE_PROVIDER_KINDS),
  model: z.string(),
  isDemo: z.boolean(),
  /** The advanced settings this provider honours (the generator shows only these). */
  advanced: z.array(z.enum(ADVANCED_IMAGE_SETTINGS)).default([]),
  /** Sampler names the provider offers (A1111 /sdapi/v1/samplers, ComfyUI's KSampler list); empty when it has none. */
  samplers: z.array(z.string()).default([]),
  source: ProviderSource.default('configured'),
  /** The server product when known ('AUTOMATIC1111', 'ComfyUI', …), shown to members with the model. */
  server: z.string().nullable().default(null),
});
export type ImageProviderInfo = z.infer<typeof ImageProviderInfo>;

export const IMAGE_VARIANTS = ['original', ...RENDITION_WIDTHS.map((width) => `w${width}` as const)] as const;
export const ImageVariant = z.enum(IMAGE_VARIANTS);
export type ImageVariant = z.infer<typeof ImageVariant>;

const UserRef = z.object({ userId: Id });
const ImageRef = UserRef.extend({ imageId: Id });
const JobRef = UserRef.extend({ jobId: Id });
const PageArgs = z.object({
  first: z.number().int().min(1).max(MEDIA_LIMITS.pageSizeMax).default(MEDIA_LIMITS.pageSizeDefault),
  after: z.string().max(200).nullish(),
  search: z.string().max(MEDIA_LIMITS.searchLength, `Search must be at most ${MEDIA_LIMITS.searchLength} characters`).nullish(),
  order: ImageOrder.default('newest'),
});
export type PageArgs = z.input<typeof PageArgs>;

/** SPEC §5/§9: an uploaded photo is at most 10485760 bytes. */
export const UPLOAD_MAX_BYTES = 10_485_760;
/** Staged uploads live under `uploads/<memberId>/<uuid>` until media accepts or refuses them. */
export const UPLOAD_KEY_PATTERN = /^uploads\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/;
/** The square WebP sizes a profile picture is stored at. */
export const AVATAR_SIZES = [64, 128, 256] as const;

/** The member's word, stored with each Self-AI photo: the photo shows them, and they are 18 or older. */
export const SelfAiAttestation = z.object({
  ofSelf: z.literal(true, { error: 'Confirm that the photos are of you and that you are 18 or older.' }),
  adult: z.literal(true, { error: 'Confirm that the photos are of you and that you are 18 or older.' }),
});
export type SelfAiAttestation = z.infer<typeof SelfAiAttestation>;

export const SelfAiPhoto = z.object({ id: Id, createdAt: z.string().datetime(), format: z.enum(['jpeg', 'png']) });
export type SelfAiPhoto = z.infer<typeof SelfAiPhoto>;
export const PHOTO_VARIANTS = ['original', 'thumb'] as const;
export const PhotoVariant = z.enum(PHOTO_VARIANTS);
export type PhotoVariant = z.infer<typeof PhotoVariant>;
const StagedUpload = z.string().regex(UPLOAD_KEY_PATTERN, 'Not an upload key');

export const mediaRpc = {
  /** Charges 1 token (+1 image quota use) and queues the job; returns at once. */
  createGeneration: defineRpc('svc.media.generation.create', UserRef.extend({ input: GenerateImageInput }), GenerationJob),
  getGeneration: defineRpc('svc.media.generation.get', JobRef, GenerationJob),
  /** The member's unfinished jobs, so a reloaded page can pick their progress back up. */
  listActiveGenerations: defineRpc('svc.media.generation.active', UserRef, z.object({ jobs: z.array(GenerationJob) })),
  cancelGeneration: defineRpc('svc.media.generation.cancel', JobRef, GenerationJob),
  providerInfo: defineRpc('svc.media.provider.info', z.object({}), ImageProviderInfo),

  listMyImages: defineRpc('svc.media.image.mine', UserRef.merge(PageArgs), ImagePage),
  /** Public images in the ratings the viewer may see; hidden, removed and suspended members' images are left out. */
  listPublicImages: defineRpc('svc.media.image.public', UserRef.merge(PageArgs).extend({ ratings: ViewerRatings }), ImagePage),
  /** The owner's image, or a public one in the viewer's ratings (NOT_FOUND otherwise). */
  getImage: defineRpc('svc.media.image.get', ImageRef.extend({ ratings: ViewerRatings }), Image),
  /** Publishing refuses an image whose picture matches one removed by moderators. No rating keeps the current one. */
  setVisibility: defineRpc(
    'svc.media.image.visibility',
    ImageRef.extend({ isPublic: z.boolean(), rating: ContentRating.nullish() }),
    Image,
  ),
  likeImage: defineRpc('svc.media.image.like', ImageRef, Image),
  unlikeImage: defineRpc('svc.media.image.unlike', ImageRef, Image),
  /** Owner only: the image, its files and its likes are gone for good. */
  deleteImage: defineRpc('svc.media.image.delete', ImageRef, z.object({ ok: z.boolean() })),
  /** Where a variant's bytes are, after checking the viewer may see the image (others' private images: NOT_FOUND). */
  locateImageFile: defineRpc(
    'svc.media.image.file',
    z.object({ userId: Id.nullable(), imageId: Id, variant: ImageVariant, ratings: ViewerRatings }),
    z.object({ key: z.string(), contentType: z.string(), isPublic: z.boolean(), fileName: z.string() }),
  ),
  /** Images as moderators see them, whatever their state; unknown ids are left out. */
  describeImages: defineRpc(
    'svc.media.moderation.describe',
    z.object({ imageIds: z.array(Id).max(MODERATION_LIMITS.describeMax) }),
    z.object({ targets: z.array(ModerationTarget) }),
  ),
  /** A moderator's view of a file: any state (the queue shows hidden and removed images in context). */
  locateModeratedImageFile: defineRpc(
    'svc.media.moderation.file',
    z.object({ imageId: Id, variant: ImageVariant }),
    z.object({ key: z.string(), contentType: z.string(), isPublic: z.boolean(), fileName: z.string() }),
  ),

  /**
   * Checks a staged upload of the member's (size, JPEG/PNG by its bytes, bounded dimensions), re-encodes it without
   * metadata and keeps it privately with the attestation. The staged object is removed whatever the outcome.
   */
  registerSelfAiPhoto: defineRpc(
    'svc.media.photo.register',
    UserRef.extend({ key: StagedUpload, attestation: SelfAiAttestation }),
    SelfAiPhoto,
  ),
  /** The member's Self-AI photos, newest first. */
  listSelfAiPhotos: defineRpc('svc.media.photo.mine', UserRef, z.object({ photos: z.array(SelfAiPhoto) })),
  /** Owner only (others: NOT_FOUND); the photo and every file made from it go. */
  deleteSelfAiPhoto: defineRpc('svc.media.photo.delete', UserRef.extend({ photoId: Id }), z.object({ ok: z.boolean() })),
  /** Where a photo's file is: for its owner only (others: NOT_FOUND). */
  locateSelfAiPhotoFile: defineRpc(
    'svc.media.photo.file',
    UserRef.extend({ photoId: Id, variant: PhotoVariant }),
    z.object({ key: z.string(), contentType: z.string() }),
  ),
  /** Makes a staged upload the member's profile picture: square WebP renditions (AVATAR_SIZES); the previous one's files go. */
  setAvatar: defineRpc('svc.media.avatar.set', UserRef.extend({ key: StagedUpload }), z.object({ avatarId: Id })),
} as const;

/** Live (not stored) job updates on `live.media.generation.<userId>`, fanned out to GraphQL subscriptions. */
export const GenerationLiveUpdate = z.object({ userId: Id, job: GenerationJob });
export type GenerationLiveUpdate = z.infer<typeof GenerationLiveUpdate>;
export const generationLiveSubject = (userId: string) => `live.media.generation.${userId}`;
export const GENERATION_LIVE_SUBJECTS = 'live.media.generation.*';
/** A member's cancel, broadcast to every media instance: the one running the job stops it. */
export const GENERATION_CANCEL_SUBJECT = 'live.media.control.cancel';

const JobEvent = z.object({ jobId: Id, userId: Id });

export const mediaEvents = {
  generationQueued: defineEvent(
    'evt.media.generation.queued',
    1,
    JobEvent.extend({ provider: z.string(), model: z.string(), settings: ImageSettings }),
  ),
  generationProgressed: defineEvent(
    'evt.media.generation.progressed',
    1,
    JobEvent.extend({ status: GenerationStatus, progress: z.number().nullable(), attempt: z.number().int() }),
  ),
  generationFailed: defineEvent(
    'evt.media.generation.failed',
    1,
    JobEvent.extend({ errorCode: z.string(), attempts: z.number().int(), refunded: z.boolean() }),
  ),
  generationCancelled: defineEvent('evt.media.generation.cancelled', 1, JobEvent.extend({ refunded: z.boolean() })),
  imageGenerated: defineEvent(
    'evt.media.image.generated',
    1,
    JobEvent.extend({
      imageId: Id,
      provider: z.string(),
      model: z.string(),
      isDemo: z.boolean(),
      latencyMs: z.number().int(),
      renditionMs: z.number().int(),
      bytes: z.number().int(),
    }),
  ),
  visibilityChanged: defineEvent('evt.media.image.visibility_changed', 1, z.object({ imageId: Id, userId: Id, isPublic: z.boolean() })),
  imageLiked: defineEvent('evt.media.image.liked', 1, z.object({ imageId: Id, ownerId: Id, likerId: Id, likes: z.number().int() })),
  imageDeleted: defineEvent(
    'evt.media.image.deleted',
    1,
    z.object({ imageId: Id, userId: Id, wasPublic: z.boolean(), likes: z.number().int() }),
  ),
  imageUnliked: defineEvent('evt.media.image.unliked', 1, z.object({ imageId: Id, ownerId: Id, likerId: Id, likes: z.number().int() })),
  contentRefused: defineEvent('evt.media.content.refused', 1, ContentRefusal),
  photoAdded: defineEvent('evt.media.photo.added', 1, z.object({ photoId: Id, userId: Id, bytes: z.number().int() })),
  photoDeleted: defineEvent('evt.media.photo.deleted', 1, z.object({ photoId: Id, userId: Id })),
} as const;
