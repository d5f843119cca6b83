import { type Bus, type Subscription } from '@app/kit';
import { chatRpc } from '@app/schema';
import type { CharactersService } from './characters/characters.service';
import type { ConversationsService } from './conversations/conversations.service';
import type { RepliesService } from './conversations/replies.service';
import type { ChatModeration } from './moderation/moderation.service';
import type { PersonasService } from './personas/personas.service';
import { describeProvider, type ChatProvider } from './providers/chat-provider';

const avatarReply = (avatar: { contentType: string; body: Buffer } | null) =>
  avatar ? { contentType: avatar.contentType, bodyBase64: avatar.body.toString('base64') } : null;

/** Bus endpoints: each validates (by contract), calls one service function, returns its result. */
export function serveChat(
  bus: Bus,
  services: {
    conversations: ConversationsService;
    replies: RepliesService;
    characters: CharactersService;
    personas: PersonasService;
    moderation: ChatModeration;
  },
  provider: ChatProvider,
): Promise<Subscription[]> {
  const { conversations, replies, characters, personas, moderation } = services;
  // The default first, then whatever else the server lists.
  const models = async () => ({
    models: [provider.model, ...((await provider.listModels?.()) ?? []).filter((model) => model !== provider.model)],
    defaultModel: provider.model,
  });
  return Promise.all([
    bus.serve(chatRpc.listConversations, ({ userId, ...page }) => conversations.list(userId, page)),
    bus.serve(chatRpc.getConversation, ({ userId, conversationId }) => conversations.get(userId, conversationId)),
    bus.serve(chatRpc.createConversation, ({ userId, title, characterId, ratings }) =>
      conversations.create(userId, title, characterId ?? null, ratings),
    ),
    bus.serve(chatRpc.renameConversation, ({ userId, conversationId, title }) => conversations.rename(userId, conversationId, title)),
    bus.serve(chatRpc.deleteConversation, async ({ userId, conversationId }) => {
      await conversations.delete(userId, conversationId);
      return { ok: true };
    }),
    bus.serve(chatRpc.listMessages, ({ userId, conversationId, limit, beforeSeq }) =>
      conversations.listMessages(userId, conversationId, limit, beforeSeq ?? null),
    ),
    bus.serve(chatRpc.getMessage, ({ userId, messageId }) => conversations.getMessage(userId, messageId)),
    bus.serve(chatRpc.sendMessage, ({ userId, conversationId, content }) => replies.send(userId, conversationId, content)),
    bus.serve(chatRpc.regenerateReply, ({ userId, conversationId, messageId }) =>
      replies.regenerate(userId, conversationId, messageId ?? null),
    ),
    bus.serve(chatRpc.editMessage, ({ userId, messageId, content }) => replies.edit(userId, messageId, content)),
    bus.serve(chatRpc.continueReply, ({ userId, messageId }) => replies.continueReply(userId, messageId)),
    bus.serve(chatRpc.selectSwipe, ({ userId, messageId, index }) => conversations.selectSwipe(userId, messageId, index)),
    bus.serve(chatRpc.selectBranch, ({ userId, messageId, end }) => conversations.selectBranch(userId, messageId, end)),
    bus.serve(chatRpc.deleteMessage, ({ userId, messageId }) => conversations.deleteMessage(userId, messageId)),
    bus.serve(chatRpc.stopReply, async ({ userId, conversationId }) => ({ stopped: await conversations.stop(userId, conversationId) })),
    bus.serve(chatRpc.providerInfo, async () => describeProvider(provider)),
    bus.serve(chatRpc.listModels, models),
    bus.serve(chatRpc.updateConversationSettings, ({ userId, conversationId, sampling, model }) =>
      conversations.updateSettings(userId, conversationId, { sampling, model }, models),
    ),
    bus.serve(chatRpc.getPersona, ({ userId }) => personas.get(userId)),
    bus.serve(chatRpc.updatePersona, ({ userId, persona }) => personas.update(userId, persona)),

    bus.serve(chatRpc.listCharacters, ({ userId, ...page }) => characters.list(userId, page)),
    bus.serve(chatRpc.listPublicCharacters, ({ ratings, userId: _viewer, ...page }) => characters.listPublic(ratings, page)),
    bus.serve(chatRpc.getCharacter, ({ userId, characterId, ratings }) => characters.get(userId, characterId, ratings)),
    bus.serve(chatRpc.createCharacter, ({ userId, input }) => characters.create(userId, input)),
    bus.serve(chatRpc.updateCharacter, ({ userId, characterId, input }) => characters.update(userId, characterId, input)),
    bus.serve(chatRpc.deleteCharacter, async ({ userId, characterId }) => {
      await characters.delete(userId, characterId);
      return { ok: true };
    }),
    bus.serve(chatRpc.importCharacterCard, ({ userId, fileBase64 }, meta) => characters.importCard(userId, fileBase64, meta.deadlineAt)),
    bus.serve(chatRpc.exportCharacterCard, async ({ userId, characterId, format, ratings }) => {
      const file = await characters.exportCard(userId, characterId, format, ratings);
      return { fileName: file.fileName, contentType: file.contentType, bodyBase64: file.body.toString('base64') };
    }),
    bus.serve(chatRpc.getCharacterAvatar, async ({ userId, characterId, ratings }) =>
      avatarReply(await characters.avatar(userId, characterId, ratings)),
    ),

    bus.serve(chatRpc.describeContent, async ({ characterIds, messageIds }) => ({
      targets: await moderation.describe(characterIds, messageIds),
    })),
    bus.serve(chatRpc.moderatedCharacterAvatar, async ({ characterId }) => avatarReply(await moderation.avatar(characterId))),
  ]);
}
