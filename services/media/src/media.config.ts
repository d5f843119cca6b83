import { Environment, integer } from '@app/kit';

export interface MediaConfig {
  /** Generations one media instance runs at the same time. */
  workerConcurrency: number;
  /** A running job whose lease is older than this is presumed orphaned (its process died): retried or failed and refunded. */
  jobLeaseMs: number;
  /** How often each instance looks for orphaned jobs and refunds still owed. */
  sweepIntervalMs: number;
  /** How often an idle instance looks for queued jobs (new jobs also wake it at once). */
  pollIntervalMs: number;
  /** Attempts per job before it fails for good (a crash or a retryable provider error uses one). */
  maxAttempts: number;
  /** Wait before a retry, multiplied by the attempt number. */
  retryDelayMs: number;
  /** Generations a member may start per minute. */
  generationsPerMinute: number;
  /** Generations a member may have queued or running at once. */
  activeJobsPerMember: number;
  /** Demo renderer: delay between its ten drawing steps. */
  demoStepDelayMs: number;
}

const MS = { min: 1 };

/** Everything the media service reads from its environment, its providers' settings aside (the README's table comes from here). */
export const mediaEnvironment = new Environment('media', {
  MEDIA_WORKER_CONCURRENCY: integer(2, { min: 1, meaning: 'Generations one media instance runs at the same time.' }),
  MEDIA_JOB_LEASE_MS: integer(30_000, {
    ...MS,
    meaning:
      'A running job whose lease (renewed every third of this time) has run out is presumed orphaned by a dead process: any media instance retries it, or fails and refunds it.',
  }),
  MEDIA_SWEEP_INTERVAL_MS: integer(5_000, {
    ...MS,
    meaning: 'How often each media instance looks for orphaned jobs and for refunds still owed.',
  }),
  MEDIA_POLL_INTERVAL_MS: integer(1_000, {
    ...MS,
    meaning: 'How often an idle media instance looks for queued jobs; a job queued through the instance wakes it at once.',
  }),
  MEDIA_MAX_ATTEMPTS: integer(2, {
    min: 1,
    meaning: 'Attempts per job; a retryable provider failure or a crash uses one. After the last, the job fails and is refunded.',
  }),
  MEDIA_RETRY_DELAY_MS: integer(2_000, { min: 0, meaning: 'Wait before a retry, multiplied by the attempts made so far.' }),
  MEDIA_GENERATIONS_PER_MINUTE: integer(10, {
    min: 1,
    meaning: 'Generations one member may start per minute; past it `RATE_LIMITED` (429, `Retry-After: 60`).',
  }),
  MEDIA_ACTIVE_JOBS_PER_MEMBER: integer(4, {
    min: 1,
    meaning: 'Unfinished generations one member may have at once; past it `RATE_LIMITED` (429, `Retry-After: 10`).',
  }),
  MEDIA_DEMO_STEP_DELAY_MS: integer(150, { min: 0, meaning: 'Demo renderer: delay between its ten drawing steps.' }),
});

export function readMediaConfig(env: NodeJS.ProcessEnv): MediaConfig {
  const vars = mediaEnvironment.parse(env);
  return {
    workerConcurrency: vars.MEDIA_WORKER_CONCURRENCY,
    jobLeaseMs: vars.MEDIA_JOB_LEASE_MS,
    sweepIntervalMs: vars.MEDIA_SWEEP_INTERVAL_MS,
    pollIntervalMs: vars.MEDIA_POLL_INTERVAL_MS,
    maxAttempts: vars.MEDIA_MAX_ATTEMPTS,
    retryDelayMs: vars.MEDIA_RETRY_DELAY_MS,
    generationsPerMinute: vars.MEDIA_GENERATIONS_PER_MINUTE,
    activeJobsPerMember: vars.MEDIA_ACTIVE_JOBS_PER_MEMBER,
    demoStepDelayMs: vars.MEDIA_DEMO_STEP_DELAY_MS,
  };
}
