import { type Bus, type Subscription, type Transaction, logger, recordGeneration, toStorableText } from '@app/kit';
import type { ContentPolicy } from '@app/policy';
import {
  CHAT_STOP_SUBJECT,
  type ChatLiveUpdate,
  type Message,
  STOPPED_REPLY_CHARGED_FROM_CHARS,
  chatEvents,
  chatLiveSubject,
} from '@app/schema';
import { z } from 'zod';
import type { ChatConfig } from '../chat.config';
import type { ChatStore } from '../chat.store';
import { type MessageRow, toMessage } from '../conversations/conversations.repository';
import type { MemberLedger } from '../member-ledger';
import { type ChatProvider, type PromptMessage, ProviderError } from '../providers/chat-provider';

/** A reply to produce: one swipe of one assistant message, already charged with `debitKey`. */
export interface ReplyJob {
  conversationId: string;
  messageId: string;
  userId: string;
  swipeIndex: number;
  debitKey: string;
  prompt: PromptMessage[];
  /** Runs after a successful reply (e.g. folding old turns into the summary); failures are only logged. */
  afterComplete?: () => Promise<void>;
}

const StopRequest = z.object({ messageId: z.string().uuid() });

/**
 * Produces replies inside the chat service: streams provider chunks to live subscribers, saves partial
 * text and renews the reply's lease as it goes, and always ends the typing state. Replies whose process
 * died are found by the sweeper (expired lease) and failed with a refund.
 */
