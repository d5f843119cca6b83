import { IMAGE_PROVIDER_KINDS, type ImageProviderKind, MEDIA_LIMITS } from '@app/schema';
import { contractEnum } from './contract-enum';
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { PageInfoType } from './chat.types';
import { ContentRatingType, ModerationStateType } from './moderation.types';
import { NodeType } from './types';

export enum ImageSizeType {
  SQUARE = '1024x1024',
  LANDSCAPE = '1792x1024',
  PORTRAIT = '1024x1792',
}
registerEnumType(ImageSizeType, {
  name: 'ImageSize',
  description: 'SQUARE 1024x1024, LANDSCAPE 1792x1024, PORTRAIT 1024x1792 (providers with other native sizes keep the aspect).',
});

export enum ImageQualityType {
  STANDARD = 'standard',
  HD = 'hd',
}
registerEnumType(ImageQualityType, { name: 'ImageQuality' });

export enum ImageStyleType {
  VIVID = 'vivid',
  NATURAL = 'natural',
}
registerEnumType(ImageStyleType, { name: 'ImageStyle' });

export enum ImageOrderType {
  NEWEST = 'newest',
  MOST_LIKED = 'most_liked',
}
registerEnumType(ImageOrderType, { name: 'ImageOrder', description: 'NEWEST first, or MOST_LIKED then newest.' });

export enum GenerationStatusType {
  QUEUED = 'queued',
  RUNNING = 'running',
  STORING = 'storing',
  DONE = 'done',
  FAILED = 'failed',
  CANCELLED = 'cancelled',
}
registerEnumType(GenerationStatusType, { name: 'GenerationStatus', description: 'Failed and cancelled jobs are refunded.' });

@ObjectType('ImageSettings')
export class ImageSettingsType {
  @Field(() => ImageSizeType) size!: ImageSizeType;
  @Field(() => ImageQualityType) quality!: ImageQualityType;
  @Field(() => ImageStyleType) style!: ImageStyleType;
  @Field(() => String, { nullable: true, description: 'What the picture should not show (A1111, ComfyUI).' })
  negativePrompt?: string | null;
  @Field(() => Int, {
    nullable: true,
    description: 'The seed the provider actually drew with; the same seed and prompt repeat the picture.',
  })
  seed?: number | null;
  @Field(() => Int, { nullable: true, description: 'Sampling steps, when set.' }) steps?: number | null;
  @Field(() => Float, { nullable: true, description: 'CFG scale (how closely the picture follows the prompt), when set.' })
  cfgScale?: number | null;
  @Field(() => String, { nullable: true, description: 'The sampler name, when set.' }) sampler?: string | null;
}

@ObjectType('ImageRendition', { description: 'A WebP copy at one width of the fixed ladder.' })
export class ImageRenditionType {
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
  @Field(() => String) url!: string;
}

@ObjectType('ImageCreator')
export class ImageCreatorType {
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => String, { nullable: true }) profileImageUrl!: string | null;
}

@ObjectType('Image', { implements: NodeType })
export class ImageType {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The original PNG (owner only while private).' }) imageUrl!: string;
  @Field(() => String) prompt!: string;
  @Field(() => String, { description: "The model that drew it; 'demo-renderer' for the offline demo (not AI)." }) model!: string;
  @Field(() => Boolean, { description: 'Drawn by the offline demo renderer, not by an AI model.' }) isDemo!: boolean;
  @Field(() => Boolean) isPublic!: boolean;
  @Field(() => Boolean, { description: 'True when the signed-in member owns it.' }) isMine!: boolean;
  @Field(() => ContentRatingType, { description: 'Set by the owner when publishing; moderators may change it.' })
  rating!: ContentRatingType;
  @Field(() => ModerationStateType, { description: 'HIDDEN: a moderator took it out of public view (seen by its owner only).' })
  moderationState!: ModerationStateType;
  @Field(() => Int) likes!: number;
  @Field(() => Boolean, { description: 'Whether the signed-in member likes it.' }) likedByMe!: boolean;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => ImageSettingsType) settings!: ImageSettingsType;
  @Field(() => Int) width!: number;
  @Field(() => Int) height!: number;
  @Field(() => String, { description: 'ThumbHash (base64) to draw while the image loads.' }) placeholder!: string;
  @Field(() => [ImageRenditionType], { description: 'Narrowest first.' }) renditions!: ImageRenditionType[];
  @Field(() => String, { description: 'The renditions as an <img srcset> value.' }) srcSet!: string;
  @Field(() => ImageCreatorType, { nullable: true, description: 'The creator, on public images.' }) user!: ImageCreatorType | null;
}

