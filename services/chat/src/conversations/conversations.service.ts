import { randomUUID } from 'node:crypto';
import { type Transaction, logger } from '@app/kit';
import type { ContentPolicy } from '@app/policy';
import {
  AppError,
  CHAT_LIMITS,
  type ContentRating,
  type Conversation,
  ConversationTitle,
  type ConversationPage,
  DEFAULT_CONVERSATION_TITLE,
  type Message,
  MessageContent,
  type MessagePage,
  type PageRequest,
  type Swipe,
  chatEvents,
} from '@app/schema';
import type { z } from 'zod';
import type { CharacterRow } from '../characters/characters.repository';
import type { CharactersService } from '../characters/characters.service';
import type { ChatConfig } from '../chat.config';
import type { ChatStore } from '../chat.store';
import { toPage } from '../keyset-page';
import type { MemberLedger } from '../member-ledger';
import type { ChatProvider } from '../providers/chat-provider';
import { type HistoryTurn, type Persona, buildPrompt, expandMacros, summaryRequest } from '../replies/prompt-builder';
import type { ReplyEngine } from '../replies/reply-engine';
import { type ConversationRow, type ConversationsRepository, type MessageRow, toConversation, toMessage } from './conversations.repository';

const notFound = () => new AppError('NOT_FOUND', 'Conversation not found');
const busy = () => new AppError('CONFLICT', 'Wait for the current reply to finish, or stop it.');
/** How many earlier turns a prompt may draw on; older ones live in the rolling summary. */
const HISTORY_WINDOW = 200;

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new AppError('VALIDATION_FAILED', result.error.issues[0]?.message ?? 'Invalid input');
  return result.data;
}

export function personaOf(character: CharacterRow): Persona {
  return {
    name: character.name,
    description: character.description ?? '',
    personality: character.personality_text ?? character.traits.join(', '),
    scenario: character.scenario,
    exampleDialogue: character.example_dialogue,
    systemPrompt: character.system_prompt,
    postHistoryInstructions: character.card.post_history_instructions ?? '',
  };
}

const swipe = (content: string, status: Swipe['status'], model: string | null): Swipe => ({
  content,
  status,
  model,
  errorCode: null,
  createdAt: new Date().toISOString(),
});

/** Conversations and messages: members talk, the reply engine answers in the background. */
export class ConversationsService {
  constructor(
    private readonly store: ChatStore,
    private readonly ledger: MemberLedger,
    private readonly characters: CharactersService,
    private readonly engine: ReplyEngine,
    private readonly provider: ChatProvider,
    private readonly config: ChatConfig,
    private readonly policy: ContentPolicy,
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
    const title = parse(ConversationTitle, rawTitle ?? '') || DEFAULT_CONVERSATION_TITLE;
    await this.policy.assertAllowed([title], { path: 'chat.title', userId });
    const character = characterId ? await this.characters.findVisibleRow(userId, characterId, ratings) : null;
    if (characterId && !character) throw new AppError('NOT_FOUND', 'Character not found');
    const id = randomUUID();
    const row = await this.store.transaction(async ({ conversations }, tx) => {
      await this.assertRoomForConversation(conversations, userId, tx);
      const created = await conversations.insert({
        id,
        ownerId: userId,
        title,
        characterId,
        snapshot: character ? { ...personaOf(character) } : null,
      });
      // A chat with a character opens with its greeting; alternate greetings are swipes of it.
      const greetings = character ? [character.greeting, ...(character.card.alternate_greetings ?? [])].filter((g) => g.trim()) : [];
      if (character && greetings.length) {
        await conversations.insertMessage({
          id: randomUUID(),
          conversationId: id,
          ownerId: userId,
          role: 'assistant',
          content: expandMacros(greetings[0]!, character.name),
          status: 'complete',
          model: null,
          swipes: greetings.map((greeting) => swipe(expandMacros(greeting, character.name), 'complete', null)),
          swipeIndex: 0,
          debitKey: null,
          leaseMs: null,
        });
      }
      await tx.emit(chatEvents.conversationCreated, { conversationId: id, characterId }, userId);
      return created;
    });
    return toConversation(row);
  }

  async rename(userId: string, id: string, rawTitle: unknown): Promise<Conversation> {
    // A rename that names no title changes nothing, as any field left out of an update.
    if (rawTitle === undefined) return this.get(userId, id);
    const title = parse(ConversationTitle, rawTitle) || DEFAULT_CONVERSATION_TITLE;
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
    await this.engine.publishLive({ type: 'deleted', conversationId: id });
  }

  async listMessages(userId: string, conversationId: string, limit: number, beforeSeq: number | null): Promise<MessagePage> {
    const page = await this.store.run(async ({ conversations }) => {
      await this.owned(conversations, userId, conversationId);
      return conversations.page(conversationId, limit, beforeSeq);
    });
    return { messages: page.rows.map(toMessage), hasOlder: page.hasOlder };
  }

  async getMessage(userId: string, messageId: string): Promise<Message> {
    const row = await this.store.run(({ conversations }) => conversations.findMessage(messageId, userId));
    if (!row) throw new AppError('NOT_FOUND', 'Message not found');
    return toMessage(row);
  }