export class ReplyEngine {
  private readonly active = new Map<string, AbortController>();
  /** Replies a member asked to stop; any other abort (shutdown, takeover) is a failure and is refunded. */
  private readonly stopRequested = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private subscriptions: Subscription[] = [];
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: ChatStore,
    private readonly bus: Bus,
    private readonly ledger: MemberLedger,
    private readonly provider: ChatProvider,
    private readonly config: ChatConfig,
    private readonly policy: ContentPolicy,
  ) {}

  async start(): Promise<Subscription> {
    this.subscriptions.push(
      await this.bus.subscribeLive(CHAT_STOP_SUBJECT, (data) => {
        const parsed = StopRequest.safeParse(data);
        const controller = parsed.success ? this.active.get(parsed.data.messageId) : undefined;
        if (controller) {
          this.stopRequested.add(parsed.data!.messageId);
          controller.abort();
        }
      }),
    );
    this.sweepTimer = setInterval(() => void this.sweep(), this.config.sweepIntervalMs);
    this.sweepTimer.unref();
    void this.sweep();
    return { unsubscribe: () => this.stop() };
  }

  /** Stops accepting work and aborts replies in flight (they end as failed and are refunded). */
  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const subscription of this.subscriptions) await subscription.unsubscribe();
    this.subscriptions = [];
    for (const controller of this.active.values()) controller.abort(new ProviderError('UNAVAILABLE', 'The chat service is shutting down'));
    await Promise.allSettled([...this.running]);
  }

  /** Starts producing a reply in the background. */
  begin(job: ReplyJob): void {
    const run = this.produce(job).catch((error: unknown) => logger.error({ err: error, messageId: job.messageId }, 'reply crashed'));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Asks whichever instance is producing the reply to stop it. */
  requestStop(messageId: string): Promise<void> {
    return this.bus.publishLive(CHAT_STOP_SUBJECT, { messageId });
  }

  publishLive(update: ChatLiveUpdate): Promise<void> {
    return this.bus.publishLive(chatLiveSubject(update.conversationId), update).catch((error: unknown) => {
      logger.warn({ err: error }, 'live update not delivered');
    });
  }

  private async produce(job: ReplyJob): Promise<void> {
    const started = performance.now();
    const controller = new AbortController();
    this.active.set(job.messageId, controller);
    let text = '';
    let firstChunkMs: number | null = null;
    let lost = false;
    let saving: Promise<void> | null = null;
    let rejected = false;
    const save = async () => {
      if (lost || rejected) return;
      // A provider's U+0000 or unpaired surrogate would fail the save; U+FFFD keeps the length, so live offsets hold.
      const snapshot = toStorableText(text);
      // Model output obeys the same hard lines as member input; a crossing ends the reply and erases it.
      const verdict = this.policy.checkNow(snapshot.slice(-4000));
      if (!verdict.allowed) {
        rejected = true;
        void this.policy.recordRefusal(verdict, snapshot, { path: 'chat.reply', userId: job.userId });
        controller.abort(new ProviderError('CONTENT_REJECTED', 'The reply crossed the content rules'));
        return;
      }
      const ok = await this.store
        .run(({ conversations }) => conversations.saveProgress(job.messageId, job.swipeIndex, snapshot, this.config.replyLeaseMs))
        .catch((error: unknown) => {
          logger.warn({ err: error, messageId: job.messageId }, 'could not save reply progress');
          return true;
        });
      if (!ok) {
        // The sweeper declared this reply orphaned; stop producing it.
        lost = true;
        controller.abort(new ProviderError('UNAVAILABLE', 'The reply was taken over'));
      }
    };
    const heartbeat = setInterval(() => {
      saving ??= save().finally(() => {
        saving = null;
      });
    }, this.config.flushIntervalMs);

    await this.publishLive({ type: 'typing', conversationId: job.conversationId, typing: true });
    try {
      const stream = this.provider.stream({ messages: job.prompt, signal: controller.signal });
      let step = await stream.next();
      while (!step.done) {
        const chunk = step.value;
        if (chunk.text) {
          firstChunkMs ??= Math.round(performance.now() - started);
          const offset = text.length;
          text += chunk.text;
          void this.publishLive({
            type: 'delta',
            conversationId: job.conversationId,
            messageId: job.messageId,
            swipeIndex: job.swipeIndex,
            offset,
            text: chunk.text,
            ...(chunk.sentAt !== undefined ? { sentAt: chunk.sentAt } : {}),
          });
        }
        step = await stream.next();
      }
      clearInterval(heartbeat);
      await saving;
      const result = step.value;
      const finalText = toStorableText(result.text || text);
      // The whole reply, through the moderation model too when one is configured.
      if (!(await this.policy.check([finalText], { path: 'chat.reply', userId: job.userId })).allowed) {
        rejected = true;
        throw new ProviderError('CONTENT_REJECTED', 'The reply crossed the content rules');
      }
      await this.finish(job, { content: finalText, status: 'complete', errorCode: null }, async (tx, message) => {
        await tx.emit(
          chatEvents.replyCompleted,
          {
            conversationId: job.conversationId,
            messageId: job.messageId,
            userId: job.userId,
            swipeIndex: job.swipeIndex,
            model: result.model,
            latencyMs: Math.round(performance.now() - started),
            firstChunkMs,
            promptTokens: result.promptTokens,
            completionTokens: result.completionTokens,
            length: message.content.length,
          },
          job.userId,
        );
      });
      recordGeneration('chat_reply', 'completed', started);
      if (job.afterComplete) await job.afterComplete().catch((error: unknown) => logger.warn({ err: error }, 'after-reply work failed'));
    } catch (error) {
      clearInterval(heartbeat);
      await saving;
      const cancelled = this.stopRequested.has(job.messageId) && !lost && !rejected;
      const aborted = error instanceof ProviderError && error.code === 'CANCELLED';
      const code = rejected
        ? 'CONTENT_REJECTED'
        : cancelled
          ? 'CANCELLED'
          : aborted
            ? 'UNAVAILABLE'
            : error instanceof ProviderError
              ? error.code
              : 'INTERNAL';
      recordGeneration('chat_reply', rejected ? 'refused' : cancelled ? 'stopped' : 'failed', started);
      if (code === 'CONTENT_REJECTED') text = '';
      if (!(error instanceof ProviderError)) logger.error({ err: error, messageId: job.messageId }, 'reply failed unexpectedly');
      else logger.info({ code, messageId: job.messageId, message: error.message }, 'reply ended without completing');
      if (!lost) await this.fail(job, text, cancelled, code, Math.round(performance.now() - started));
    } finally {
      clearInterval(heartbeat);
      this.active.delete(job.messageId);
      this.stopRequested.delete(job.messageId);
    }
  }

  /**
   * Ends a reply that did not complete. A stopped reply keeps whatever text it has; its charge stands only when that
   * text reaches STOPPED_REPLY_CHARGED_FROM_CHARS (decision 036); anything else is refunded exactly once.
   */
  async fail(
    job: Pick<ReplyJob, 'conversationId' | 'messageId' | 'userId' | 'swipeIndex' | 'debitKey'>,
    text: string,
    cancelled: boolean,
    code: string,
    latencyMs: number,
  ): Promise<void> {
    const keep = cancelled && text.trim().length >= STOPPED_REPLY_CHARGED_FROM_CHARS;
    const refunded = keep
      ? false
      : await this.ledger.refundReply(job.userId, job.debitKey).catch((error: unknown) => {
          logger.error({ err: error, messageId: job.messageId }, 'refund failed; the sweeper retries');
          return null;
        });
    if (refunded === null) return; // leave the reply streaming so the sweeper retries the refund
    await this.finish(
      job,
      { content: text, status: cancelled ? 'cancelled' : 'failed', errorCode: cancelled ? null : code },
      async (tx) => {
        await tx.emit(chatEvents.replyFailed, { ...pickRef(job), code, cancelled, refunded, latencyMs }, job.userId);
      },
    );
  }

  private async finish(
    job: Pick<ReplyJob, 'conversationId' | 'messageId' | 'swipeIndex'>,
    outcome: { content: string; status: Message['status']; errorCode: string | null },
    record: (tx: Transaction, message: MessageRow) => Promise<void>,
  ): Promise<void> {
    const row = await this.store.transaction(async ({ conversations }, tx) => {
      const finished = await conversations.finish(job.messageId, job.swipeIndex, outcome);
      if (!finished) return null;
      await conversations.touch(job.conversationId);
      await record(tx, finished);
      return finished;
    });
    if (row) await this.publishLive({ type: 'message', conversationId: job.conversationId, message: toMessage(row) });
    await this.publishLive({ type: 'typing', conversationId: job.conversationId, typing: false });
  }

  /** Fails (and refunds) replies whose producing process stopped renewing their lease. */
  async sweep(): Promise<number> {
    let swept = 0;
    try {
      const orphans = await this.store.run(({ conversations }) => conversations.orphanedReplies(20));
      for (const row of orphans) {
        if (this.active.has(row.id)) continue;
        logger.warn({ messageId: row.id }, 'reply orphaned by its process; failing it with a refund');
        await this.fail(
          {
            conversationId: row.conversation_id,
            messageId: row.id,
            userId: row.owner_id,
            swipeIndex: row.swipe_index,
            debitKey: row.debit_key ?? '',
          },
          row.content,
          false,
          'INTERRUPTED',
          Date.now() - new Date(row.created_at).getTime(),
        );
        swept++;
      }
    } catch (error) {
      logger.warn({ err: error }, 'reply sweep failed; will retry');
    }
    return swept;
  }
}

function pickRef(job: Pick<ReplyJob, 'conversationId' | 'messageId' | 'userId' | 'swipeIndex'>) {
  return { conversationId: job.conversationId, messageId: job.messageId, userId: job.userId, swipeIndex: job.swipeIndex };
}
