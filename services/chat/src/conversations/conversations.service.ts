import { randomUUID } from 'node:crypto';
import { type Transaction, logger } from '@app/kit';
import type { ContentPolicy } from '@app/policy';
import {
  AppError,
  CHAT_LIMITS,
  type ChatLiveUpdate,
  type ContentRating,
  type Conversation,
  ConversationTitle,
  type ConversationPage,
  DEFAULT_CONVERSATION_TITLE,
  type Message,
  type MessagePage,
  type PageRequest,
  type SamplerSettings,
  chatEvents,
} from '@app/schema';
import type { z } from 'zod';
import type { CharacterRow } from '../characters/characters.repository';
import type { CharactersService } from '../characters/characters.service';
import type { ChatConfig } from '../chat.config';
import type { ChatStore } from '../chat.store';
import { toPage } from '../keyset-page';
import type { Generations } from '../generation/generation';
import { displayNameOf, expandMacros } from '../generation/macros';
import { withoutEmptySettings } from '../generation/sampling';
import type { MemberPersona, Persona } from '../generation/prompt-builder';
import { type ConversationRow, type ConversationsRepository, type MessageRow, toConversation, toMessage } from './conversations.repository';

const notFound = () => new AppError('NOT_FOUND', 'Conversation not found');
const busy = () => new AppError('CONFLICT', 'Wait for the current reply to finish, or stop it.');

/** Validates member input against its contract; the first problem is the member's message. */
export function parseInput<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('VALIDATION_FAILED', result.error.issues[0]?.message ?? 'Invalid input');
  return result.data;
}

/** The character as prompts read it; `{{char}}` is its V3 nickname when the card has one. */
export function personaOf(character: CharacterRow): Persona {
  return {
    name: displayNameOf(character.card, character.name),
    description: character.description ?? '',
    personality: character.personality_text ?? character.traits.join(', '),
    scenario: character.scenario,
    exampleDialogue: character.example_dialogue,
    systemPrompt: character.system_prompt,
    postHistoryInstructions: character.card.post_history_instructions ?? '',
    ...(character.card.character_book !== undefined ? { characterBook: character.card.character_book } : {}),
  };
}

/** What a conversation keeps of its character, should the character go: everything but the lorebook, which can be large. */
export function snapshotOf(persona: Persona): Record<string, unknown> {
  const { characterBook: _book, ...kept } = persona;
  return kept;
}

/** Conversations and the tree of their messages: listing, reading, branches and versions; replies are RepliesService's. */
export class ConversationsService {
  constructor(
    private readonly store: ChatStore,
    private readonly characters: CharactersService,
    private readonly engine: Pick<Generations, 'requestStop'>,
    private readonly live: (update: ChatLiveUpdate) => Promise<void>,
    private readonly config: Pick<ChatConfig, 'conversationsPerMember' | 'conversationsPerMinute'>,
    private readonly policy: ContentPolicy,
    private readonly members: { forPrompt(userId: string): Promise<MemberPersona> },
  ) {}

  async list(userId: string, request: PageRequest): Promise<ConversationPage> {
    const [rows, totalCount] = await this.store.run(
      async ({ conversations }) =>
        [await conversations.listByOwner(userId, request, CHAT_LIMITS.pageSizeMax), await conversations.countByOwner(userId)] as const,
    );
    return { ...toPage(rows, request, toConversation), totalCount };
  }

  async get(userId: string, id: string): Promise<Conversation> {
    return toConversation(await this.store.run(({ conversations }) => this.owned(conversations, userId, id)));
  }

  /** `ratings`: what the member may see; another's public character above them cannot be started either. */
  async create(userId: string, rawTitle: unknown, characterId: string | null, ratings: readonly ContentRating[]): Promise<Conversation> {
    const title = parseInput(ConversationTitle, rawTitle ?? '') || DEFAULT_CONVERSATION_TITLE;
    await this.policy.assertAllowed([title], { path: 'chat.title', userId });
    const character = characterId ? await this.characters.findVisibleRow(userId, characterId, ratings) : null;
    if (characterId && !character) throw new AppError('NOT_FOUND', 'Character not found');
    const macros = character ? { char: personaOf(character).name, user: (await this.members.forPrompt(userId)).name } : null;
    const id = randomUUID();
    const row = await this.store.transaction(async ({ conversations }, tx) => {
      await this.assertRoomForConversation(conversations, userId, tx);
      const created = await conversations.insert({
        id,
        ownerId: userId,
        title,
        characterId,
        snapshot: character ? snapshotOf(personaOf(character)) : null,
      });
      // A chat with a character opens with its greeting; alternate greetings are versions of it (sibling first messages).
      const greetings = character ? [character.greeting, ...(character.card.alternate_greetings ?? [])].filter((g) => g.trim()) : [];
      const opening: string[] = [];
      for (const greeting of greetings) {
        const message = await conversations.insertMessage({
          id: randomUUID(),
          conversationId: id,
          ownerId: userId,
          role: 'assistant',
          content: expandMacros(greeting, macros!),
          status: 'complete',
          model: null,
          parentId: null,
          debitKey: null,
          leaseMs: null,
        });
        opening.push(message.id);
      }
      if (opening.length > 1) await conversations.setActiveLeaf(id, opening[0]!);
      await tx.emit(chatEvents.conversationCreated, { conversationId: id, characterId }, userId);
      return created;
    });
    return toConversation(row);
  }

