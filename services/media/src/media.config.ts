import { readInt } from '@app/kit';

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

export function readMediaConfig(env: NodeJS.ProcessEnv): MediaConfig {
  return {
    workerConcurrency: readInt(env, 'MEDIA_WORKER_CONCURRENCY', 2),
    jobLeaseMs: readInt(env, 'MEDIA_JOB_LEASE_MS', 30_000),
    sweepIntervalMs: readInt(env, 'MEDIA_SWEEP_INTERVAL_MS', 5_000),
    pollIntervalMs: readInt(env, 'MEDIA_POLL_INTERVAL_MS', 1_000),
    maxAttempts: readInt(env, 'MEDIA_MAX_ATTEMPTS', 2),
    retryDelayMs: readInt(env, 'MEDIA_RETRY_DELAY_MS', 2_000),
    generationsPerMinute: readInt(env, 'MEDIA_GENERATIONS_PER_MINUTE', 10),
    activeJobsPerMember: readInt(env, 'MEDIA_ACTIVE_JOBS_PER_MEMBER', 4),
    demoStepDelayMs: readInt(env, 'MEDIA_DEMO_STEP_DELAY_MS', 150),
  };
}
