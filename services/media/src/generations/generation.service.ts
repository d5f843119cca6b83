import { randomUUID } from 'node:crypto';
import type { ContentPolicy } from '@app/policy';
import { AppError, GenerateImageInput, type GenerationJob, mediaEvents, validationError } from '@app/schema';
import type { MediaConfig } from '../media.config';
import type { MediaStore } from '../media.store';
import type { ImageProvider } from '../providers/image-provider';
import type { GenerationUpdates } from './generation-updates';
import { advancedOf, assertProviderHonours } from './advanced-settings';
import type { GenerationWorker } from './generation-worker';
import type { ImageLedger } from './image-ledger';

/** Starting, reading and cancelling generation jobs; the worker runs them. */
export class GenerationService {
  constructor(
    private readonly store: MediaStore,
    private readonly ledger: ImageLedger,
    private readonly provider: ImageProvider,
    private readonly worker: GenerationWorker,
    private readonly updates: GenerationUpdates,
    private readonly config: MediaConfig,
    private readonly policy: ContentPolicy,
  ) {}

  /** Validates, checks the content rules and the member's pace, charges 1 token (+ image quota), then queues. */
  async create(userId: string, rawInput: unknown): Promise<GenerationJob> {
    const parsed = GenerateImageInput.safeParse(rawInput ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    const { prompt, size, quality, style, ...asked } = parsed.data;
    const advanced = advancedOf(asked);
    const settings = { size, quality, style, ...advanced };
    await this.policy.assertAllowed([prompt], { path: 'image.prompt', userId });
    // The negative prompt steers the picture too and is published with it: the same hard lines apply.
    if (advanced?.negativePrompt) await this.policy.assertAllowed([advanced.negativePrompt], { path: 'image.negativePrompt', userId });
    const load = await this.store.run(({ jobs }) => jobs.recentLoad(userId));
    if (load.lastMinute >= this.config.generationsPerMinute) {
      throw new AppError('RATE_LIMITED', 'You are generating images too quickly. Please wait a minute.', { retryAfterSeconds: 60 });
    }
    if (load.active >= this.config.activeJobsPerMember) {
      throw new AppError('RATE_LIMITED', `You already have ${load.active} images in progress. Please wait for one to finish.`, {
        retryAfterSeconds: 10,
      });
    }
    // After the pace checks: it may ask the provider for its samplers.
    if (advanced) await assertProviderHonours(this.provider, advanced);

    const jobId = randomUUID();
    const debitKey = `image-generation:${jobId}`;
    await this.ledger.charge(userId, debitKey);
    let row;
    try {
      row = await this.store.transaction(async ({ jobs }, tx) => {
        await this.ledger.settle(debitKey);
        const inserted = await jobs.insert({
          id: jobId,
          user_id: userId,
          prompt,
          size,
          quality,
          style,
          advanced,
          provider: this.provider.kind,
          model: this.provider.model,
          is_demo: this.provider.isDemo,
          debit_key: debitKey,
        });
        await tx.emit(
          mediaEvents.generationQueued,
          { jobId, userId, provider: this.provider.kind, model: this.provider.model, settings },
          userId,
        );
        return inserted;
      });
    } catch (error) {
      // Nothing was queued: the charge goes back.
      await this.ledger.abandon(userId, debitKey);
      throw error;
    }
    this.worker.wake();
    return this.updates.push(row);
  }

  async get(userId: string, jobId: string): Promise<GenerationJob> {
    return this.updates.present(await this.owned(userId, jobId));
  }

  async listActive(userId: string): Promise<GenerationJob[]> {
    const rows = await this.store.run(({ jobs }) => jobs.listActive(userId));
    return Promise.all(rows.map((row) => this.updates.present(row)));
  }

  /** A queued job ends at once; a running one is stopped by its worker (wherever it runs). Both are refunded. */
  async cancel(userId: string, jobId: string): Promise<GenerationJob> {
    const job = await this.owned(userId, jobId);
    if (job.status === 'queued') {
      const cancelled = await this.store.transaction(async ({ jobs }, tx) => {
        const row = await jobs.finishUnsuccessful(jobId, null, 'cancelled', null, null);
        if (row) await tx.emit(mediaEvents.generationCancelled, { jobId, userId, refunded: true }, userId);
        return row;
      });
      if (cancelled) {
        // A job queued again after a failed or crashed attempt may have files from it: they go too.
        return this.worker.concludeUnsuccessful(cancelled);
      }
    } else if (job.status === 'running' || job.status === 'storing') {
      const requested = await this.store.run(({ jobs }) => jobs.requestCancel(jobId, userId));
      if (requested) await this.worker.broadcastCancel(jobId);
      return this.worker.waitForFinish(userId, jobId, 3_000);
    }
    return this.get(userId, jobId);
  }

  private async owned(userId: string, jobId: string) {
    const row = await this.store.run(({ jobs }) => jobs.find(jobId));
    if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', 'Generation not found');
    return row;
  }
}