@ObjectType('ImageEdge')
export class ImageEdgeType {
  @Field(() => String) cursor!: string;
  @Field(() => ImageType) node!: ImageType;
}

@ObjectType('ImageConnection', { description: 'Page forwards with `after: pageInfo.endCursor`.' })
export class ImageConnectionType {
  @Field(() => [ImageEdgeType]) edges!: ImageEdgeType[];
  @Field(() => [ImageType]) nodes!: ImageType[];
  @Field(() => PageInfoType) pageInfo!: PageInfoType;
}

@ObjectType('GenerationJob', {
  description: 'One image generation, from queued to done (or failed / cancelled, refunded).',
  implements: NodeType,
})
export class GenerationJobType {
  @Field(() => ID) id!: string;
  @Field(() => GenerationStatusType) status!: GenerationStatusType;
  @Field(() => Float, { nullable: true, description: '0..1 while running, when the provider reports progress.' }) progress!: number | null;
  @Field(() => String) prompt!: string;
  @Field(() => ImageSettingsType) settings!: ImageSettingsType;
  @Field(() => String) provider!: string;
  @Field(() => String) model!: string;
  @Field(() => Boolean) isDemo!: boolean;
  @Field(() => Int) attempts!: number;
  @Field(() => ImageType, { nullable: true, description: 'Set once done.' }) image!: ImageType | null;
  @Field(() => String, { nullable: true }) errorCode!: string | null;
  @Field(() => String, { nullable: true }) errorMessage!: string | null;
  @Field(() => String, {
    nullable: true,
    description:
      "CONTENT_REJECTED: the content rule, as errors' extensions.policyCategory name it (blocked_hash: the picture matches one moderators removed).",
  })
  policyCategory!: string | null;
  @Field(() => GraphQLISODateTime) createdAt!: string;
  @Field(() => GraphQLISODateTime) updatedAt!: string;
}

export const ImageProviderKindType = contractEnum('ImageProviderKind', IMAGE_PROVIDER_KINDS, {
  valueDescriptions: {
    demo: 'The offline demo renderer (not AI).',
    'openai-images': 'The OpenAI Images API.',
    a1111: 'An AUTOMATIC1111-compatible server (Forge, SD.Next).',
    comfyui: 'A ComfyUI server running a workflow.',
  },
});

@ObjectType('ImageProvider', { description: 'What draws images; the UI labels the demo renderer as a demo.' })
export class ImageProviderType {
  @Field(() => ImageProviderKindType) kind!: ImageProviderKind;
  @Field(() => String) model!: string;
  @Field(() => Boolean) isDemo!: boolean;
  @Field(() => [String], {
    description: 'The advanced settings it honours (negativePrompt, seed, steps, cfgScale, sampler); others are refused.',
  })
  advanced!: string[];
  @Field(() => [String], { description: 'Sampler names it offers; empty when it has none to choose from.' }) samplers!: string[];
  @Field(() => String, { description: 'How it was chosen: configured by the operator, detected on this machine, or demo.' })
  source!: string;
  @Field(() => String, { nullable: true, description: "The server product when known ('AUTOMATIC1111', 'ComfyUI')." })
  server!: string | null;
}

@InputType('GenerateImageInput')
export class GenerateImageInputType {
  @Field(() => String, { description: 'Trimmed; must not be empty.' }) prompt!: string;
  @Field(() => ImageSizeType, { defaultValue: ImageSizeType.SQUARE }) size!: ImageSizeType;
  @Field(() => ImageQualityType, { defaultValue: ImageQualityType.STANDARD }) quality!: ImageQualityType;
  @Field(() => ImageStyleType, { defaultValue: ImageStyleType.VIVID }) style!: ImageStyleType;
  @Field(() => String, {
    nullable: true,
    description: `What the picture should not show; at most ${MEDIA_LIMITS.negativePromptLength} characters.`,
  })
  negativePrompt?: string | null;
  @Field(() => Int, { nullable: true, description: `0..${MEDIA_LIMITS.seedMax}; absent: a random seed, recorded on the image.` })
  seed?: number | null;
  @Field(() => Int, { nullable: true, description: `Sampling steps, ${MEDIA_LIMITS.stepsMin}..${MEDIA_LIMITS.stepsMax}.` }) steps?:
    | number
    | null;
  @Field(() => Float, { nullable: true, description: `CFG scale, ${MEDIA_LIMITS.cfgScaleMin}..${MEDIA_LIMITS.cfgScaleMax}.` }) cfgScale?:
    | number
    | null;
  @Field(() => String, { nullable: true, description: "One of the provider's samplers (ImageProvider.samplers)." })
  sampler?: string | null;
}
