import type { ChatLiveUpdate, MessagePage } from '@app/schema';
import { Arg, Args, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import {
  chatProvider,
  continueReply,
  createConversation,
  deleteConversation,
  deleteMessage,
  editMessage,
  getConversation,
  getMessage,
  listConversations,
  listMessages,
  regenerateReply,
  renameConversation,
  selectBranch,
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
  DeleteMessagePayloadType,
  EditMessagePayloadType,
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

  @Mutation(() => MessageType, {
    description:
      'Writes another version of a reply (the last one shown when messageId is not given) beside it (1 token); earlier versions stay.',
  })
  async regenerateReply(
    @Arg('conversationId', () => ID) conversationId: string,
    @Ctx() context: GatewayContext,
    @Arg('messageId', () => ID, { nullable: true }) messageId?: string | null,
  ): Promise<MessageType> {
    return toMessageType(await regenerateReply(context, callerOf(context), conversationId, messageId));
  }

  @Mutation(() => EditMessagePayloadType, {
    description:
      "A new version of a message beside the original, which stays. A member's message is sent again as edited and answered (1 token); a reply takes the text as written.",
  })
  async editMessage(
    @Arg('messageId', () => ID) messageId: string,
    @Arg('content', () => String) content: string,
    @Ctx() context: GatewayContext,
  ): Promise<EditMessagePayloadType> {
    const edited = await editMessage(context, callerOf(context), messageId, content);
    return { message: toMessageType(edited.message), reply: edited.reply ? toMessageType(edited.reply) : null };
  }

  @Mutation(() => DeleteMessagePayloadType, {
    description: 'Deletes a message with every message after it on its branches; the branch shown moves to what remains.',
  })
  deleteMessage(@Arg('messageId', () => ID) messageId: string, @Ctx() context: GatewayContext): Promise<DeleteMessagePayloadType> {
    return deleteMessage(context, callerOf(context), messageId);
  }

  @Mutation(() => MessageType, { description: 'A new version of a reply that carries on from its text (1 token); the original stays.' })
  async continueReply(@Arg('messageId', () => ID) messageId: string, @Ctx() context: GatewayContext): Promise<MessageType> {
    return toMessageType(await continueReply(context, callerOf(context), messageId));
  }

  @Mutation(() => ConversationType, { description: 'Shows the newest branch through a message (switching branches).' })
  switchBranch(@Arg('messageId', () => ID) messageId: string, @Ctx() context: GatewayContext): Promise<ConversationType> {
    return selectBranch(context, callerOf(context), messageId, 'latest');
  }

  @Mutation(() => ConversationType, {
    description: 'Ends the branch shown at a message, so the next message sent starts a new branch from it; nothing is removed.',
  })
  branchFrom(@Arg('messageId', () => ID) messageId: string, @Ctx() context: GatewayContext): Promise<ConversationType> {
    return selectBranch(context, callerOf(context), messageId, 'here');
  }

  @Mutation(() => MessageType, { description: 'Shows another version of a message, with the newest branch below it.' })
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
