import type { AppError } from '@app/schema';
import { HashingQueue } from './hashing-queue';
import type { PasswordKdf } from './password';
import { PasswordHasher } from './password-hasher';
import { UnknownEmailBudget } from './unknown-email-budget';
import { HeldKdf } from '../../test/held-kdf';

/** No real hashing: a stored hash is `hash-of-<password>`. */
const fakeKdf: PasswordKdf = {
  hash: async (password) => `hash-of-${password}`,
  verify: async (password, stored) => stored === `hash-of-${password}`,
};

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PasswordHasher', () => {
  let kdf: HeldKdf;
  const hasherWith = (budgetPerMinute: number, maxQueued = 2) => {
    const queue = new HashingQueue({ concurrency: 1, maxQueued, busyMessage: 'Busy, try again.', initialRunMs: 1 });
    return new PasswordHasher(queue, new UnknownEmailBudget(budgetPerMinute), kdf);
  };

  beforeEach(() => {
    kdf = new HeldKdf(fakeKdf);
  });

  it('checks an unknown e-mail against the decoy hash while the budget lasts, then answers the same without hashing', async () => {
    const hasher = hasherWith(2);
    for (const password of ['one', 'two', 'three', 'four']) await expect(hasher.verifyUnknownEmail(password)).resolves.toBe(false);
    expect(kdf.verified).toEqual(['one', 'two']);
  });

  it('keeps half the wait queue for members: decoy checks stop short of it, a member still gets in', async () => {
    const hasher = hasherWith(100, 4);
    await hasher.warmUp();
    kdf.hold();
    const unknown = ['a', 'b', 'c', 'd', 'e'].map((password) => hasher.verifyUnknownEmail(password));
    await settle();
    // One running and two of the four waiting places: the other two places stay free.
    expect(hasher.queue.stats).toMatchObject({ running: 1, queued: 2 });
    const members = [hasher.verify('m1', 'hash-of-m1'), hasher.verify('m2', 'hash-of-m2')];
    expect(hasher.queue.stats.queued).toBe(4);
    kdf.release();
    await expect(Promise.all(members)).resolves.toEqual([true, true]);
    await expect(Promise.all(unknown)).resolves.toEqual([false, false, false, false, false]);
    expect(kdf.verified).toEqual(['a', 'b', 'c', 'm1', 'm2']);
  });

  it('refuses an unknown e-mail exactly like a member when the queue is full, so the refusal reveals nothing', async () => {
    const hasher = hasherWith(100);
    await hasher.warmUp();
    kdf.hold();
    const members = ['m1', 'm2', 'm3'].map((password) => hasher.verify(password, 'hash-of-m1'));
    const refusal = (promise: Promise<unknown>) => promise.catch((error: AppError) => [error.code, error.message]);
    const forMember = await refusal(hasher.verify('m4', 'hash-of-m4'));
    const forUnknown = await refusal(hasher.verifyUnknownEmail('x'));
    expect(forMember).toEqual(['UNAVAILABLE', 'Busy, try again.']);
    expect(forUnknown).toEqual(forMember);
    kdf.release();
    await Promise.all(members);
  });

  it('does not hash for an unknown e-mail whose caller has already gone', async () => {
    const hasher = hasherWith(100);
    await expect(hasher.verifyUnknownEmail('late', Date.now() - 1)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(kdf.verified).toEqual([]);
  });
});
