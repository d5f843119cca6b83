import { AppError } from '@app/schema';

/**
 * Photos this process decodes at once: one, so five 10 MB uploads cost one decoded picture of memory, not five.
 * The others wait their turn in order; a full queue is answered UNAVAILABLE at once (the upload stays staged, so the
 * client may send the same registration again after `retryAfterSeconds`).
 */
export class PhotoQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
    /** What a refused caller is told to wait: about the time the queue takes to move on. */
    private readonly retryAfterSeconds: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new AppError('UNAVAILABLE', 'Many photos are being processed right now. Please try again in a moment.', {
          retryAfterSeconds: this.retryAfterSeconds,
        });
      }
      // The slot is handed over by the one finishing, so `running` never drops below the queue's demand.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Photos being processed and waiting (for status reports and tests). */
  get depth(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
