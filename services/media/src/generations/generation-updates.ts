import { type Bus, logger } from '@app/kit';
import { type GenerationJob, generationLiveSubject } from '@app/schema';
import { EVERY_RATING, type ImagesService } from '../images/images.service';
import { settingsOf } from './advanced-settings';
import type { JobRow } from './jobs.repository';

/** Turns job rows into the contract's GenerationJob and pushes them to the member's live subject. */
export class GenerationUpdates {
  constructor(
    private readonly bus: Bus,
    private readonly images: ImagesService,
  ) {}

  async present(row: JobRow): Promise<GenerationJob> {
    const image =
      row.status === 'done' && row.image_id ? await this.images.get(row.user_id, row.image_id, EVERY_RATING).catch(() => null) : null;
    return {
      id: row.id,
      status: row.status,
      progress: row.progress === null ? null : Math.min(1, Math.max(0, Number(row.progress))),
      prompt: row.prompt,
      settings: settingsOf(row),
      provider: row.provider,
      model: row.model,
      isDemo: row.is_demo,
      attempts: row.attempts,
      image,
      errorCode: row.error_code,
      errorMessage: row.error_message,
      policyCategory: row.policy_category ?? null,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    };
  }

  /** Live, not stored: a member who is not watching reads the job's saved state instead. */
  async push(row: JobRow, progress: number | null = row.progress): Promise<GenerationJob> {
    const job = await this.present({ ...row, progress });
    await this.bus.publishLive(generationLiveSubject(row.user_id), { userId: row.user_id, job }).catch((error: unknown) => {
      logger.warn({ jobId: row.id, err: error }, 'generation update not pushed');
    });
    return job;
  }
}