  /** Stores the member's message, charges the reply, and starts it; the reply streams to live subscribers. */
  async send(userId: string, conversationId: string, rawContent: unknown): Promise<{ userMessage: Message; assistantMessage: Message }> {
    const content = parse(MessageContent, rawContent);
    await this.policy.assertAllowed([content], { path: 'chat.message', userId });
    await this.store.run(async ({ conversations }) => {
      await this.owned(conversations, userId, conversationId);
      await this.assertPace(conversations, userId);
      if (await conversations.streamingIn(conversationId)) throw busy();
    });
    const assistantId = randomUUID();
    const debitKey = `chat-reply:${assistantId}:0`;
    await this.ledger.chargeReply(userId, debitKey);
    let rows: { user: MessageRow; assistant: MessageRow; conversation: ConversationRow };
    try {
      rows = await this.store.transaction(async ({ conversations }, tx) => {
        await this.ledger.settleReply(debitKey);
        const conversation = await this.owned(conversations, userId, conversationId, tx);
        if (await conversations.streamingIn(conversationId)) throw busy();
        const user = await conversations.insertMessage({
          id: randomUUID(),
          conversationId,
          ownerId: userId,
          role: 'user',
          content: content.trim(),
          status: 'complete',
          model: null,
          swipes: [],
          swipeIndex: 0,
          debitKey: null,
          leaseMs: null,
        });
        const assistant = await conversations.insertMessage({
          id: assistantId,
          conversationId,
          ownerId: userId,
          role: 'assistant',
          content: '',
          status: 'streaming',
          model: this.provider.model,
          swipes: [swipe('', 'streaming', this.provider.model)],
          swipeIndex: 0,
          debitKey,
          leaseMs: this.config.replyLeaseMs,
        });
        await conversations.touch(conversationId);
        await this.recordStart(tx, userId, conversationId, user, assistant, 0);
        return { user, assistant, conversation };
      });
    } catch (error) {
      await this.ledger.abandonReply(userId, debitKey);
      throw error;
    }
    const userMessage = toMessage(rows.user);
    const assistantMessage = toMessage(rows.assistant);
    await this.engine.publishLive({ type: 'message', conversationId, message: userMessage });
    await this.engine.publishLive({ type: 'message', conversationId, message: assistantMessage });
    await this.startReply(userId, rows.conversation, rows.assistant, 0, debitKey);
    return { userMessage, assistantMessage };
  }

  /** Writes another version of the last reply; earlier versions stay as swipes. */
  async regenerate(userId: string, conversationId: string): Promise<Message> {
    const last = await this.store.run(async ({ conversations }) => {
      await this.owned(conversations, userId, conversationId);
      const lastMessage = await conversations.lastMessage(conversationId);
      if (!lastMessage || lastMessage.role !== 'assistant') throw new AppError('CONFLICT', 'There is no reply to regenerate yet.');
      // A new version would be hidden with the rest of the removed reply, yet charged.
      if (lastMessage.moderation_state === 'removed')
        throw new AppError('CONFLICT', 'A moderator removed this reply. Send a new message instead.');
      await this.assertPace(conversations, userId);
      return lastMessage;
    });
    if (last.status === 'streaming') throw busy();
    const swipeIndex = last.swipes.length;
    // A fresh key per attempt: a retry after a refunded attempt at the same swipe must be charged again.
    const debitKey = `chat-reply:${last.id}:${swipeIndex}:${randomUUID()}`;
    await this.ledger.chargeReply(userId, debitKey);
    let row: MessageRow;
    let conversation: ConversationRow;
    try {
      ({ row, conversation } = await this.store.transaction(async ({ conversations }, tx) => {
        await this.ledger.settleReply(debitKey);
        const locked = await this.owned(conversations, userId, conversationId, tx);
        const current = await conversations.findMessage(last.id, userId, tx);
        if (!current || current.status === 'streaming' || current.swipes.length !== swipeIndex) throw busy();
        const updated = await conversations.startSwipe(
          last.id,
          [...current.swipes, swipe('', 'streaming', this.provider.model)],
          this.provider.model,
          debitKey,
          this.config.replyLeaseMs,
        );
        await conversations.touch(conversationId);
        await this.recordStart(tx, userId, conversationId, null, updated, swipeIndex);
        return { row: updated, conversation: locked };
      }));
    } catch (error) {
      await this.ledger.abandonReply(userId, debitKey);
      throw error;
    }
    const message = toMessage(row);
    await this.engine.publishLive({ type: 'message', conversationId, message });
    await this.startReply(userId, conversation, row, swipeIndex, debitKey);
    return message;
  }

