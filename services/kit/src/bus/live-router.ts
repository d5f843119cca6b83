import { subjectMatches } from './bus';

type LiveHandler = (data: unknown, subject: string) => void;

/**
 * The embedded bus's live subscriptions: exact subjects (one per conversation, per member) are found by a map lookup,
 * so a publish costs the same with 10 or 10,000 sockets; only wildcard subscriptions (operators' taps) are scanned.
 */
export class LiveRouter {
  private readonly exact = new Map<string, Set<LiveHandler>>();
  private readonly wildcards = new Set<{ pattern: string; handler: LiveHandler }>();

  /** Returns the function that removes this subscription. */
  add(pattern: string, handler: LiveHandler): () => void {
    if (isWildcard(pattern)) {
      const entry = { pattern, handler };
      this.wildcards.add(entry);
      return () => void this.wildcards.delete(entry);
    }
    // A wrapper per subscription, so the same handler subscribed twice is delivered twice and removed once.
    const own: LiveHandler = (data, subject) => handler(data, subject);
    let handlers = this.exact.get(pattern);
    if (!handlers) this.exact.set(pattern, (handlers = new Set()));
    handlers.add(own);
    return () => {
      handlers.delete(own);
      if (handlers.size === 0 && this.exact.get(pattern) === handlers) this.exact.delete(pattern);
    };
  }

  handlersFor(subject: string): LiveHandler[] {
    const matched = [...(this.exact.get(subject) ?? [])];
    for (const { pattern, handler } of this.wildcards) if (subjectMatches(pattern, subject)) matched.push(handler);
    return matched;
  }

  clear(): void {
    this.exact.clear();
    this.wildcards.clear();
  }
}

const isWildcard = (pattern: string) => pattern.split('.').some((token) => token === '*' || token === '>');
