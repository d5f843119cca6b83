import { AppError, type ChatLiveUpdate } from '@app/schema';
import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { LIVE_TOPICS } from '../live-hub';
import { decodeCursor, encodeCursor, toConnection, toMessageType, toUpdateType } from './chat.mappers';
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
import { type GatewayContext, requireUser, viewerRatings } from './context';

const MAX_PAGE = 100;

@Resolver()
export class ChatResolver {
  @Query(() => ConversationConnectionType, {
    description: "The signed-in member's conversations, most recently active first (100 when neither first nor last is given).",
  })
  async conversations(@Args(() => PageArgsType) page: PageArgsType, @Ctx() context: GatewayContext): Promise<ConversationConnectionType> {
    return toConnection(await context.chat.listConversations(requireUser(context).id, page, context.meta), (c) => c);
  }

  @Query(() => ConversationType, { description: 'One of my conversations (NOT_FOUND for anyone else).' })
  conversation(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<ConversationType> {
    return context.chat.getConversation(requireUser(context).id, id, context.meta);
  }

  @Query(() => MessageConnectionType, { description: 'The newest `last` messages (before `before`), oldest first within the page.' })
  async messages(
    @Arg('conversationId', () => ID) conversationId: string,
    @Ctx() context: GatewayContext,
    @Arg('last', () => Int, { defaultValue: 30 }) last: number,
    @Arg('before', () => String, { nullable: true }) before?: string | null,
  ): Promise<MessageConnectionType> {
    if (last < 1 || last > MAX_PAGE) throw new AppError('VALIDATION_FAILED', `last must be between 1 and ${MAX_PAGE}`);
    const beforeSeq = before ? decodeCursor(before) : null;
    if (before && beforeSeq === null) throw new AppError('VALIDATION_FAILED', 'Invalid cursor');
    const page = await context.chat.listMessages(requireUser(context).id, conversationId, last, beforeSeq, context.meta);
    const nodes = page.messages.map(toMessageType);
    const edges = page.messages.map((message, i) => ({ cursor: encodeCursor(message.seq), node: nodes[i]! }));
    return {
      edges,
      nodes,
      pageInfo: {
        hasPreviousPage: page.hasOlder,
        hasNextPage: beforeSeq !== null,
        startCursor: edges[0]?.cursor ?? null,
        endCursor: edges[edges.length - 1]?.cursor ?? null,
      },
    };
  }

  @Query(() => MessageType)
  async message(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<MessageType> {
    return toMessageType(await context.chat.getMessage(requireUser(context).id, id, context.meta));
  }

  @Query(() => ChatProviderType, { description: 'What writes replies; the UI labels the demo responder as a demo.' })
  chatProvider(@Ctx() context: GatewayContext): Promise<ChatProviderType> {
    requireUser(context);
    return context.chat.providerInfo(context.meta);
  }

  @Mutation(() => ConversationType, { description: "Title defaults to 'New Conversation'; with a character, it opens with its greeting." })
  createConversation(
    @Ctx() context: GatewayContext,
    @Arg('title', () => String, { nullable: true }) title?: string | null,
    @Arg('characterId', () => ID, { nullable: true }) characterId?: string | null,
  ): Promise<ConversationType> {
    return context.chat.createConversation(
      requireUser(context).id,
      title ?? undefined,
      characterId ?? null,
      viewerRatings(context),
      context.meta,
    );
  }

  @Mutation(() => ConversationType)
  renameConversation(
    @Arg('id', () => ID) id: string,
    @Arg('title', () => String) title: string,
    @Ctx() context: GatewayContext,
  ): Promise<ConversationType> {
    return context.chat.renameConversation(requireUser(context).id, id, title, context.meta);
  }

  @Mutation(() => ID, { description: "Returns the deleted conversation's id." })
  async deleteConversation(@Arg('id', () => ID) id: string, @Ctx() context: GatewayContext): Promise<string> {
    await context.chat.deleteConversation(requireUser(context).id, id, context.meta);
    return id;
  }

  @Mutation(() => SendMessagePayloadType, {
    description: 'Stores the message and starts the reply (1 token); the reply streams through conversationUpdates.',
  })
  async sendMessage(
    @Arg('conversationId', () => ID, { nullable: true }) conversationId: string | null,
    @Arg('content', () => String) content: string,
    @Ctx() context: GatewayContext,
  ): Promise<SendMessagePayloadType> {
    const user = requireUser(context);
    if (!conversationId) throw new AppError('VALIDATION_FAILED', 'No conversation selected');
    const sent = await context.chat.sendMessage(user.id, conversationId, content, context.meta);
    return { userMessage: toMessageType(sent.userMessage), assistantMessage: toMessageType(sent.assistantMessage) };
  }

  @Mutation(() => MessageType, { description: 'Writes another version of the last reply (1 token); earlier versions stay as swipes.' })
  async regenerateReply(@Arg('conversationId', () => ID) conversationId: string, @Ctx() context: GatewayContext): Promise<MessageType> {
    return toMessageType(await context.chat.regenerateReply(requireUser(context).id, conversationId, context.meta));
  }

  @Mutation(() => MessageType, { description: 'Shows another version of a reply.' })
  async selectSwipe(
    @Arg('messageId', () => ID) messageId: string,
    @Arg('index', () => Int) index: number,
    @Ctx() context: GatewayContext,
  ): Promise<MessageType> {
    if (index < 0) throw new AppError('VALIDATION_FAILED', 'index must be 0 or more');
    return toMessageType(await context.chat.selectSwipe(requireUser(context).id, messageId, index, context.meta));
  }

  @Mutation(() => Boolean, { description: 'Stops the reply being written; text so far is kept.' })
  stopReply(@Arg('conversationId', () => ID) conversationId: string, @Ctx() context: GatewayContext): Promise<boolean> {
    return context.chat.stopReply(requireUser(context).id, conversationId, context.meta);
  }

  @Subscription(() => ConversationUpdateType, {
    description: 'Typing state, reply text as it is written, and message changes in one of my conversations.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GatewayContext;
      const conversationId = String((args as { conversationId: string }).conversationId);
      // Ownership is checked before listening: a stranger's conversation is NOT_FOUND.
      await ctx.chat.getConversation(requireUser(ctx).id, conversationId, ctx.meta);
      return ctx.live.listen(LIVE_TOPICS.conversation, conversationId);
    },
  })
  conversationUpdates(@Arg('conversationId', () => ID) _conversationId: string, @Root() update: ChatLiveUpdate): ConversationUpdateType {
    return toUpdateType(update);
  }
}
