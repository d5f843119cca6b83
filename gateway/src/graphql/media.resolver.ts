import type { GenerationJob, ImagePage } from '@app/schema';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  activeGenerations,
  cancelGeneration,
  createGeneration,
  deleteImage,
  getGeneration,
  getImage,
  imageProvider,
  likeImage,
  listMyImages,
  listPublicImages,
  setImageVisibility,
  unlikeImage,
  watchGenerations,
} from '../images/images.operations';
import { type GatewayContext, callerOf } from './context';
import { toImageType, toJobType } from './media.mappers';
import {
  GenerateImageInputType,
  GenerationJobType,
  ImageConnectionType,
  ImageOrderType,
  ImageProviderType,
  ImageType,
} from './media.types';
import { ContentRatingType } from './moderation.types';

function toConnection(page: ImagePage, viewerId: string | undefined): ImageConnectionType {
  const nodes = page.images.map((image) => toImageType(image, viewerId));
  return {
    nodes,
    edges: nodes.map((node, index) => ({ node, cursor: page.cursors[index]! })),
    pageInfo: { hasNextPage: page.nextCursor !== null, hasPreviousPage: false, startCursor: null, endCursor: page.nextCursor },
  };
}

@Resolver()
export class MediaResolver {
  @Query(() => ImageConnectionType, {
    description: 'My images, newest first (or most liked); `search` is a case-insensitive substring of the prompt.',
  })
  async myImages(
    @Ctx() context: GatewayContext,
    @Arg('first', () => Int, { defaultValue: 24 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
    @Arg('search', () => String, { nullable: true }) search?: string | null,
    @Arg('order', () => ImageOrderType, { defaultValue: ImageOrderType.NEWEST }) order: ImageOrderType = ImageOrderType.NEWEST,
  ): Promise<ImageConnectionType> {
    return toConnection(await listMyImages(context, callerOf(context), { first, after, search, order }), context.user?.id);
  }

  @Query(() => ImageConnectionType, { description: 'Public images of every member, with their creator.' })
  async publicImages(
    @Ctx() context: GatewayContext,
    @Arg('first', () => Int, { defaultValue: 24 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
    @Arg('search', () => String, { nullable: true }) search?: string | null,
    @Arg('order', () => ImageOrderType, { defaultValue: ImageOrderType.NEWEST }) order: ImageOrderType = ImageOrderType.NEWEST,
  ): Promise<ImageConnectionType> {
    return toConnection(await listPublicImages(context, callerOf(context), { first, after, search, order }), context.user?.id);
  }

  @Query(() => ImageType, { description: 'One of my images, or a public one (NOT_FOUND otherwise).' })
  async image(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ImageType> {
    return toImageType(await getImage(context, callerOf(context), id), context.user?.id);
  }

  @Query(() => GenerationJobType)
  async generation(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<GenerationJobType> {
    return toJobType(await getGeneration(context, callerOf(context), id), context.user?.id);
  }

  @Query(() => [GenerationJobType], { description: 'My queued and running generations (to resume showing progress after a reload).' })
  async activeGenerations(@Ctx() context: GatewayContext): Promise<GenerationJobType[]> {
    return (await activeGenerations(context, callerOf(context))).map((job) => toJobType(job, context.user?.id));
  }

  @Query(() => ImageProviderType)
  imageProvider(@Ctx() context: GatewayContext): Promise<ImageProviderType> {
    return imageProvider(context, callerOf(context));
  }

  @Mutation(() => GenerationJobType, {
    description: 'Charges 1 token and queues the job; follow generationUpdates for progress and the image.',
  })
  async generateImage(@Arg('input', () => GenerateImageInputType) input: GenerateImageInputType, @Ctx() context: GatewayContext) {
    return toJobType(await createGeneration(context, callerOf(context), { ...input }), context.user?.id);
  }

  @Mutation(() => GenerationJobType, { description: 'Stops a queued or running generation; its token is refunded.' })
  async cancelGeneration(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<GenerationJobType> {
    return toJobType(await cancelGeneration(context, callerOf(context), id), context.user?.id);
  }

  @Mutation(() => ImageType, {
    description:
      'Owner only. New images are private until published. Publishing takes `rating` (EXPLICIT when never given); a picture matching one moderators removed is refused (CONTENT_REJECTED).',
  })
  async setImageVisibility(
    @Arg('id', () => ID) id: string,
    @Arg('isPublic', () => Boolean) isPublic: boolean,
    @Ctx() context: GatewayContext,
    @Arg('rating', () => ContentRatingType, { nullable: true }) rating?: ContentRatingType | null,
  ): Promise<ImageType> {
    return toImageType(await setImageVisibility(context, callerOf(context), id, { isPublic, rating }), context.user?.id);
  }

  @Mutation(() => ImageType, { description: 'One like per member; liking again changes nothing.' })
  async likeImage(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ImageType> {
    return toImageType(await likeImage(context, callerOf(context), id), context.user?.id);
  }

  @Mutation(() => ImageType)
  async unlikeImage(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ImageType> {
    return toImageType(await unlikeImage(context, callerOf(context), id), context.user?.id);
  }

  @Mutation(() => ID, { description: "Owner only: deletes the image, its files and its likes. Returns the deleted image's id." })
  deleteImage(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<string> {
    return deleteImage(context, callerOf(context), id);
  }

  @Subscription(() => GenerationJobType, {
    description: "Every change to the signed-in member's generation jobs: status, progress, and the image when done.",
    subscribe: ({ context }) => {
      const ctx = context as GatewayContext;
      return watchGenerations(ctx, callerOf(ctx));
    },
  })
  generationUpdates(@Root() job: GenerationJob, @Ctx() context: GatewayContext): GenerationJobType {
    return toJobType(job, context.user?.id);
  }
}
