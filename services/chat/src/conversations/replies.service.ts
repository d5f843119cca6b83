import { randomUUID } from 'node:crypto';
import { type Transaction, logger } from '@app/kit';
import type { ContentPolicy } from '@app/policy';
import { AppError, type ChatLiveUpdate, type Message, MessageContent, type SamplerSettings, chatEvents } from '@app/schema';
import type { CharactersService } from '../characters/characters.service';
import type { ChatConfig } from '../chat.config';
import type { ChatRepositories, ChatStore } from '../chat.store';
import type { GenerationRef, Generations } from '../generation/generation';
import { type HistoryTurn, type MemberPersona, type Persona, buildPrompt } from '../generation/prompt-builder';
import { effectiveSampling } from '../generation/sampling';
import type { MemberLedger } from '../member-ledger';
import type { ChatProvider } from '../providers/chat-provider';
import { type ConversationRow, type ConversationsRepository, type MessageRow, toMessage } from './conversations.repository';
import { parseInput, personaOf, snapshotOf } from './conversations.service';

const busy = () => new AppError('CONFLICT', 'Wait for the current reply to finish, or stop it.');
const messageNotFound = () => new AppError('NOT_FOUND', 'Message not found');
/** How many earlier turns a prompt may draw on; older ones live in the rolling summary. */
const HISTORY_WINDOW = 200;
/** Told to the model when it carries on from a reply's text rather than answering. */
const CONTINUE_INSTRUCTION = 'Continue your last reply exactly where it stopped. Do not repeat any of it; write only what comes next.';

/** What a reply starts from: the message it follows, and the text it already has (a continued reply). */
interface ReplyPlan {
  /** The member's new message, when the reply answers one. */
  user: MessageRow | null;
  assistant: MessageRow;
  /** The reply's place among its versions; live updates carry it. */
  versionIndex: number;
  /** The last message the prompt reads. */
  promptEndsAt: string;
  prefix?: string;
}

/**
 * The member's side of a conversation's turns: sending, editing, regenerating and continuing. Each records the
 * turn it starts (charged, as a new message of the tree) and asks the generation engine to write it.
 */
export class RepliesService {
  constructor(
    private readonly store: ChatStore,
    private readonly ledger: Pick<MemberLedger, 'chargeReply' | 'settleReply' | 'abandonReply'>,
    private readonly characters: Pick<CharactersService, 'findVisibleRow'>,
    private readonly engine: Pick<Generations, 'begin' | 'abandon'>,
    private readonly live: (update: ChatLiveUpdate) => Promise<void>,
    private readonly provider: Pick<ChatProvider, 'model' | 'isDemo' | 'contextTokens' | 'maxReplyTokens'>,
    private readonly config: Pick<ChatConfig, 'replyLeaseMs' | 'sendsPerMinute'>,
    private readonly policy: ContentPolicy,
    private readonly members: { forPrompt(userId: string): Promise<MemberPersona> },
  ) {}

  /** Adds the member's message at the end of the branch shown and starts its reply (1 token). */
  async send(userId: string, conversationId: string, rawContent: unknown): Promise<{ userMessage: Message; assistantMessage: Message }> {
    const content = parseInput(MessageContent, rawContent);
    await this.policy.assertAllowed([content], { path: 'chat.message', userId });
    await this.precheck(userId, conversationId);
    const started = await this.startReply(userId, conversationId, async ({ conversations }, conversation, _tx, replyId) => {
      const user = await this.insertUserMessage(conversations, conversation, conversation.active_leaf_id, content.trim(), false);
      return this.planAnswer(conversations, conversation, user, replyId);
    });
    return { userMessage: await this.withVersions(started.user!), assistantMessage: await this.withVersions(started.assistant) };
  }

