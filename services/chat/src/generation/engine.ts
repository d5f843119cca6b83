import { type Subscription, logger, recordGeneration, toStorableText } from '@app/kit';
import type { ContentPolicy } from '@app/policy';
import { CHAT_STOP_SUBJECT, STOPPED_REPLY_CHARGED_FROM_CHARS } from '@app/schema';
import { z } from 'zod';
import { type ChatProvider, ProviderError } from '../providers/chat-provider';
import type {
  GenerationJob,
  GenerationKind,
  GenerationOutcome,
  GenerationRef,
  Generations,
  RefundPort,
  SummaryWork,
  TurnKind,
} from './generation';
import { summaryRequest } from './prompt-builder';

/** The bus as the engine needs it: a broadcast reaches whichever instance writes a turn. */
export interface LiveControl {
  subscribeLive(subject: string, handler: (data: unknown) => void): Promise<Subscription>;
  publishLive(subject: string, data: unknown): Promise<void>;
}

export interface EngineConfig {
  /** A streaming turn whose lease is older than this is presumed orphaned and failed with a refund. */
  leaseMs: number;
  /** How often partial text is saved (renewing the lease). */
  flushIntervalMs: number;
  /** How often orphaned turns are looked for. */
  sweepIntervalMs: number;
}

// `messageId` names any turn (a message or a passage): the subject predates stories, and every chat instance reads it.
const StopRequest = z.object({ messageId: z.string().uuid() });

/** How much of the text being written the content check reads at each flush; the whole text is checked at the end. */
const FLUSH_CHECK_CHARS = 4000;

/**
 * Writes every streamed generation of the chat service (chat replies, story passages): streams provider chunks to live
 * subscribers, saves partial text and renews the turn's lease as it goes, checks the output against the content rules,
 * always ends the typing state, and refunds what did not complete. Turns whose process died are found by the sweeper
 * (expired lease) and failed with a refund. What a turn is, and where it lives, is each kind's (`TurnKind`) business.
 */
