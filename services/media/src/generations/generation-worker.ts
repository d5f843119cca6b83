import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Bus, type ObjectStorage, type Subscription, type Transaction, logger, recordGeneration } from '@app/kit';
import {
  type ContentRefusal,
  FINISHED_GENERATION_STATUSES,
  GENERATION_CANCEL_SUBJECT,
  type GenerationJob,
  type GenerationStatus,
  mediaEvents,
} from '@app/schema';
import { z } from 'zod';
import { attemptImageId, deleteImageFiles, discardAttemptFiles, imageKeys } from '../images/images.service';
import { InvalidImageError, processImage } from '../images/renditions';
import type { MediaConfig } from '../media.config';
import type { MediaStore } from '../media.store';
import { BLOCKED_PICTURE_MESSAGE, blockedPictureRefusal } from '../moderation/blocked-pictures';
import type { BlockedMatch } from '../moderation/moderation.repository';
import { hashPicture } from '../moderation/picture-hash';
import { type ImageProvider, ImageProviderError } from '../providers/image-provider';
import { advancedOf, settingsOf } from './advanced-settings';
import type { GenerationUpdates } from './generation-updates';
import type { ImageLedger } from './image-ledger';
import type { JobRow } from './jobs.repository';

type StopReason = 'cancel' | 'lost' | 'shutdown';
const CancelMessage = z.object({ jobId: z.string().uuid() });
/** Live progress is pushed at most this often (the last step always goes out). */
const PUSH_INTERVAL_MS = 100;
const GENERIC_FAILURE = 'Failed to generate image. Please try again.';

/** The provider drew a picture moderators removed before: it is never stored, and the job fails as a refusal. */
class BlockedPictureError extends Error {
  constructor(readonly match: BlockedMatch) {
    super(BLOCKED_PICTURE_MESSAGE);
  }
}

/**
 * Runs queued jobs on this media instance: leases each one, renews the lease while the provider draws,
 * stores the picture and its renditions, then marks it done. A sweeper in every instance takes back jobs
 * whose instance died (retry, or fail and refund) and settles refunds still owed.
 */
export class GenerationWorker {
  private readonly owner = `media-${randomUUID()}`;
  private readonly running = new Map<string, AbortController>();
  private readonly runs = new Set<Promise<void>>();
  private filling: Promise<void> | null = null;
  private wakeAgain = false;
  private stopping = false;

  constructor(
    private readonly store: MediaStore,
    private readonly bus: Bus,
    private readonly ledger: ImageLedger,
    private readonly provider: ImageProvider,
    private readonly storage: ObjectStorage,
    private readonly updates: GenerationUpdates,
    private readonly config: MediaConfig,
  ) {}

  async start(): Promise<Subscription> {
    await this.storage.ensureReady();
    const cancels = await this.bus.subscribeLive(GENERATION_CANCEL_SUBJECT, (data) => {
      const message = CancelMessage.safeParse(data);
      if (message.success) this.running.get(message.data.jobId)?.abort('cancel' satisfies StopReason);
    });
    const poll = setInterval(() => this.wake(), this.config.pollIntervalMs);
    const sweep = setInterval(() => void this.sweep(), this.config.sweepIntervalMs);
    poll.unref();
    sweep.unref();
    void this.sweep();
    this.wake();
    return {
      unsubscribe: async () => {
        this.stopping = true;
        clearInterval(poll);
        clearInterval(sweep);
        await cancels.unsubscribe();
        // Jobs in flight go back to the queue for another instance, without using up an attempt.
        for (const controller of this.running.values()) controller.abort('shutdown' satisfies StopReason);
        await this.filling;
        await Promise.allSettled([...this.runs]);
      },
    };
  }

  /** Takes queued jobs while this instance has free slots. */
  wake(): void {
    if (this.stopping) return;
    if (this.filling) {
      this.wakeAgain = true;
      return;
    }
    this.filling = this.fill()
      .catch((error: unknown) => logger.error({ err: error }, 'claiming generation jobs failed'))
      .finally(() => {
        this.filling = null;
        if (this.wakeAgain) {
          this.wakeAgain = false;
          this.wake();
        }
      });
  }

  async broadcastCancel(jobId: string): Promise<void> {
    this.running.get(jobId)?.abort('cancel' satisfies StopReason);
    await this.bus.publishLive(GENERATION_CANCEL_SUBJECT, { jobId });
  }