  async rename(userId: string, id: string, rawTitle: unknown): Promise<Conversation> {
    // A rename that names no title changes nothing, as any field left out of an update.
    if (rawTitle === undefined) return this.get(userId, id);
    const title = parseInput(ConversationTitle, rawTitle) || DEFAULT_CONVERSATION_TITLE;
    await this.policy.assertAllowed([title], { path: 'chat.title', userId });
    const row = await this.store.run(({ conversations }) => conversations.rename(id, userId, title));
    if (!row) throw notFound();
    return toConversation(row);
  }

  async delete(userId: string, id: string): Promise<void> {
    const streaming = await this.store.run(({ conversations }) => conversations.streamingIn(id));
    await this.store.transaction(async ({ conversations }, tx) => {
      if (!(await conversations.delete(id, userId))) throw notFound();
      await tx.emit(chatEvents.conversationDeleted, { conversationId: id }, userId);
    });
    if (streaming) await this.engine.requestStop(streaming.id);
    await this.publishLive({ type: 'deleted', conversationId: id });
  }

  /** A page of the branch shown, newest messages first read, each with its versions. */
  async listMessages(userId: string, conversationId: string, limit: number, beforeSeq: number | null): Promise<MessagePage> {
    const { page, versions } = await this.store.run(async ({ conversations }) => {
      await this.owned(conversations, userId, conversationId);
      const read = await conversations.page(conversationId, limit, beforeSeq);
      return { page: read, versions: await conversations.versionsOf(read.rows) };
    });
    return { messages: page.rows.map((row) => toMessage(row, versions.get(row.id))), hasOlder: page.hasOlder };
  }

  async getMessage(userId: string, messageId: string): Promise<Message> {
    return this.store.run(async ({ conversations }) => {
      const row = await this.ownedMessage(conversations, userId, messageId);
      return toMessage(row, (await conversations.versionsOf([row])).get(row.id));
    });
  }

  /**
   * A conversation's own sampler settings and model (null clears them). A model must be one the provider lists; the
   * provider's default needs no setting.
   */
  async updateSettings(
    userId: string,
    id: string,
    input: { sampling?: SamplerSettings | null; model?: string | null },
    models: () => Promise<{ models: string[]; defaultModel: string }>,
  ): Promise<Conversation> {
    const current = await this.store.run(({ conversations }) => this.owned(conversations, userId, id));
    const sampling = input.sampling === undefined ? current.sampling : withoutEmptySettings(input.sampling);
    let model = input.model === undefined ? current.model : input.model?.trim() || null;
    if (model) {
      const listed = await models();
      if (model === listed.defaultModel) model = null;
      else if (!listed.models.includes(model)) throw new AppError('VALIDATION_FAILED', `The provider has no model named "${model}".`);
    }
    const row = await this.store.run(({ conversations }) => conversations.updateSettings(id, userId, sampling, model));
    if (!row) throw notFound();
    return toConversation(row);
  }

  /** Shows version `index` of a message (a sibling), continuing to the newest message below it. */
  async selectSwipe(userId: string, messageId: string, index: number): Promise<Message> {
    const { chosen, versions, conversation } = await this.store.transaction(async ({ conversations }, tx) => {
      const current = await this.ownedMessage(conversations, userId, messageId);
      await this.owned(conversations, userId, current.conversation_id, tx);
      // Moving the branch shown away from a reply being written would hide it mid-stream.
      if (await conversations.streamingIn(current.conversation_id)) throw busy();
      const all = (await conversations.versionsOf([current])).get(current.id) ?? [current];
      if (index >= all.length) throw new AppError('VALIDATION_FAILED', `This message has ${all.length} version(s).`);
      const version = all[index]!;
      const conversation = await conversations.setActiveLeaf(current.conversation_id, await conversations.newestBelow(version.id));
      return { chosen: version, versions: all, conversation };
    });
    await this.publishBranch(conversation);
    return toMessage(chosen, versions);
  }

