import type { Bus } from '@app/kit';
import {
  AppError,
  CHAT_LIMITS,
  type CharacterInput,
  type CharacterPatch,
  type ChatLiveUpdate,
  type ContentRating,
  type Message,
  type ModerationTarget,
  type PageInfo,
  type PageWindow,
  type RequestMeta,
  type SamplerSettings,
  chatRpc,
} from '@app/schema';
import { LIVE_TOPICS, type LiveHub } from './live-hub';

/** How long `/api/chat/:id` waits for a reply before answering with what exists (provider time-outs are shorter). */
const REPLY_WAIT_MS = 6 * 60_000;

/** Every item of a listing, page after page, up to `max` (the compatible REST lists answer whole arrays). */
async function readAll<T>(readPage: (window: PageWindow) => Promise<{ items: T[]; pageInfo: PageInfo }>, max: number): Promise<T[]> {
  const items: T[] = [];
  let after: string | null = null;
  while (items.length < max) {
    const page: { items: T[]; pageInfo: PageInfo } = await readPage({
      first: Math.min(CHAT_LIMITS.pageSizeMax, max - items.length),
      after,
    });
    items.push(...page.items);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  return items;
}

/** The gateway's calls to the chat service; GraphQL resolvers and REST handlers share them. */
export class ChatClient {
  constructor(
    private readonly bus: Bus,
    private readonly live: LiveHub,
  ) {}

  listConversations = (userId: string, window: PageWindow, meta: RequestMeta) =>
    this.bus.request(chatRpc.listConversations, { userId, ...window }, meta);
  /** The member's most recently active conversations, as many as the compatible list answers. */
  listRecentConversations = (userId: string, meta: RequestMeta) =>
    readAll((window) => this.listConversations(userId, window, meta), CHAT_LIMITS.conversationsMax);
  getConversation = (userId: string, conversationId: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.getConversation, { userId, conversationId }, meta);
  createConversation = (
    userId: string,
    title: string | null | undefined,
    characterId: string | null,
    ratings: ContentRating[],
    meta: RequestMeta,
  ) => this.bus.request(chatRpc.createConversation, { userId, title, characterId, ratings }, meta);
  renameConversation = (userId: string, conversationId: string, title: string | undefined, meta: RequestMeta) =>
    this.bus.request(chatRpc.renameConversation, { userId, conversationId, title }, meta);
  deleteConversation = (userId: string, conversationId: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.deleteConversation, { userId, conversationId }, meta);
  listMessages = (userId: string, conversationId: string, limit: number, beforeSeq: number | null, meta: RequestMeta) =>
    this.bus.request(chatRpc.listMessages, { userId, conversationId, limit, beforeSeq }, meta);
  getMessage = (userId: string, messageId: string, meta: RequestMeta) => this.bus.request(chatRpc.getMessage, { userId, messageId }, meta);
  sendMessage = (userId: string, conversationId: string, content: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.sendMessage, { userId, conversationId, content }, meta);
  regenerateReply = (userId: string, conversationId: string, messageId: string | null, meta: RequestMeta) =>
    this.bus.request(chatRpc.regenerateReply, { userId, conversationId, messageId }, meta);
  editMessage = (userId: string, messageId: string, content: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.editMessage, { userId, messageId, content }, meta);
  deleteMessage = (userId: string, messageId: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.deleteMessage, { userId, messageId }, meta);
  continueReply = (userId: string, messageId: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.continueReply, { userId, messageId }, meta);
  selectBranch = (userId: string, messageId: string, end: 'latest' | 'here', meta: RequestMeta) =>
    this.bus.request(chatRpc.selectBranch, { userId, messageId, end }, meta);
  selectSwipe = (userId: string, messageId: string, index: number, meta: RequestMeta) =>
    this.bus.request(chatRpc.selectSwipe, { userId, messageId, index }, meta);
  stopReply = async (userId: string, conversationId: string, meta: RequestMeta) =>
    (await this.bus.request(chatRpc.stopReply, { userId, conversationId }, meta)).stopped;
  providerInfo = (meta: RequestMeta) => this.bus.request(chatRpc.providerInfo, {}, meta);
  listModels = (meta: RequestMeta) => this.bus.request(chatRpc.listModels, {}, meta);
  updateConversationSettings = (
    userId: string,
    conversationId: string,
    settings: { sampling?: SamplerSettings | null; model?: string | null },
    meta: RequestMeta,
  ) => this.bus.request(chatRpc.updateConversationSettings, { userId, conversationId, ...settings }, meta);
  getPersona = (userId: string, meta: RequestMeta) => this.bus.request(chatRpc.getPersona, { userId }, meta);
  updatePersona = (userId: string, persona: { name: string; description: string }, meta: RequestMeta) =>
    this.bus.request(chatRpc.updatePersona, { userId, persona }, meta);

  listCharacters = (userId: string, window: PageWindow, meta: RequestMeta) =>
    this.bus.request(chatRpc.listCharacters, { userId, ...window }, meta);
  /** The member's newest characters, as many as the compatible list answers. */
  listRecentCharacters = (userId: string, meta: RequestMeta) =>
    readAll((window) => this.listCharacters(userId, window, meta), CHAT_LIMITS.charactersMax);
  listPublicCharacters = (userId: string, window: PageWindow, ratings: ContentRating[], meta: RequestMeta) =>
    this.bus.request(chatRpc.listPublicCharacters, { userId, ...window, ratings }, meta);
  getCharacter = (userId: string, characterId: string, ratings: ContentRating[], meta: RequestMeta) =>
    this.bus.request(chatRpc.getCharacter, { userId, characterId, ratings }, meta);
  describeContent = async (characterIds: string[], messageIds: string[], meta: RequestMeta): Promise<ModerationTarget[]> =>
    (await this.bus.request(chatRpc.describeContent, { characterIds, messageIds }, meta)).targets;
  createCharacter = (userId: string, input: CharacterInput, meta: RequestMeta) =>
    this.bus.request(chatRpc.createCharacter, { userId, input }, meta);
  updateCharacter = (userId: string, characterId: string, input: CharacterPatch, meta: RequestMeta) =>
    this.bus.request(chatRpc.updateCharacter, { userId, characterId, input }, meta);
  deleteCharacter = (userId: string, characterId: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.deleteCharacter, { userId, characterId }, meta);
  importCharacterCard = (userId: string, file: Buffer, meta: RequestMeta) =>
    this.bus.request(chatRpc.importCharacterCard, { userId, fileBase64: file.toString('base64') }, meta, 30_000);
  exportCharacterCard = (
    userId: string,
    characterId: string,
    format: 'png' | 'json_v2' | 'json_v3',
    ratings: ContentRating[],
    meta: RequestMeta,
  ) => this.bus.request(chatRpc.exportCharacterCard, { userId, characterId, format, ratings }, meta, 30_000);
  characterAvatar = (userId: string, characterId: string, ratings: ContentRating[], meta: RequestMeta) =>
    this.bus.request(chatRpc.getCharacterAvatar, { userId, characterId, ratings }, meta);
  /** Moderators only: any character's avatar, whatever its state. */
  moderatedCharacterAvatar = (characterId: string, meta: RequestMeta) =>
    this.bus.request(chatRpc.moderatedCharacterAvatar, { characterId }, meta);

  /**
   * Sends a message and waits until its reply has finished (the compatible REST call). Live updates
   * answer at once; a slow poll covers an update lost in transit.
   */
  async sendAndWait(userId: string, conversationId: string, content: string, meta: RequestMeta) {
    // Ownership first, so a stranger's conversation id never gets a live listener.
    await this.getConversation(userId, conversationId, meta);
    const updates = (await this.live.listen(LIVE_TOPICS.conversation, conversationId)) as AsyncIterableIterator<ChatLiveUpdate>;
    try {
      const sent = await this.sendMessage(userId, conversationId, content, meta);
      const assistantId = sent.assistantMessage.id;
      const deadline = Date.now() + REPLY_WAIT_MS;
      let finished: Message | null = null;
      while (!finished && Date.now() < deadline) {
        const next = await Promise.race([
          updates.next(),
          new Promise<'poll'>((resolve) => setTimeout(() => resolve('poll'), 2_000).unref()),
        ]);
        if (next === 'poll') {
          const current = await this.getMessage(userId, assistantId, meta);
          if (current.status !== 'streaming') finished = current;
        } else if (!next.done && next.value.type === 'message' && next.value.message.id === assistantId) {
          if (next.value.message.status !== 'streaming') finished = next.value.message;
        } else if (!next.done && next.value.type === 'deleted') {
          throw new AppError('NOT_FOUND', 'Conversation not found');
        }
      }
      if (!finished) throw new AppError('TIMEOUT', 'The reply is taking too long; it will appear in the conversation when ready.');
      return { userMessage: sent.userMessage, assistantMessage: finished };
    } finally {
      await updates.return?.();
    }
  }
}