export class GenerationEngine implements Generations {
  private readonly kinds: ReadonlyMap<GenerationKind, TurnKind>;
  private readonly active = new Map<string, AbortController>();
  /** Turns a member asked to stop; any other abort (shutdown, takeover, content) is a failure and is refunded. */
  private readonly stopRequested = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private subscriptions: Subscription[] = [];
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    kinds: readonly TurnKind[],
    private readonly refunds: RefundPort,
    private readonly provider: ChatProvider,
    private readonly control: LiveControl,
    private readonly config: EngineConfig,
    private readonly policy: ContentPolicy,
  ) {
    this.kinds = new Map(kinds.map((kind) => [kind.kind, kind]));
  }

  async start(): Promise<Subscription> {
    this.subscriptions.push(
      await this.control.subscribeLive(CHAT_STOP_SUBJECT, (data) => {
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

  /** Stops accepting work and aborts turns in flight (they end as failed and are refunded). */
  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    for (const subscription of this.subscriptions) await subscription.unsubscribe();
    this.subscriptions = [];
    for (const controller of this.active.values()) controller.abort(new ProviderError('UNAVAILABLE', 'The chat service is shutting down'));
    await Promise.allSettled([...this.running]);
  }

  /** Starts writing a turn in the background; it is already recorded as streaming and charged. */
  begin(job: GenerationJob): void {
    const run = this.produce(job).catch((error: unknown) => logger.error({ err: error, turnId: job.turnId }, 'generation crashed'));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Asks whichever instance writes the turn to stop it; the text so far is kept. */
  requestStop(turnId: string): Promise<void> {
    return this.control.publishLive(CHAT_STOP_SUBJECT, { messageId: turnId });
  }

  /** Ends, failed and refunded, a turn recorded as streaming whose generation could not be started. */
  async abandon(ref: GenerationRef, code: string): Promise<void> {
    await this.fail(ref, '', false, code, 0);
  }

  /** Fails (and refunds) every kind's turns whose producing process stopped renewing their lease. */
  async sweep(): Promise<number> {
    let swept = 0;
    for (const kind of this.kinds.values()) {
      try {
        for (const orphan of await kind.orphaned(20)) {
          if (this.active.has(orphan.turnId)) continue;
          logger.warn({ turnId: orphan.turnId, kind: orphan.kind }, 'generation orphaned by its process; failing it with a refund');
          await this.fail(orphan, orphan.content, false, 'INTERRUPTED', Date.now() - orphan.startedAt.getTime());
          swept++;
        }
      } catch (error) {
        logger.warn({ err: error, kind: kind.kind }, 'generation sweep failed; will retry');
      }
    }
    return swept;
  }

  private kindOf(ref: GenerationRef): TurnKind {
    const kind = this.kinds.get(ref.kind);
    if (!kind) throw new Error(`No turn kind '${ref.kind}' is registered`);
    return kind;
  }

  private async produce(job: GenerationJob): Promise<void> {
    const kind = this.kindOf(job);
    const started = performance.now();
    const controller = new AbortController();
    this.active.set(job.turnId, controller);
    const prefix = job.prefix ?? '';
    // Live offsets count from the start of the stored text, so a continued turn's first delta lands after its prefix.
    let text = prefix;
    let firstChunkMs: number | null = null;
    let lost = false;
    let saving: Promise<void> | null = null;
    let rejected = false;
    const save = async () => {
      if (lost || rejected) return;
      // A provider's U+0000 or unpaired surrogate would fail the save; U+FFFD keeps the length, so live offsets hold.
      const snapshot = toStorableText(text);
      // Model output obeys the same hard lines as member input; a crossing ends the turn and erases it.
      const verdict = this.policy.checkNow(snapshot.slice(-FLUSH_CHECK_CHARS));
      if (!verdict.allowed) {
        rejected = true;
        void this.policy.recordRefusal(verdict, snapshot, { path: kind.policyPath, userId: job.userId });
        controller.abort(new ProviderError('CONTENT_REJECTED', 'The text crossed the content rules'));
        return;
      }
      const ok = await kind.saveProgress(job, snapshot, this.config.leaseMs).catch((error: unknown) => {
        logger.warn({ err: error, turnId: job.turnId }, 'could not save generation progress');
        return true;
      });
      if (!ok) {
        // The sweeper declared this turn orphaned; stop writing it.
        lost = true;
        controller.abort(new ProviderError('UNAVAILABLE', 'The turn was taken over'));
      }
    };
    const heartbeat = setInterval(() => {
      saving ??= save().finally(() => {
        saving = null;
      });
    }, this.config.flushIntervalMs);

    await this.publish(() => kind.publishTyping(job.subjectId, true));
    try {
      const stream = this.provider.stream({
        messages: job.prompt,
        signal: controller.signal,
        ...(job.sampling ? { sampling: job.sampling } : {}),
        ...(job.model ? { model: job.model } : {}),
      });
      let step = await stream.next();
      while (!step.done) {
        const chunk = step.value;
        if (chunk.text) {
          firstChunkMs ??= Math.round(performance.now() - started);
          const offset = text.length;
          text += chunk.text;
          void this.publish(() => kind.publishDelta(job, offset, chunk.text, chunk.sentAt));
        }
        step = await stream.next();
      }
      clearInterval(heartbeat);
      await saving;
      const result = step.value;
      const finalText = toStorableText(result.text ? prefix + result.text : text);
      // The whole text, through the moderation model too when one is configured.
      if (!(await this.policy.check([finalText], { path: kind.policyPath, userId: job.userId })).allowed) {
        rejected = true;
        throw new ProviderError('CONTENT_REJECTED', 'The text crossed the content rules');
      }
      const stored = kind.finalize(finalText);
      const finished = await kind.finish(
        job,
        { content: stored.content, status: 'complete', errorCode: null, ...(stored.extras ? { extras: stored.extras } : {}) },
        {
          completed: {
            model: result.model,
            latencyMs: Math.round(performance.now() - started),
            firstChunkMs,
            promptTokens: result.promptTokens,
            completionTokens: result.completionTokens,
            length: stored.content.length,
          },
        },
      );
      await this.publish(() => kind.publishTyping(job.subjectId, false));
      recordGeneration(job.kind, 'completed', started);
      if (finished && job.summarize) await this.summarize(kind, job, job.summarize);
    } catch (error) {
      clearInterval(heartbeat);
      await saving;
      const cancelled = this.stopRequested.has(job.turnId) && !lost && !rejected;
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
      recordGeneration(job.kind, rejected ? 'refused' : cancelled ? 'stopped' : 'failed', started);
      if (code === 'CONTENT_REJECTED') text = '';
      if (!(error instanceof ProviderError)) logger.error({ err: error, turnId: job.turnId }, 'generation failed unexpectedly');
      else logger.info({ code, turnId: job.turnId, message: error.message }, 'generation ended without completing');
      if (!lost) await this.fail(job, text, cancelled, code, Math.round(performance.now() - started), text.slice(prefix.length));
    } finally {
      clearInterval(heartbeat);
      this.active.delete(job.turnId);
      this.stopRequested.delete(job.turnId);
    }
  }

  /**
   * Ends a turn that did not complete. A stopped turn keeps whatever text it has; its charge stands only when that
   * text reaches STOPPED_REPLY_CHARGED_FROM_CHARS (decision 036); anything else is refunded exactly once.
   */
  private async fail(
    ref: GenerationRef,
    text: string,
    cancelled: boolean,
    code: string,
    latencyMs: number,
    /** What this generation wrote (a continued turn's text begins with what it continued). */
    written = text,
  ): Promise<void> {
    const kind = this.kindOf(ref);
    const keep = cancelled && written.trim().length >= STOPPED_REPLY_CHARGED_FROM_CHARS;
    const refunded = keep
      ? false
      : await this.refunds.refund(ref.userId, ref.debitKey, kind.refundReason).catch((error: unknown) => {
          logger.error({ err: error, turnId: ref.turnId }, 'refund failed; the sweeper retries');
          return null;
        });
    if (refunded === null) return; // left streaming, so the sweeper retries the refund once the lease runs out
    // A stopped turn is stored as a finished one would be (a stopped passage offers the choices it got to).
    const kept = cancelled ? kind.finalize(text) : { content: text };
    const outcome: GenerationOutcome = {
      content: kept.content,
      status: cancelled ? 'cancelled' : 'failed',
      errorCode: cancelled ? null : code,
      ...(kept.extras ? { extras: kept.extras } : {}),
    };
    await kind.finish(ref, outcome, { failed: { code, cancelled, refunded, latencyMs } });
    await this.publish(() => kind.publishTyping(ref.subjectId, false));
  }

  /** Folds turns that fell out of the prompt into the subject's rolling summary; a failure only costs the summary. */
  private async summarize(kind: TurnKind, job: GenerationJob, work: SummaryWork): Promise<void> {
    try {
      const stream = this.provider.stream({ messages: summaryRequest(work.previous, work.turns), maxTokens: 300, temperature: 0.3 });
      let text = '';
      let step = await stream.next();
      while (!step.done) {
        text += step.value.text;
        step = await stream.next();
      }
      const summary = toStorableText((step.value.text || text).trim());
      if (!summary) return;
      // A summary is read back into every later prompt: one that crosses the hard lines is not kept.
      const path = job.kind === 'story_passage' ? 'story.summary' : 'chat.summary';
      if (!(await this.policy.check([summary], { path, userId: job.userId })).allowed) return;
      await kind.saveSummary(job.subjectId, summary, work);
    } catch (error) {
      logger.warn({ err: error, subjectId: job.subjectId }, 'summary not written');
    }
  }

  /** Live updates are best effort: a member who misses one refetches what was saved. */
  private async publish(send: () => Promise<void>): Promise<void> {
    await send().catch((error: unknown) => logger.warn({ err: error }, 'live update not delivered'));
  }
}
