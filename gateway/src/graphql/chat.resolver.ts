import type { ChatLiveUpdate, MessagePage } from '@app/schema';
import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  chatProvider,
  createConversation,
  deleteConversation,
  getConversation,
  getMessage,
  listConversations,
  listMessages,
  regenerateReply,
  renameConversation,
  selectSwipe,
  sendMessage,
  stopReply,
  watchConversation,
} from '../conversations/conversations.operations';
import { encodeCursor, toConnection, toMessageType, toUpdateType } from './chat.mappers';
import {
  ChatProviderType,
  ConversationConnectionType,
  ConversationType,
  ConversationUpdateType,
  MessageConnectionType,
  MessageType,
  PageArgsType,
  SendMessagePayloadType,
} from './chat.types';
import { type GatewayContext, callerOf } from './context';

/** Messages as a connection: oldest first within the page; `hasNextPage` when newer ones follow the page. */
function toMessageConnection(page: MessagePage & { hasNewer: boolean }): MessageConnectionType {
  const nodes = page.messages.map(toMessageType);
  const edges = page.messages.map((message, i) => ({ cursor: encodeCursor(message.seq), node: nodes[i]! }));
  return {
    edges,
    nodes,
    pageInfo: {
      hasPreviousPage: page.hasOlder,
      hasNextPage: page.hasNewer,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

@Resolver()
export class ChatResolver {
  @Query(() => ConversationConnectionType, {
    description: "The signed-in member's conversations, most recently active first (100 when neither first nor last is given).",
  })
  async conversations(@Args(() => PageArgsType) page: PageArgsType, @Ctx() context: GatewayContext): Promise<ConversationConnectionType> {
    return toConnection(await listConversations(context, callerOf(context), page), (c) => c);
  }

  @Query(() => ConversationType, { description: 'One of my conversations (NOT_FOUND for anyone else).' })
  conversation(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ConversationType> {
    return getConversation(context, callerOf(context), id);
  }

  @Query(() => MessageConnectionType, { description: 'The newest `last` messages (before `before`), oldest first within the page.' })
  async messages(
    @Arg('conversationId', () => ID) conversationId: string,
    @Ctx() context: GatewayContext,
    @Arg('last', () => Int, { defaultValue: 30 }) last: number,
    @Arg('before', () => String, { nullable: true }) before?: string | null,
  ): Promise<MessageConnectionType> {
    return toMessageConnection(await listMessages(context, callerOf(context), conversationId, { last, before }));
  }

  @Query(() => MessageType)
  async message(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<MessageType> {
    return toMessageType(await getMessage(context, callerOf(context), id));
  }

  @Query(() => ChatProviderType, { description: 'What writes replies; the UI labels the demo responder as a demo.' })
  chatProvider(@Ctx() context: GatewayContext): Promise<ChatProviderType> {
    return chatProvider(context, callerOf(context));
  }

  @Mutation(() => ConversationType, { description: "Title defaults to 'New Conversation'; with a character, it opens with its greeting." })
  createConversation(
    @Ctx() context: GatewayContext,
    @Arg('title', () => String, { nullable: true }) title?: string | null,
    @Arg('characterId', () => ID, { nullable: true }) characterId?: string | null,
  ): Promise<ConversationType> {
    return createConversation(context, callerOf(context), { title, characterId });
  }

  @Mutation(() => ConversationType)
  renameConversation(
    @Arg('id', () => ID) id: string,
    @Arg('title', () => String) title: string,
    @Ctx() context: GatewayContext,
  ): Promise<ConversationType> {
    return renameConversation(context, callerOf(context), id, { title });
  }

  @Mutation(() => ID, { description: "Returns the deleted conversation's id." })
  deleteConversation(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<string> {
    return deleteConversation(context, callerOf(context), id);
  }

  @Mutation(() => SendMessagePayloadType, {
    description: 'Stores the message and starts the reply (1 token); the reply streams through conversationUpdates.',
  })
  async sendMessage(
    @Arg('conversationId', () => ID, { nullable: true }) conversationId: string | null,
    @Arg('content', () => String) content: string,
    @Ctx() context: GatewayContext,
  ): Promise<SendMessagePayloadType> {
    const sent = await sendMessage(context, callerOf(context), conversationId, content);
    return { userMessage: toMessageType(sent.userMessage), assistantMessage: toMessageType(sent.assistantMessage) };
  }

  @Mutation(() => MessageType, { description: 'Writes another version of the last reply (1 token); earlier versions stay as swipes.' })
  async regenerateReply(@Arg('conversationId', () => ID) conversationId: string, @Ctx() context: GatewayContext): Promise<MessageType> {
    return toMessageType(await regenerateReply(context, callerOf(context), conversationId));
  }

  @Mutation(() => MessageType, { description: 'Shows another version of a reply.' })
  async selectSwipe(
    @Arg('messageId', () => ID) messageId: string,
    @Arg('index', () => Int) index: number,
    @Ctx() context: GatewayContext,
  ): Promise<MessageType> {
    return toMessageType(await selectSwipe(context, callerOf(context), messageId, index));
  }

  @Mutation(() => Boolean, { description: 'Stops the reply being written; text so far is kept.' })
  stopReply(@Arg('conversationId', () => ID) conversationId: string, @Ctx() context: GatewayContext): Promise<boolean> {
    return stopReply(context, callerOf(context), conversationId);
  }

  @Subscription(() => ConversationUpdateType, {
    description: 'Typing state, reply text as it is written, and message changes in one of my conversations.',
    subscribe: ({ args, context }) => {
      const ctx = context as GatewayContext;
      return watchConversation(ctx, callerOf(ctx), String((args as { conversationId: string }).conversationId));
    },
  })
  conversationUpdates(@Arg('conversationId', () => ID) _conversationId: string, @Root() update: ChatLiveUpdate): ConversationUpdateType {
    return toUpdateType(update);
  }
}
