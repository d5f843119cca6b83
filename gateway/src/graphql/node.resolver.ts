import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { type FoundNode, findNode } from '../nodes/nodes.operations';
import { findStory } from '../stories/stories.operations';
import { toCharacterType, toMessageType } from './chat.mappers';
import { type GatewayContext, callerOf } from './context';
import { toImageType, toJobType } from './media.mappers';
import { toStoryType } from './story.mappers';
import { type NodeValue, NodeType } from './types';

/** Stories are nodes too; they are read beside the other kinds (an id names at most one item). */
type NodeOrStory = NodeValue | { id: string; __typename: 'Story' };

function toNodeValue(found: FoundNode, viewerId: string | undefined): NodeValue {
  switch (found.type) {
    case 'Conversation':
      return { ...found.item, __typename: 'Conversation' };
    case 'Message':
      return { ...toMessageType(found.item), __typename: 'Message' };
    case 'Character':
      return { ...toCharacterType(found.item, viewerId), __typename: 'Character' };
    case 'Image':
      return { ...toImageType(found.item, viewerId), __typename: 'Image' };
    case 'GenerationJob':
      return { ...toJobType(found.item, viewerId), __typename: 'GenerationJob' };
  }
}

@Resolver()
export class NodeResolver {
  @Query(() => NodeType, {
    nullable: true,
    description:
      'The item with this id, if I may see it (null otherwise): my conversations, messages, stories and generations, my or public characters and images.',
  })
  async node(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<NodeOrStory | null> {
    const caller = callerOf(context);
    const [found, story] = await Promise.all([findNode(context, caller, id), findStory(context, caller, id)]);
    if (story) return { ...toStoryType(story), __typename: 'Story' };
    return found && toNodeValue(found, context.user?.id);
  }
}
