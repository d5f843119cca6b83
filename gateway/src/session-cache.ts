import type { TokenScope, User } from '@app/schema';

/** Who a credential speaks for: a member, and for an access token the scopes it carries (null for a browser session). */
export interface Access {
  user: User;
  scopes: TokenScope[] | null;
}

/**
 * The member behind a session token for a short while (SESSION_CACHE_MS), so a page's burst of requests costs
 * one identity round trip instead of one each. Keyed by the SHA-256 of the token. An entry goes when its time
 * is up, when the session ends on any gateway (identity announces sign-outs), and when this gateway carries a
 * write of the member (their balance or profile may have changed). Bounded: the oldest entries go first.
 */
export class SessionCache {
  private readonly entries = new Map<string, { access: Access; expiresAt: number }>();
  private readonly hashesOfMember = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(tokenHash: string): Access | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.access;
    this.forget(tokenHash);
    return undefined;
  }

  set(tokenHash: string, access: Access): void {
    if (!this.enabled) return;
    this.forget(tokenHash);
    if (this.entries.size >= this.maxEntries) this.forget(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { access, expiresAt: Date.now() + this.ttlMs });
    const hashes = this.hashesOfMember.get(access.user.id) ?? new Set<string>();
    hashes.add(tokenHash);
    this.hashesOfMember.set(access.user.id, hashes);
  }

  /** A session that ended. */
  forget(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    if (!entry) return;
    this.entries.delete(tokenHash);
    const hashes = this.hashesOfMember.get(entry.access.user.id);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) this.hashesOfMember.delete(entry.access.user.id);
  }

  /** Every session of a member whose data just changed. */
  forgetMember(userId: string): void {
    for (const tokenHash of [...(this.hashesOfMember.get(userId) ?? [])]) this.forget(tokenHash);
  }

  get size(): number {
    return this.entries.size;
  }
}