  async selectSwipe(userId: string, messageId: string, index: number): Promise<Message> {
    const row = await this.store.transaction(async ({ conversations }, tx) => {
      const current = await conversations.findMessage(messageId, userId, tx);
      if (!current) throw new AppError('NOT_FOUND', 'Message not found');
      if (current.role !== 'assistant') throw new AppError('VALIDATION_FAILED', 'Only replies have alternatives.');
      if (current.status === 'streaming') throw busy();
      if (index >= current.swipes.length) throw new AppError('VALIDATION_FAILED', `This reply has ${current.swipes.length} version(s).`);
      return conversations.selectSwipe(messageId, index);
    });
    const message = toMessage(row);
    await this.engine.publishLive({ type: 'message', conversationId: message.conversationId, message });
    return message;
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

  /** A per-member pace limit, shared by every chat instance because it counts rows. */
  private async assertPace(conversations: ConversationsRepository, userId: string): Promise<void> {
    if ((await conversations.repliesInLastMinute(userId)) >= this.config.sendsPerMinute) {
      throw new AppError('RATE_LIMITED', 'You are sending messages too quickly. Please wait a moment.', { retryAfterSeconds: 60 });
    }
  }

  private async owned(conversations: ConversationsRepository, userId: string, id: string, lockIn?: Transaction): Promise<ConversationRow> {
    const row = await conversations.find(id, userId, lockIn);
    if (!row) throw notFound();
    return row;
  }

  private async recordStart(
    tx: Transaction,
    userId: string,
    conversationId: string,
    user: MessageRow | null,
    assistant: MessageRow,
    swipeIndex: number,
  ): Promise<void> {
    if (user) {
      await tx.emit(chatEvents.messageCreated, { conversationId, messageId: user.id, role: 'user', length: user.content.length }, userId);
    }
    await tx.emit(
      chatEvents.replyStarted,
      { conversationId, messageId: assistant.id, userId, swipeIndex, model: this.provider.model, isDemo: this.provider.isDemo },
      userId,
    );
  }

  /** Builds the prompt from the character and the turns before this reply, then hands it to the engine. */
  private async startReply(
    userId: string,
    conversation: ConversationRow,
    assistant: MessageRow,
    swipeIndex: number,
    debitKey: string,
  ): Promise<void> {
    try {
      const persona = await this.persona(userId, conversation);
      const history = await this.history(conversation.id, Number(assistant.seq));
      const plan = buildPrompt({
        persona,
        summary: conversation.summary,
        summaryUptoSeq: conversation.summary_upto_seq === null ? null : Number(conversation.summary_upto_seq),
        history,
        contextTokens: this.provider.contextTokens,
        maxReplyTokens: this.provider.maxReplyTokens,
      });
      this.engine.begin({
        conversationId: conversation.id,
        messageId: assistant.id,
        userId,
        swipeIndex,
        debitKey,
        prompt: plan.messages,
        afterComplete: plan.unsummarized.length >= 6 ? () => this.summarize(conversation, plan.unsummarized) : undefined,
      });
    } catch (error) {
      logger.error({ err: error, messageId: assistant.id }, 'could not start the reply');
      await this.engine.fail(
        { conversationId: conversation.id, messageId: assistant.id, userId, swipeIndex, debitKey },
        '',
        false,
        'INTERNAL',
        0,
      );
    }
  }

  /** The character as it is now (kept in the snapshot), or the snapshot when it was deleted, made private or moderated away. */
  private async persona(userId: string, conversation: ConversationRow): Promise<Persona | null> {
    if (conversation.character_id) {
      const character = await this.characters.findVisibleRow(userId, conversation.character_id, null);
      if (character) {
        const persona = personaOf(character);
        await this.store.run(({ conversations }) => conversations.updateSnapshot(conversation.id, { ...persona }));
        return persona;
      }
    }
    return (conversation.character_snapshot as Persona | null) ?? null;
  }

  private async history(conversationId: string, beforeSeq: number): Promise<HistoryTurn[]> {
    const rows = await this.store.run(({ conversations }) => conversations.history(conversationId, beforeSeq, HISTORY_WINDOW));
    // A reply a moderator removed is never read back to the model.
    return rows
      .filter((row) => row.moderation_state !== 'removed')
      .filter((row) => row.content.trim() && (row.status === 'complete' || row.status === 'cancelled'))
      .map((row) => ({ seq: Number(row.seq), role: row.role, content: row.content }));
  }

  /** Folds turns that no longer fit the context into the conversation's rolling summary. */
  private async summarize(conversation: ConversationRow, turns: HistoryTurn[]): Promise<void> {
    const stream = this.provider.stream({ messages: summaryRequest(conversation.summary, turns), maxTokens: 300, temperature: 0.3 });
    let text = '';
    let step = await stream.next();
    while (!step.done) {
      text += step.value.text;
      step = await stream.next();
    }
    const summary = (step.value.text || text).trim();
    if (!summary) return;
    // A summary is read back into every later prompt: one that crosses the hard lines is not kept.
    if (!(await this.policy.check([summary], { path: 'chat.summary', userId: conversation.owner_id })).allowed) return;
    const basedOnUptoSeq = conversation.summary_upto_seq === null ? null : Number(conversation.summary_upto_seq);
    const foldedSeqs = turns.map((turn) => turn.seq);
    // Not kept when a moderator removed a folded turn, or the summary it extends, while it was being written.
    await this.store.run(({ conversations }) => conversations.saveSummary(conversation.id, summary, basedOnUptoSeq, foldedSeqs));
  }
}