  /**
   * Writes another version of a reply beside it (the last one shown when none is named); the earlier versions stay.
   * A member's message left without a reply is answered instead.
   */
  async regenerate(userId: string, conversationId: string, messageId: string | null): Promise<Message> {
    await this.precheck(userId, conversationId);
    const started = await this.startReply(userId, conversationId, async ({ conversations }, conversation, tx, replyId) => {
      const targetId = messageId ?? conversation.active_leaf_id;
      const target = targetId ? await conversations.findMessage(targetId, userId, tx) : null;
      if (!target || target.conversation_id !== conversationId) {
        if (messageId) throw messageNotFound();
        throw new AppError('CONFLICT', 'There is no reply to regenerate yet.');
      }
      if (target.role === 'user') return this.planAnswer(conversations, conversation, target, replyId);
      // A new version would be hidden with the rest of the removed reply, yet charged.
      if (target.moderation_state === 'removed')
        throw new AppError('CONFLICT', 'A moderator removed this reply. Send a new message instead.');
      if (!target.parent_id) throw new AppError('CONFLICT', 'A greeting cannot be regenerated; start a new conversation instead.');
      return this.planVersion(conversations, conversation, target, '', replyId);
    });
    return this.withVersions(started.assistant);
  }

  /**
   * A new version of a message beside it; the original stays. A member's message is sent again as edited and
   * answered (1 token); a reply takes the member's text as is, free, and is marked as edited.
   */
  async edit(userId: string, messageId: string, rawContent: unknown): Promise<{ message: Message; reply: Message | null }> {
    const content = parseInput(MessageContent, rawContent);
    await this.policy.assertAllowed([content], { path: 'chat.message', userId });
    const original = await this.store.run(({ conversations }) => conversations.findMessage(messageId, userId));
    if (!original) throw messageNotFound();
    if (original.role === 'user') {
      await this.precheck(userId, original.conversation_id);
      const started = await this.startReply(userId, original.conversation_id, async ({ conversations }, conversation, _tx, replyId) => {
        const user = await this.insertUserMessage(conversations, conversation, original.parent_id, content.trim(), true);
        return this.planAnswer(conversations, conversation, user, replyId);
      });
      return { message: await this.withVersions(started.user!), reply: await this.withVersions(started.assistant) };
    }
    const edited = await this.store.transaction(async ({ conversations }, tx) => {
      await this.ownedConversation(conversations, userId, original.conversation_id, tx);
      if (await conversations.streamingIn(original.conversation_id)) throw busy();
      const message = await conversations.insertMessage({
        id: randomUUID(),
        conversationId: original.conversation_id,
        ownerId: userId,
        role: 'assistant',
        content: content.trim(),
        status: 'complete',
        model: null,
        parentId: original.parent_id,
        edited: true,
        debitKey: null,
        leaseMs: null,
      });
      await conversations.touch(original.conversation_id);
      await tx.emit(
        chatEvents.messageCreated,
        { conversationId: original.conversation_id, messageId: message.id, role: 'assistant', length: message.content.length },
        userId,
      );
      return message;
    });
    const message = await this.withVersions(edited);
    await this.publish({ type: 'message', conversationId: edited.conversation_id, message });
    return { message, reply: null };
  }

  /** A new version of a reply that begins with its text and carries on from it (1 token); the original stays. */
  async continueReply(userId: string, messageId: string): Promise<Message> {
    const original = await this.store.run(({ conversations }) => conversations.findMessage(messageId, userId));
    if (!original) throw messageNotFound();
    if (original.role !== 'assistant') throw new AppError('VALIDATION_FAILED', 'Only replies can be continued.');
    if (original.moderation_state === 'removed')
      throw new AppError('CONFLICT', 'A moderator removed this reply. Send a new message instead.');
    if (original.status === 'streaming') throw busy();
    if (!original.content.trim()) throw new AppError('VALIDATION_FAILED', 'This reply has no text to continue.');
    await this.precheck(userId, original.conversation_id);
    const started = await this.startReply(userId, original.conversation_id, async ({ conversations }, conversation, _tx, replyId) => {
      const plan = await this.planVersion(conversations, conversation, original, original.content, replyId);
      return { ...plan, promptEndsAt: original.id, prefix: original.content };
    });
    return this.withVersions(started.assistant);
  }

  /** Checks that need no lock, so a refused request costs no charge round-trip. */
  private async precheck(userId: string, conversationId: string): Promise<void> {
    await this.store.run(async ({ conversations }) => {
      await this.ownedConversation(conversations, userId, conversationId);
      if ((await conversations.repliesInLastMinute(userId)) >= this.config.sendsPerMinute) {
        throw new AppError('RATE_LIMITED', 'You are sending messages too quickly. Please wait a moment.', { retryAfterSeconds: 60 });
      }
      if (await conversations.streamingIn(conversationId)) throw busy();
    });
  }

