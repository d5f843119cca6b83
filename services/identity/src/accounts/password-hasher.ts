import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HashingQueue } from './hashing-queue';
import { type PasswordKdf, scryptKdf } from './password';
import type { UnknownEmailBudget } from './unknown-email-budget';

/**
 * Every password hash identity computes goes through one bounded queue, so a flood of sign-ins cannot take the
 * threadpool (and with it file reads, DNS and compression) from everything else in the process.
 */
export class PasswordHasher {
  private decoy: Promise<string> | null = null;

  constructor(
    readonly queue: HashingQueue,
    private readonly unknownEmailBudget: UnknownEmailBudget,
    private readonly kdf: PasswordKdf = scryptKdf,
  ) {}

  hash(password: string, deadlineAt?: number): Promise<string> {
    return this.queue.run(() => this.kdf.hash(password), deadlineAt);
  }

  verify(password: string, stored: string, deadlineAt?: number): Promise<boolean> {
    return this.queue.run(() => this.kdf.verify(password, stored), deadlineAt);
  }

  /**
   * An unregistered e-mail can never sign in. It is checked against a decoy hash, so it costs the time a wrong
   * password does, only within the per-minute budget and without taking the half of the wait queue kept for members
   * and sign-ups; otherwise it is answered after about that time without hashing. Always false.
   */
  async verifyUnknownEmail(password: string, deadlineAt?: number): Promise<false> {
    const decoy = await this.decoyHash();
    // The last room check and the queueing happen in one turn, so concurrent callers cannot overfill the queue.
    if (this.hasRoomForDecoy() && (await this.unknownEmailBudget.tryTake()) && this.hasRoomForDecoy()) {
      await this.verify(password, decoy, deadlineAt);
      return false;
    }
    return this.imitateVerify(deadlineAt);
  }

  /** Computes the decoy hash now (and measures a first hash), instead of during the first sign-in. */
  async warmUp(): Promise<void> {
    await this.decoyHash();
  }

  private hasRoomForDecoy(): boolean {
    return this.queue.hasRoomBeyond(Math.ceil(this.queue.maxQueued / 2));
  }

  /** Refused like a real check when the queue would refuse one, otherwise answered after about the time one would take. */
  private async imitateVerify(deadlineAt = Infinity): Promise<false> {
    this.queue.assertAdmissible(deadlineAt);
    const checkMs = this.queue.expectedWaitMs() + this.queue.averageRunMs;
    await sleep(Math.max(0, Math.min(checkMs, deadlineAt - Date.now())));
    return false;
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= this.hash(randomBytes(16).toString('hex')).catch((error: unknown) => {
      this.decoy = null;
      throw error;
    });
    return this.decoy;
  }
}
