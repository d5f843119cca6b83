import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { type FoundNode, findNode } from '../nodes/nodes.operations';
import { toCharacterType, toMessageType } from './chat.mappers';
import { type GatewayContext, callerOf } from './context';
import { toImageType, toJobType } from './media.mappers';
import { type NodeValue, NodeType } from './types';

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
      'The item with this id, if I may see it (null otherwise): my conversations, messages and generations, my or public characters and images.',
  })
  async node(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<NodeValue | null> {
    const found = await findNode(context, callerOf(context), id);
    return found && toNodeValue(found, context.user?.id);
  }
}