  private insertUserMessage(
    conversations: ConversationsRepository,
    conversation: ConversationRow,
    parentId: string | null,
    content: string,
    edited: boolean,
  ): Promise<MessageRow> {
    return conversations.insertMessage({
      id: randomUUID(),
      conversationId: conversation.id,
      ownerId: conversation.owner_id,
      role: 'user',
      content,
      status: 'complete',
      model: null,
      parentId,
      edited,
      debitKey: null,
      leaseMs: null,
    });
  }

  /** A reply to the member's message `user`, as its first child (or a further version beside earlier ones). */
  private async planAnswer(
    conversations: ConversationsRepository,
    conversation: ConversationRow,
    user: MessageRow,
    replyId: string,
  ): Promise<ReplyPlan> {
    const existing = await conversations.countVersionsUnder(user.id, 'assistant');
    const assistant = await this.insertStreamingReply(conversations, conversation, user.id, '', replyId);
    return { user, assistant, versionIndex: existing, promptEndsAt: user.id };
  }

  /** Another version of the reply `original`, beside it. */
  private async planVersion(
    conversations: ConversationsRepository,
    conversation: ConversationRow,
    original: MessageRow,
    prefix: string,
    replyId: string,
  ): Promise<ReplyPlan> {
    const existing = await conversations.countVersionsUnder(original.parent_id!, 'assistant');
    const assistant = await this.insertStreamingReply(conversations, conversation, original.parent_id, prefix, replyId);
    return { user: null, assistant, versionIndex: existing, promptEndsAt: original.parent_id! };
  }

  private insertStreamingReply(
    conversations: ConversationsRepository,
    conversation: ConversationRow,
    parentId: string | null,
    prefix: string,
    id: string,
  ): Promise<MessageRow> {
    return conversations.insertMessage({
      id,
      conversationId: conversation.id,
      ownerId: conversation.owner_id,
      role: 'assistant',
      content: prefix,
      status: 'streaming',
      model: conversation.model ?? this.provider.model,
      parentId,
      debitKey: debitKeyOf(id),
      leaseMs: this.config.replyLeaseMs,
    });
  }

  /**
   * The one way a reply starts: charged first, then recorded as streaming in the transaction that settles the charge
   * and announces it (or the charge goes back), shown live, and handed to the engine with its prompt.
   */
  private async startReply(
    userId: string,
    conversationId: string,
    plan: (repositories: ChatRepositories, conversation: ConversationRow, tx: Transaction, replyId: string) => Promise<ReplyPlan>,
  ): Promise<ReplyPlan & { conversation: ConversationRow }> {
    // The reply's id is its ledger key, so the charge is made before the row exists and settled by the insert.
    const replyId = randomUUID();
    const debitKey = debitKeyOf(replyId);
    await this.ledger.chargeReply(userId, debitKey);
    let started: ReplyPlan & { conversation: ConversationRow };
    try {
      started = await this.store.transaction(async (repositories, tx) => {
        await this.ledger.settleReply(debitKey);
        const conversation = await this.ownedConversation(repositories.conversations, userId, conversationId, tx);
        if (await repositories.conversations.streamingIn(conversationId)) throw busy();
        const planned = await plan(repositories, conversation, tx, replyId);
        await repositories.conversations.touch(conversationId);
        if (planned.user) {
          await tx.emit(
            chatEvents.messageCreated,
            { conversationId, messageId: planned.user.id, role: 'user', length: planned.user.content.length },
            userId,
          );
        }
        await tx.emit(
          chatEvents.replyStarted,
          {
            conversationId,
            messageId: planned.assistant.id,
            userId,
            swipeIndex: planned.versionIndex,
            model: planned.assistant.model ?? this.provider.model,
            isDemo: this.provider.isDemo,
          },
          userId,
        );
        return { ...planned, conversation };
      });
    } catch (error) {
      await this.ledger.abandonReply(userId, debitKey);
      throw error;
    }
    if (started.user) await this.publish({ type: 'message', conversationId, message: await this.withVersions(started.user) });
    await this.publish({ type: 'message', conversationId, message: await this.withVersions(started.assistant) });
    const ref: GenerationRef = {
      kind: 'chat_reply',
      subjectId: conversationId,
      turnId: started.assistant.id,
      userId,
      variant: started.versionIndex,
      debitKey,
    };
    try {
      await this.beginReply(ref, started);
    } catch (error) {
      logger.error({ err: error, messageId: ref.turnId }, 'could not start the reply');
      await this.engine.abandon(ref, 'INTERNAL');
    }
    return started;
  }

