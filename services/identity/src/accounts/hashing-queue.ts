import { AppError } from '@app/schema';

export interface HashingQueueOptions {
  /** Hashes running at once; each holds a libuv threadpool thread and scrypt's memory until it ends. */
  concurrency: number;
  /** Hashes that may wait for a free slot; one more is refused at once. */
  maxQueued: number;
  /** Shown to the refused caller (with `retryAfterSeconds`). */
  busyMessage: string;
  /** A hash's duration until one has been measured. */
  initialRunMs?: number;
  clock?: () => number;
}

/** What the queue has done so far, for tests and logs. */
export interface HashingQueueStats {
  running: number;
  queued: number;
  /** The most hashes ever seen running at once. */
  maxRunning: number;
  started: number;
  /** Queued work dropped unstarted because its caller had stopped waiting. */
  dropped: number;
  /** Callers refused at once (queue full, or no hope of finishing before their deadline). */
  shed: number;
}

interface Waiter {
  deadlineAt: number;
  start(): void;
  drop(error: AppError): void;
}

/** Recent durations count for a fifth, so the estimate follows load without jumping on one slow hash. */
const RUN_ESTIMATE_WEIGHT = 0.2;
const DEFAULT_INITIAL_RUN_MS = 250;

const callerGone = () => new AppError('TIMEOUT', 'The request timed out before the password could be checked.');

/**
 * Runs expensive work (password hashing) at most `concurrency` at a time with a bounded wait queue. A caller is
 * refused at once when the queue is full or when the expected wait would outlast its deadline, and work whose
 * caller has stopped waiting is dropped, never started.
 */
export class HashingQueue {
  private readonly waiting: Waiter[] = [];
  private readonly clock: () => number;
  private running = 0;
  private averageMs: number;
  private hasMeasured = false;
  private readonly counters = { maxRunning: 0, started: 0, dropped: 0, shed: 0 };

  constructor(private readonly options: HashingQueueOptions) {
    if (options.concurrency < 1) throw new Error('Password hashing needs a concurrency of at least 1');
    if (options.maxQueued < 0) throw new Error('The password hashing queue cannot be shorter than 0');
    this.clock = options.clock ?? Date.now;
    this.averageMs = options.initialRunMs ?? DEFAULT_INITIAL_RUN_MS;
  }

  get stats(): HashingQueueStats {
    return { running: this.running, queued: this.waiting.length, ...this.counters };
  }

  /** The measured (moving average) duration of one run. */
  get averageRunMs(): number {
    return this.averageMs;
  }

  /** Runs `work` when a slot is free; `deadlineAt` (epoch ms) is when the caller stops waiting. */
  async run<T>(work: () => Promise<T>, deadlineAt = Infinity): Promise<T> {
    this.assertAdmissible(deadlineAt);
    if (this.running < this.options.concurrency) {
      this.running++;
      return this.execute(work);
    }
    await new Promise<void>((start, drop) => this.waiting.push({ deadlineAt, start, drop }));
    return this.execute(work);
  }

  /** True when more than `reserved` places (free slots and free waiting places) are left for a caller arriving now. */
  hasRoomBeyond(reserved: number): boolean {
    this.dropExpired();
    const freeSlots = Math.max(0, this.options.concurrency - this.running);
    return freeSlots + this.options.maxQueued - this.waiting.length > reserved;
  }

  get maxQueued(): number {
    return this.options.maxQueued;
  }

  /** How long a caller arriving now would wait for a slot. */
  expectedWaitMs(): number {
    if (this.running < this.options.concurrency) return 0;
    return Math.ceil((this.waiting.length + 1) / this.options.concurrency) * this.averageMs;
  }

  /** Throws what `run` would throw for a caller arriving now with this deadline, without queueing anything. */
  assertAdmissible(deadlineAt = Infinity): void {
    this.dropExpired();
    const now = this.clock();
    if (deadlineAt <= now) {
      this.counters.dropped++;
      throw callerGone();
    }
    const isFull = this.running >= this.options.concurrency && this.waiting.length >= this.options.maxQueued;
    const wouldFinishLate = now + this.expectedWaitMs() + this.averageMs > deadlineAt;
    if (!isFull && !wouldFinishLate) return;
    this.counters.shed++;
    throw new AppError('UNAVAILABLE', this.options.busyMessage, { retryAfterSeconds: this.retryAfterSeconds() });
  }

  private async execute<T>(work: () => Promise<T>): Promise<T> {
    this.counters.started++;
    this.counters.maxRunning = Math.max(this.counters.maxRunning, this.running);
    const startedAt = this.clock();
    try {
      return await work();
    } finally {
      this.recordDuration(this.clock() - startedAt);
      this.running--;
      this.startNext();
    }
  }

  /** Hands free slots to the oldest waiters whose callers are still there. */
  private startNext(): void {
    while (this.running < this.options.concurrency && this.waiting.length > 0) {
      const next = this.waiting.shift()!;
      if (next.deadlineAt <= this.clock()) {
        this.counters.dropped++;
        next.drop(callerGone());
        continue;
      }
      this.running++;
      next.start();
    }
  }

  /** Frees the places of waiters whose callers have gone, so they do not push live callers out. */
  private dropExpired(): void {
    const now = this.clock();
    for (let index = this.waiting.length - 1; index >= 0; index--) {
      const waiter = this.waiting[index]!;
      if (waiter.deadlineAt > now) continue;
      this.waiting.splice(index, 1);
      this.counters.dropped++;
      waiter.drop(callerGone());
    }
  }

  private recordDuration(ms: number): void {
    this.averageMs = this.hasMeasured ? this.averageMs + RUN_ESTIMATE_WEIGHT * (ms - this.averageMs) : ms;
    this.hasMeasured = true;
  }

  /** Seconds until the work already accepted is expected to be done. */
  private retryAfterSeconds(): number {
    const pendingRounds = Math.ceil((this.running + this.waiting.length) / this.options.concurrency);
    return Math.max(1, Math.ceil((pendingRounds * this.averageMs) / 1000));
  }
}
