/** A FIFO lock: `acquire` resolves with a release function once every earlier holder has released. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ready = this.tail.then(() => {
      let released = false;
      return () => {
        if (!released) {
          released = true;
          release();
        }
      };
    });
    this.tail = this.tail.then(() => next);
    return ready;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