  /**
   * Builds the prompt from the character (its lorebook entries that come up), the member's persona and the branch the
   * reply follows, keeps what made it in for the member to see, and hands it to the engine with the sampler settings.
   */
  private async beginReply(ref: GenerationRef, started: ReplyPlan & { conversation: ConversationRow }): Promise<void> {
    const { conversation } = started;
    const [character, member] = await Promise.all([this.character(conversation), this.members.forPrompt(conversation.owner_id)]);
    const { history, summaryHolds } = await this.store.run(async ({ conversations }) => {
      const rows = await conversations.branch(started.promptEndsAt, HISTORY_WINDOW);
      const summarySeq = conversation.summary_upto_seq === null ? null : Number(conversation.summary_upto_seq);
      return {
        history: toHistory(rows),
        // A summary written on another branch retells what this one never said.
        summaryHolds: summarySeq !== null && (await conversations.branchHas(started.promptEndsAt, summarySeq)),
      };
    });
    const summaryUptoSeq = summaryHolds ? Number(conversation.summary_upto_seq) : null;
    const plan = buildPrompt({
      persona: character.persona,
      member,
      summary: summaryHolds ? conversation.summary : null,
      summaryUptoSeq,
      history,
      contextTokens: this.provider.contextTokens,
      maxReplyTokens: this.provider.maxReplyTokens,
    });
    await this.store.run(({ conversations }) => conversations.saveReport(ref.turnId, plan.report));
    const prompt = started.prefix ? [...plan.messages, { role: 'system' as const, content: CONTINUE_INSTRUCTION }] : plan.messages;
    this.engine.begin({
      ...ref,
      prompt,
      sampling: effectiveSampling(character.sampling, conversation.sampling),
      model: conversation.model,
      ...(started.prefix ? { prefix: started.prefix } : {}),
      summarize:
        plan.unsummarized.length >= 6
          ? {
              previous: summaryHolds ? conversation.summary : null,
              // The summary kept now is replaced only if no other reply replaced it meanwhile.
              basedOnUptoSeq: conversation.summary_upto_seq === null ? null : Number(conversation.summary_upto_seq),
              turns: plan.unsummarized,
            }
          : null,
    });
  }

  /**
   * The character as it is now (kept in the snapshot, lorebook aside), or the snapshot when it was deleted, made private
   * or moderated away; with its sampler settings.
   */
  private async character(conversation: ConversationRow): Promise<{ persona: Persona | null; sampling: SamplerSettings | null }> {
    if (conversation.character_id) {
      const character = await this.characters.findVisibleRow(conversation.owner_id, conversation.character_id, null);
      if (character) {
        const persona = personaOf(character);
        await this.store.run(({ conversations }) => conversations.updateSnapshot(conversation.id, snapshotOf(persona)));
        return { persona, sampling: character.sampling };
      }
    }
    return { persona: (conversation.character_snapshot as Persona | null) ?? null, sampling: null };
  }

  private async ownedConversation(
    conversations: ConversationsRepository,
    userId: string,
    id: string,
    lockIn?: Transaction,
  ): Promise<ConversationRow> {
    const row = await conversations.find(id, userId, lockIn);
    if (!row) throw new AppError('NOT_FOUND', 'Conversation not found');
    return row;
  }

  private withVersions(row: MessageRow): Promise<Message> {
    return this.store.run(async ({ conversations }) => toMessage(row, (await conversations.versionsOf([row])).get(row.id)));
  }

  private publish(update: ChatLiveUpdate): Promise<void> {
    return this.live(update).catch((error: unknown) => logger.warn({ err: error }, 'live update not delivered'));
  }
}

/** Every reply has its own ledger key: a retry after a refunded attempt is charged again. */
const debitKeyOf = (replyId: string) => `chat-reply:${replyId}`;

/** A reply a moderator removed is never read back to the model, nor is a reply with no text. */
function toHistory(rows: readonly MessageRow[]): HistoryTurn[] {
  return rows
    .filter((row) => row.moderation_state !== 'removed')
    .filter((row) => row.content.trim() && (row.status === 'complete' || row.status === 'cancelled'))
    .map((row) => ({ seq: Number(row.seq), role: row.role, content: row.content }));
}
