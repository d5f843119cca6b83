import type { GenerationStatus } from '../../gql/graphql';
import { isActiveGeneration } from './image-settings';

/** What the tracker needs to know of a generation job. */
export interface TrackedJob {
  id: string;
  status: GenerationStatus;
  progress: number | null;
  createdAt: string;
}

const STATUS_RANK: Record<GenerationStatus, number> = { QUEUED: 0, RUNNING: 1, STORING: 2, DONE: 3, FAILED: 3, CANCELLED: 3 };

/** A job only moves forwards: a later status, or more progress in the same one. */
function isNotOlder(next: TrackedJob, known: TrackedJob): boolean {
  const rank = STATUS_RANK[next.status] - STATUS_RANK[known.status];
  return rank > 0 || (rank === 0 && (next.progress ?? -1) >= (known.progress ?? -1));
}

/**
 * Follows the member's generation jobs for the generator screen, from three sources that may
 * arrive in any order: the live updates (every job of the member), the generateImage answer, and
 * the catch-up reads (activeGenerations after a reload, generation(id) after a silence).
 *
 * One job is "tracked" (its progress is shown): the one this screen started, else the newest
 * active one (started before a reload or in another tab). When the tracked job ends, `receive`
 * and `endClaim` return it once, so the screen can announce the result, and the next active job
 * (if any) is tracked. Snapshots older than what is known are ignored.
 */
export class GenerationTracker<T extends TrackedJob> {
  private readonly active = new Map<string, T>();
  private readonly finished = new Map<string, T>();
  private trackedId: string | null = null;
  private claiming = false;

  /** The tracked job's newest snapshot, or null when nothing is in progress here. */
  current(): T | null {
    return this.trackedId ? (this.active.get(this.trackedId) ?? null) : null;
  }

  /** True while a generateImage call is in flight or a job is tracked. */
  isBusy(): boolean {
    return this.claiming || this.trackedId !== null;
  }

  /** A snapshot from any source; returns the tracked job if this one ended it. */
  receive(job: T): T[] {
    if (this.finished.has(job.id)) return [];
    if (isActiveGeneration(job.status)) {
      const known = this.active.get(job.id);
      if (known && !isNotOlder(job, known)) return [];
      this.active.set(job.id, job);
      if (this.trackedId === null && !this.claiming) this.trackedId = job.id;
      return [];
    }
    this.active.delete(job.id);
    this.finished.set(job.id, job);
    if (this.trackedId !== job.id) return [];
    this.trackedId = null;
    this.adoptNext();
    return [job];
  }

  /** A generateImage call starts: the job it makes will be tracked, not another that shows up meanwhile. */
  beginClaim(): void {
    this.claiming = true;
  }

  /** The call answered with `job` (undefined: it failed). Returns the job if it had already ended. */
  endClaim(job?: T): T[] {
    this.claiming = false;
    if (!job) {
      this.adoptNext();
      return [];
    }
    const ended = this.finished.get(job.id);
    if (ended) {
      this.adoptNext();
      return [ended];
    }
    this.trackedId = job.id;
    return this.receive(job);
  }

  private adoptNext(): void {
    if (this.trackedId !== null || this.claiming) return;
    let newest: T | null = null;
    for (const job of this.active.values()) if (!newest || job.createdAt > newest.createdAt) newest = job;
    this.trackedId = newest?.id ?? null;
  }
}