  /** `latest`: the newest branch through the message; `here`: the branch shown ends at it, and the next message branches off. */
  async selectBranch(userId: string, messageId: string, end: 'latest' | 'here'): Promise<Conversation> {
    const row = await this.store.transaction(async ({ conversations }, tx) => {
      const message = await this.ownedMessage(conversations, userId, messageId);
      await this.owned(conversations, userId, message.conversation_id, tx);
      if (await conversations.streamingIn(message.conversation_id)) throw busy();
      const leaf = end === 'latest' ? await conversations.newestBelow(message.id) : message.id;
      return conversations.setActiveLeaf(message.conversation_id, leaf);
    });
    await this.publishBranch(row);
    return toConversation(row);
  }

  /**
   * Deletes a message with everything below it on every branch. When the branch shown ran through it, the newest
   * branch that remains under its parent (or in the conversation) is shown instead.
   */
  async deleteMessage(userId: string, messageId: string): Promise<{ conversation: Conversation; deleted: number }> {
    const result = await this.store.transaction(async ({ conversations }, tx) => {
      const message = await this.ownedMessage(conversations, userId, messageId);
      const conversation = await this.owned(conversations, userId, message.conversation_id, tx);
      // While a reply is written anywhere in the conversation its versions and branch stay as they are.
      if (await conversations.streamingIn(conversation.id)) throw busy();
      const below = await conversations.countSubtree(message.id);
      const wasShown = conversation.active_leaf_id !== null && (await conversations.isAtOrAbove(message.id, conversation.active_leaf_id));
      // A summary that folded in a deleted message would keep retelling it.
      await conversations.forgetSummaryCovering(message.id);
      await conversations.deleteMessage(message.id);
      let row = conversation;
      if (wasShown) {
        const leaf = message.parent_id ? await conversations.newestBelow(message.parent_id) : await conversations.newestIn(conversation.id);
        row = await conversations.setActiveLeaf(conversation.id, leaf);
      } else {
        await conversations.touch(conversation.id);
      }
      await tx.emit(chatEvents.messagesDeleted, { conversationId: conversation.id, messageId, count: below }, userId);
      return { conversation: row, deleted: below };
    });
    await this.publishBranch(result.conversation);
    return { conversation: toConversation(result.conversation), deleted: result.deleted };
  }

  async stop(userId: string, conversationId: string): Promise<boolean> {
    const streaming = await this.store.run(async ({ conversations }) => {
      await this.owned(conversations, userId, conversationId);
      return conversations.streamingIn(conversationId);
    });
    if (!streaming) return false;
    await this.engine.requestStop(streaming.id);
    return true;
  }

  /**
   * Bounds what one member can make the database keep: a cap on conversations kept and a pace for starting them,
   * counted from rows (so every chat instance shares them) under a per-member lock (so a burst counts each place once).
   */
  private async assertRoomForConversation(conversations: ConversationsRepository, userId: string, tx: Transaction): Promise<void> {
    await conversations.lockCreationsOf(userId, tx);
    const load = await conversations.creationLoad(userId);
    if (load.total >= this.config.conversationsPerMember) {
      throw new AppError(
        'QUOTA_EXCEEDED',
        `You have ${load.total} conversations, the most one account can keep. Delete one to start a new one.`,
      );
    }
    if (load.lastMinute >= this.config.conversationsPerMinute) {
      throw new AppError('RATE_LIMITED', 'You are starting conversations too quickly. Please wait a moment.', {
        retryAfterSeconds: load.secondsUntilSlot,
      });
    }
  }

  private async owned(conversations: ConversationsRepository, userId: string, id: string, lockIn?: Transaction): Promise<ConversationRow> {
    const row = await conversations.find(id, userId, lockIn);
    if (!row) throw notFound();
    return row;
  }

  private async ownedMessage(conversations: ConversationsRepository, userId: string, messageId: string): Promise<MessageRow> {
    const row = await conversations.findMessage(messageId, userId);
    if (!row) throw new AppError('NOT_FOUND', 'Message not found');
    return row;
  }

  private publishBranch(conversation: ConversationRow): Promise<void> {
    return this.publishLive({ type: 'branch', conversationId: conversation.id, activeLeafId: conversation.active_leaf_id });
  }

  private publishLive(update: ChatLiveUpdate): Promise<void> {
    return this.live(update).catch((error: unknown) => logger.warn({ err: error }, 'live update not delivered'));
  }
}
