import { AppError, isUuid } from '@app/schema';
import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { toCharacterType, toMessageType } from './chat.mappers';
import { type GatewayContext, requireUser, viewerRatings } from './context';
import { toImageType, toJobType } from './media.mappers';
import { type NodeValue, NodeType } from './types';

const isNotFound = (error: unknown) => error instanceof AppError && error.code === 'NOT_FOUND';

/**
 * Where an id can be, each read through the call that checks ownership and visibility: ids are UUIDs,
 * unique across types, so at most one of them finds it.
 */
function lookups(context: GatewayContext, userId: string, id: string): Promise<NodeValue>[] {
  const { chat, media, meta } = context;
  const ratings = viewerRatings(context);
  return [
    chat.getConversation(userId, id, meta).then((conversation) => ({ ...conversation, __typename: 'Conversation' as const })),
    chat.getMessage(userId, id, meta).then((message) => ({ ...toMessageType(message), __typename: 'Message' as const })),
    chat
      .getCharacter(userId, id, ratings, meta)
      .then((character) => ({ ...toCharacterType(character, userId), __typename: 'Character' as const })),
    media.getImage(userId, id, ratings, meta).then((image) => ({ ...toImageType(image, userId), __typename: 'Image' as const })),
    media.getGeneration(userId, id, meta).then((job) => ({ ...toJobType(job, userId), __typename: 'GenerationJob' as const })),
  ];
}

@Resolver()
export class NodeResolver {
  @Query(() => NodeType, {
    nullable: true,
    description:
      'The item with this id, if I may see it (null otherwise): my conversations, messages and generations, my or public characters and images.',
  })
  async node(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<NodeValue | null> {
    const user = requireUser(context);
    if (!isUuid(id)) throw new AppError('VALIDATION_FAILED', 'id must be a UUID');
    try {
      return await Promise.any(lookups(context, user.id, id));
    } catch (error) {
      // Every place answered: not found anywhere is null; an outage somewhere is not hidden as one.
      const failures = error instanceof AggregateError ? (error.errors as unknown[]) : [error];
      const failure = failures.find((reason) => !isNotFound(reason));
      if (failure !== undefined) throw failure;
      return null;
    }
  }
}