  /** The job once it has finished, or as it stands after `timeoutMs`. */
  async waitForFinish(userId: string, jobId: string, timeoutMs: number): Promise<GenerationJob> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await this.store.run(({ jobs }) => jobs.find(jobId));
      if (!row || row.user_id !== userId) throw new Error('job vanished');
      if (FINISHED_GENERATION_STATUSES.includes(row.status) || Date.now() >= deadline) return this.updates.present(row);
      await sleep(100);
    }
  }

  /** Returns a job's charge; on failure the sweeper tries again later (identity makes repeats no-ops). */
  private async settleRefund(row: JobRow): Promise<void> {
    try {
      const reason = row.status === 'cancelled' ? 'Image generation cancelled' : 'Image generation failed';
      await this.ledger.refund(row.user_id, row.debit_key, reason);
      await this.store.run(({ jobs }) => jobs.clearRefundDue(row.id));
    } catch (error) {
      logger.warn({ jobId: row.id, err: error }, 'refund not settled yet; will retry');
    }
  }

  private async fill(): Promise<void> {
    const slots = this.config.workerConcurrency - this.running.size;
    if (slots <= 0 || this.stopping) return;
    const claimed = await this.store.run(({ jobs }) => jobs.claim(this.owner, slots, this.config.jobLeaseMs));
    for (const row of claimed) {
      // A job that could not even be ended (the database gone as it finished) stays leased: the sweeper retries
      // it, or fails and refunds it, once its lease runs out. It must never take the process down.
      const run = this.run(row)
        .catch((error: unknown) =>
          logger.error({ jobId: row.id, err: error }, 'generation could not be ended; the sweeper will take it back'),
        )
        .finally(() => {
          this.runs.delete(run);
          this.wake();
        });
      this.runs.add(run);
    }
  }

  private async run(row: JobRow): Promise<void> {
    const controller = new AbortController();
    this.running.set(row.id, controller);
    let progress: number | null = null;
    let lastPush = 0;
    let lastEventQuarter = 0;
    const heartbeat = setInterval(
      () => {
        void this.store
          .run(({ jobs }) => jobs.renew(row.id, this.owner, this.config.jobLeaseMs, progress))
          .then((lease) => {
            if (!lease) controller.abort('lost' satisfies StopReason);
            else if (lease.cancel_requested) controller.abort('cancel' satisfies StopReason);
          })
          .catch((error: unknown) => logger.warn({ jobId: row.id, err: error }, 'lease renewal failed'));
      },
      Math.max(100, Math.floor(this.config.jobLeaseMs / 3)),
    );
    const started = performance.now();
    try {
      await this.updates.push(row);
      void this.progressEvent(row, 'running', null);
      const result = await this.provider.generate({
        prompt: row.prompt,
        settings: settingsOf(row),
        signal: controller.signal,
        onProgress: (fraction) => {
          if (controller.signal.aborted) return;
          progress = Math.min(1, Math.max(0, fraction));
          const now = Date.now();
          if (now - lastPush >= PUSH_INTERVAL_MS || progress === 1) {
            lastPush = now;
            void this.updates.push(row, progress);
          }
          const quarter = Math.floor(progress * 4);
          if (quarter > lastEventQuarter) {
            lastEventQuarter = quarter;
            void this.progressEvent(row, 'running', progress);
          }
        },
      });
      if (controller.signal.aborted) throw new ImageProviderError('CANCELLED', 'The generation was stopped');
      const storing = await this.store.run(({ jobs }) => jobs.markStoring(row.id, this.owner));
      if (!storing) return await this.lostOrCancelled(row, started);
      await this.updates.push(storing);
      void this.progressEvent(storing, 'storing', 1);

      const renderStarted = performance.now();
      const processed = await processImage(result.image).catch((error: unknown) => {
        if (error instanceof InvalidImageError)
          throw new ImageProviderError('UNAVAILABLE', 'The image provider sent a picture that could not be read', undefined, true);
        throw error;
      });
      const hashes = await hashPicture(processed.png);
      const blocked = await this.store.run(({ moderation }) => moderation.findBlocked(hashes));
      if (blocked) throw new BlockedPictureError(blocked);
      const imageId = attemptImageId(row.id, row.attempts);
      const files = [
        { key: imageKeys.original(imageId), body: processed.png, type: 'image/png' },
        ...processed.renditions.map((rendition) => ({
          key: imageKeys.rendition(imageId, rendition.width),
          body: rendition.body,
          type: 'image/webp',
        })),
      ];
      // Every write settles before a failure is handled, so no write lands after its files were discarded.
      const writes = await Promise.allSettled(files.map((file) => this.storage.put(file.key, file.body, file.type)));
      const refused = writes.find((write) => write.status === 'rejected');
      if (refused) throw refused.reason;
      const renditionMs = Math.round(performance.now() - renderStarted);

      const done = await this.store.transaction(async ({ jobs, images }, tx) => {
        const finished = await jobs.markDone(row.id, this.owner, imageId);
        if (!finished) return null;
        await images.insert({
          id: imageId,
          user_id: row.user_id,
          job_id: row.id,
          prompt: row.prompt,
          model: result.model || row.model,
          provider: row.provider,
          is_demo: row.is_demo,
          size: row.size,
          quality: row.quality,
          style: row.style,
          // The seed the provider reports is the one that repeats the picture (a random one when none was asked for).
          advanced: advancedOf({ ...row.advanced, seed: result.seed ?? row.advanced?.seed }),
          width: processed.width,
          height: processed.height,
          placeholder: processed.placeholder,
          renditions: processed.renditions.map(({ width, height }) => ({ width, height, format: 'webp' as const })),
          byte_size: processed.png.length,
          created_at: new Date(),
          hashes,
        });
        await tx.emit(
          mediaEvents.imageGenerated,
          {
            jobId: row.id,
            userId: row.user_id,
            imageId,
            provider: row.provider,
            model: result.model || row.model,
            isDemo: row.is_demo,
            latencyMs: Math.round(performance.now() - started),
            renditionMs,
            bytes: processed.png.length,
          },
          row.user_id,
        );
        return finished;
      });
      if (!done) return await this.lostOrCancelled(row, started);
      recordGeneration('image', 'completed', started);
      // Earlier attempts that died while storing left their files under their own ids.
      if (row.attempts > 1) await discardAttemptFiles(this.storage, row.id, row.attempts, imageId);
      await this.updates.push(done);
    } catch (error) {
      await this.handleFailure(row, error, controller.signal.reason as StopReason | undefined, started);
    } finally {
      clearInterval(heartbeat);
      this.running.delete(row.id);
    }
  }

  /** A finishing step matched nothing: either the member cancelled, or the lease went to the sweeper. */
  private async lostOrCancelled(row: JobRow, started: number): Promise<void> {
    const current = await this.store.run(({ jobs }) => jobs.find(row.id));
    const reason: StopReason = current?.lease_owner === this.owner && current.cancel_requested ? 'cancel' : 'lost';
    await this.handleFailure(row, new ImageProviderError('CANCELLED', 'The generation was stopped'), reason, started);
  }

  /**
   * An attempt's files stay while the job may run again (the attempt that makes the image removes them) and go once it has
   * ended without one. The attempt's duration is recorded unless another instance or a restart carries the job on.
   */
  private async handleFailure(row: JobRow, error: unknown, stopReason: StopReason | undefined, started: number): Promise<void> {
    if (stopReason === 'lost') {
      logger.warn({ jobId: row.id }, 'generation lease lost; another instance owns the job now');
      // This attempt's id is its own (no other attempt can commit it): whatever it wrote goes.
      await deleteImageFiles(this.storage, attemptImageId(row.id, row.attempts)).catch((error: unknown) =>
        logger.warn({ jobId: row.id, err: error }, 'files of a lost attempt not deleted'),
      );
      return;
    }
    if (stopReason === 'shutdown') {
      const requeued = await this.store.run(({ jobs }) => jobs.requeue(row.id, this.owner, 0, true));
      if (requeued) await this.updates.push(requeued);
      return;
    }
    if (stopReason === 'cancel') {
      recordGeneration('image', 'stopped', started);
      const cancelled = await this.finish(row, 'cancelled', null, null);
      if (cancelled) await this.concludeUnsuccessful(cancelled);
      return;
    }
    if (error instanceof BlockedPictureError) {
      recordGeneration('image', 'refused', started);
      logger.warn({ jobId: row.id, evidence: error.match.evidence }, 'generated picture matches a removed one');
      const refusal = blockedPictureRefusal('image.generated', row.user_id, error.match);
      const failed = await this.finish(row, 'failed', 'CONTENT_REJECTED', BLOCKED_PICTURE_MESSAGE, refusal);
      if (failed) await this.concludeUnsuccessful(failed);
      return;
    }
    const providerError = error instanceof ImageProviderError ? error : null;
    if (!providerError) logger.error({ jobId: row.id, err: error }, 'generation failed');
    else
      logger.warn(
        { jobId: row.id, code: providerError.code, status: providerError.status, message: providerError.message },
        'provider failed',
      );
    if (providerError?.retryable && row.attempts < this.config.maxAttempts) {
      recordGeneration('image', 'retried', started);
      const delayMs = this.config.retryDelayMs * row.attempts;
      const requeued = await this.store.run(({ jobs }) => jobs.requeue(row.id, this.owner, delayMs, false));
      if (requeued) {
        await this.updates.push(requeued);
        void this.progressEvent(requeued, 'queued', null);
      }
      return;
    }
    const code = providerError && providerError.code !== 'CANCELLED' ? providerError.code : 'INTERNAL';
    recordGeneration('image', code === 'CONTENT_REJECTED' ? 'refused' : 'failed', started);
    const message = code === 'CONTENT_REJECTED' ? providerError!.message : GENERIC_FAILURE;
    const failed = await this.finish(row, 'failed', code, message);
    if (failed) await this.concludeUnsuccessful(failed);
  }

  /** A job that has just ended without an image (failed or cancelled): its attempts' files go, its charge comes back, the member hears of it. */
  async concludeUnsuccessful(row: JobRow): Promise<GenerationJob> {
    await discardAttemptFiles(this.storage, row.id, row.attempts);
    await this.settleRefund(row);
    return this.updates.push(row);
  }

  /** Ends the job; a refusal is recorded with the ending, so operators see each refused job exactly once. */
  private finish(
    row: JobRow,
    status: 'failed' | 'cancelled',
    code: string | null,
    message: string | null,
    refusal: ContentRefusal | null = null,
  ): Promise<JobRow | null> {
    return this.store.transaction(async ({ jobs }, tx) => {
      const ended = await jobs.finishUnsuccessful(row.id, this.owner, status, code, message, refusal?.reason ?? null);
      if (!ended) return null;
      await this.recordEnd(tx, ended);
      if (refusal) await tx.emit(mediaEvents.contentRefused, refusal, row.user_id);
      return ended;
    });
  }

  private async recordEnd(tx: Transaction, row: JobRow): Promise<void> {
    const base = { jobId: row.id, userId: row.user_id };
    if (row.status === 'cancelled') await tx.emit(mediaEvents.generationCancelled, { ...base, refunded: true }, row.user_id);
    else if (row.status === 'failed') {
      await tx.emit(
        mediaEvents.generationFailed,
        { ...base, errorCode: row.error_code ?? 'INTERNAL', attempts: row.attempts, refunded: true },
        row.user_id,
      );
    }
  }

  private async progressEvent(row: JobRow, status: GenerationStatus, progress: number | null): Promise<void> {
    await this.bus
      .publishEvent(
        mediaEvents.generationProgressed,
        { jobId: row.id, userId: row.user_id, status, progress, attempt: row.attempts },
        row.user_id,
      )
      .catch((error: unknown) => logger.warn({ jobId: row.id, err: error }, 'progress event not published'));
  }

  /** Jobs of dead instances back to the queue (or failed and refunded), then refunds still owed. */
  private async sweep(): Promise<void> {
    if (this.stopping) return;
    try {
      const swept = await this.store.transaction(async ({ jobs }, tx) => {
        const rows = await jobs.sweepExpired(this.config.maxAttempts);
        for (const row of rows) await this.recordEnd(tx, row);
        return rows;
      });
      if (swept.length > 0) {
        logger.warn({ jobs: swept.map((row) => `${row.id}:${row.status}`) }, 'took back generation jobs with expired leases');
        for (const row of swept) {
          if (row.status === 'queued') await this.updates.push(row);
          else await this.concludeUnsuccessful(row);
        }
        this.wake();
      }
      const owed = await this.store.run(({ jobs }) => jobs.refundsDue(50));
      for (const row of owed) await this.settleRefund(row);
    } catch (error) {
      logger.error({ err: error }, 'generation sweep failed');
    }
  }
}
