import type { PasswordKdf } from '../src/accounts/password';

/**
 * A key derivation a test can hold back, so "the queue is full" does not depend on how fast hashing is. It
 * records the password of every derivation started and hands the work to `inner` (real scrypt or a fake).
 */
export class HeldKdf implements PasswordKdf {
  readonly derived: string[] = [];
  /** The passwords checked against a stored hash (sign-ins), in order. */
  readonly verified: string[] = [];
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => undefined;

  constructor(private readonly inner: PasswordKdf) {}

  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }

  release(): void {
    this.open();
  }

  /** Derivations started for the given passwords (a test counts its own, whatever else shares the bus). */
  countFor(passwords: string[]): number {
    return this.derived.filter((password) => passwords.includes(password)).length;
  }

  async hash(password: string): Promise<string> {
    this.derived.push(password);
    await this.gate;
    return this.inner.hash(password);
  }

  async verify(password: string, stored: string): Promise<boolean> {
    this.derived.push(password);
    this.verified.push(password);
    await this.gate;
    return this.inner.verify(password, stored);
  }
}
