import type { AppError } from '@app/schema';
import { HashingQueue } from './hashing-queue';

/** Work the test finishes by hand, so nothing depends on how fast anything runs. */
function heldWork() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const work = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { started, work, finish };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: AppError) => error,
  );

describe('HashingQueue', () => {
  let now: number;
  const queue = (concurrency: number, maxQueued: number) =>
    new HashingQueue({ concurrency, maxQueued, busyMessage: 'Busy, try again.', initialRunMs: 100, clock: () => now });

  beforeEach(() => {
    now = 1_000_000;
  });

  it('never runs more than its concurrency at once, and runs the waiting work in order as slots free', async () => {
    const hashing = queue(2, 10);
    const { started, work, finish } = heldWork();
    const results = ['a', 'b', 'c', 'd', 'e'].map((name) => hashing.run(work(name)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['a', 'b']);
    expect(hashing.stats).toMatchObject({ running: 2, queued: 3 });
    await finish('b');
    expect(started).toEqual(['a', 'b', 'c']);
    for (const name of ['a', 'c', 'd', 'e']) await finish(name);
    await expect(Promise.all(results)).resolves.toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(hashing.stats).toMatchObject({ running: 0, queued: 0, maxRunning: 2, started: 5, dropped: 0, shed: 0 });
  });

  it('refuses at once with UNAVAILABLE and a Retry-After when the queue is full', async () => {
    const hashing = queue(1, 2);
    const { work } = heldWork();
    for (const name of ['a', 'b', 'c']) void hashing.run(work(name));
    const refused = await refusal(hashing.run(work('d')));
    expect(refused).toMatchObject({ code: 'UNAVAILABLE', message: 'Busy, try again.' });
    expect(refused?.details?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(hashing.stats).toMatchObject({ queued: 2, shed: 1 });
  });

  it('refuses at once a caller whose deadline would pass before its turn ends', async () => {
    const hashing = queue(1, 10);
    const { started, work } = heldWork();
    void hashing.run(work('a'));
    void hashing.run(work('b'));
    // Two runs of ~100 ms are ahead of it and its own takes ~100 ms more: 250 ms is not enough, 400 ms is.
    const refused = await refusal(hashing.run(work('late'), now + 250));
    expect(refused).toMatchObject({ code: 'UNAVAILABLE' });
    void hashing.run(work('in time'), now + 400);
    expect(hashing.stats).toMatchObject({ queued: 2, shed: 1 });
    expect(started).toEqual(['a']);
  });

  it('drops queued work whose caller has stopped waiting, without running it', async () => {
    const hashing = queue(1, 10);
    const { started, work, finish } = heldWork();
    void hashing.run(work('a'));
    const gone = refusal(hashing.run(work('gone'), now + 1_000));
    const waiting = hashing.run(work('waiting'), now + 10_000);
    now += 2_000;
    await finish('a');
    expect(await gone).toMatchObject({ code: 'TIMEOUT' });
    expect(started).toEqual(['a', 'waiting']);
    await finish('waiting');
    await expect(waiting).resolves.toBe('waiting');
    expect(hashing.stats).toMatchObject({ started: 2, dropped: 1 });
  });

  it('never starts work whose deadline has already passed, even with a free slot', async () => {
    const hashing = queue(2, 10);
    const { started, work } = heldWork();
    expect(await refusal(hashing.run(work('late'), now - 1))).toMatchObject({ code: 'TIMEOUT' });
    expect(started).toEqual([]);
    expect(hashing.stats).toMatchObject({ started: 0, dropped: 1 });
  });

  it('frees the places of expired waiters for new callers', async () => {
    const hashing = queue(1, 1);
    const { work } = heldWork();
    void hashing.run(work('a'));
    const expired = refusal(hashing.run(work('expired'), now + 1_000));
    now += 2_000;
    void hashing.run(work('fresh'), now + 10_000);
    expect(await expired).toMatchObject({ code: 'TIMEOUT' });
    expect(hashing.stats).toMatchObject({ queued: 1, dropped: 1, shed: 0 });
  });

  it('estimates waits from the measured run time', async () => {
    const hashing = queue(1, 10);
    const { work, finish } = heldWork();
    const first = hashing.run(work('a'));
    now += 3_000;
    await finish('a');
    await first;
    expect(hashing.averageRunMs).toBe(3_000);
    void hashing.run(work('b'));
    void hashing.run(work('c'));
    expect(hashing.expectedWaitMs()).toBe(6_000);
    const refused = await refusal(hashing.run(work('d'), now + 5_000));
    expect(refused?.details?.retryAfterSeconds).toBe(6);
  });

  it('refuses a concurrency below 1 and a negative queue length', () => {
    expect(() => queue(0, 1)).toThrow('at least 1');
    expect(() => queue(1, -1)).toThrow('shorter than 0');
  });
});
