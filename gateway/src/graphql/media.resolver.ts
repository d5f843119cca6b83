import { AppError, type GenerationJob, type ImagePage } from '@app/schema';
import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { LIVE_TOPICS } from '../live-hub';
import { type GatewayContext, requireUser, viewerRatings } from './context';
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

const MAX_PAGE = 100;

function checkPageSize(first: number): void {
  if (first < 1 || first > MAX_PAGE) throw new AppError('VALIDATION_FAILED', `first must be between 1 and ${MAX_PAGE}`);
}

function toConnection(page: ImagePage, viewerId: string): ImageConnectionType {
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
    checkPageSize(first);
    const user = requireUser(context);
    const page = await context.media.listMyImages(user.id, { first, after, search, order }, context.meta);
    return toConnection(page, user.id);
  }

  @Query(() => ImageConnectionType, { description: 'Public images of every member, with their creator.' })
  async publicImages(
    @Ctx() context: GatewayContext,
    @Arg('first', () => Int, { defaultValue: 24 }) first: number,
    @Arg('after', () => String, { nullable: true }) after?: string | null,
    @Arg('search', () => String, { nullable: true }) search?: string | null,
    @Arg('order', () => ImageOrderType, { defaultValue: ImageOrderType.NEWEST }) order: ImageOrderType = ImageOrderType.NEWEST,
  ): Promise<ImageConnectionType> {
    checkPageSize(first);
    const user = requireUser(context);
    const page = await context.media.listPublicImages(user.id, { first, after, search, order }, viewerRatings(context), context.meta);
    return toConnection(page, user.id);
  }

  @Query(() => ImageType, { description: 'One of my images, or a public one (NOT_FOUND otherwise).' })
  async image(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ImageType> {
    const user = requireUser(context);
    return toImageType(await context.media.getImage(user.id, id, viewerRatings(context), context.meta), user.id);
  }

  @Query(() => GenerationJobType)
  async generation(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<GenerationJobType> {
    const user = requireUser(context);
    return toJobType(await context.media.getGeneration(user.id, id, context.meta), user.id);
  }

  @Query(() => [GenerationJobType], { description: 'My queued and running generations (to resume showing progress after a reload).' })
  async activeGenerations(@Ctx() context: GatewayContext): Promise<GenerationJobType[]> {
    const user = requireUser(context);
    return (await context.media.activeGenerations(user.id, context.meta)).map((job) => toJobType(job, user.id));
  }

  @Query(() => ImageProviderType)
  imageProvider(@Ctx() context: GatewayContext): Promise<ImageProviderType> {
    requireUser(context);
    return context.media.providerInfo(context.meta);
  }

  @Mutation(() => GenerationJobType, {
    description: 'Charges 1 token and queues the job; follow generationUpdates for progress and the image.',
  })
  async generateImage(@Arg('input', () => GenerateImageInputType) input: GenerateImageInputType, @Ctx() context: GatewayContext) {
    const user = requireUser(context);
    return toJobType(await context.media.createGeneration(user.id, { ...input }, context.meta, context.clientIp), user.id);
  }

  @Mutation(() => GenerationJobType, { description: 'Stops a queued or running generation; its token is refunded.' })
  async cancelGeneration(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<GenerationJobType> {
    const user = requireUser(context);
    return toJobType(await context.media.cancelGeneration(user.id, id, context.meta), user.id);
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
    const user = requireUser(context);
    return toImageType(await context.media.setVisibility(user.id, id, isPublic, rating ?? null, context.meta), user.id);
  }

  @Mutation(() => ImageType, { description: 'One like per member; liking again changes nothing.' })
  async likeImage(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ImageType> {
    const user = requireUser(context);
    return toImageType(await context.media.likeImage(user.id, id, context.meta), user.id);
  }

  @Mutation(() => ImageType)
  async unlikeImage(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ImageType> {
    const user = requireUser(context);
    return toImageType(await context.media.unlikeImage(user.id, id, context.meta), user.id);
  }

  @Mutation(() => ID, { description: "Owner only: deletes the image, its files and its likes. Returns the deleted image's id." })
  async deleteImage(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<string> {
    await context.media.deleteImage(requireUser(context).id, id, context.meta);
    return id;
  }

  @Subscription(() => GenerationJobType, {
    description: "Every change to the signed-in member's generation jobs: status, progress, and the image when done.",
    subscribe: ({ context }) => {
      const ctx = context as GatewayContext;
      return ctx.live.listen(LIVE_TOPICS.generation, requireUser(ctx).id);
    },
  })
  generationUpdates(@Root() job: GenerationJob, @Ctx() context: GatewayContext): GenerationJobType {
    return toJobType(job, requireUser(context).id);
  }
}
