import { type Bus, type Subscription, logger } from '@app/kit';
import {
  CHAT_LIVE_SUBJECTS,
  ChatLiveUpdate,
  GENERATION_LIVE_SUBJECTS,
  GenerationLiveUpdate,
  type TokenChange,
  identityEvents,
} from '@app/schema';

export const LIVE_TOPICS = { tokens: 'tokens', conversation: 'conversation', generation: 'generation' } as const;

type Listener<T> = (value: T) => void;

/**
 * Fans events from the bus out to this gateway's GraphQL subscriptions. Each gateway instance tails
 * the stream itself, so a member's subscription works whichever instance it is connected to.
 */
export class LiveHub {
  private readonly listeners = new Map<string, Set<Listener<unknown>>>();
  private subscriptions: Subscription[] = [];

  async start(bus: Bus): Promise<void> {
    this.subscriptions.push(
      await bus.consumeEvents({ subjects: [identityEvents.tokensChanged.type], deliver: 'new' }, async (event) => {
        const change = identityEvents.tokensChanged.data.parse(event.data);
        this.publish(LIVE_TOPICS.tokens, change.userId, change satisfies TokenChange);
      }),
      // Typing, text deltas and message changes; conversation ids are checked for ownership on subscribe.
      await bus.subscribeLive(CHAT_LIVE_SUBJECTS, (data) => {
        const update = ChatLiveUpdate.safeParse(data);
        if (update.success) this.publish(LIVE_TOPICS.conversation, update.data.conversationId, update.data);
        else logger.warn({ issues: update.error.issues.length }, 'malformed chat live update dropped');
      }),
      // Generation jobs, keyed by their owner: a member only ever listens to their own.
      await bus.subscribeLive(GENERATION_LIVE_SUBJECTS, (data) => {
        const update = GenerationLiveUpdate.safeParse(data);
        if (update.success) this.publish(LIVE_TOPICS.generation, update.data.userId, update.data.job);
        else logger.warn({ issues: update.error.issues.length }, 'malformed generation update dropped');
      }),
    );
  }

  async stop(): Promise<void> {
    for (const subscription of this.subscriptions) await subscription.unsubscribe();
    this.subscriptions = [];
  }

  /** type-graphql's PubSub contract: `subscribe(routingKey, dynamicId)` yields what `publish` sends. */
  publish(routingKey: string, ...args: unknown[]): void {
    const [idOrPayload, payload] = args;
    if (args.length > 1) this.emit(`${routingKey}:${String(idOrPayload)}`, payload);
    else this.emit(routingKey, idOrPayload);
  }

  subscribe(routingKey: string, dynamicId?: unknown): AsyncIterable<unknown> {
    return this.iterate(dynamicId === undefined ? routingKey : `${routingKey}:${String(dynamicId)}`);
  }

  private emit(topic: string, value: unknown): void {
    for (const listener of this.listeners.get(topic) ?? []) listener(value);
  }

  /** An async iterator over a topic that buffers between pulls and unregisters when the client leaves. */
  private iterate<T>(topic: string): AsyncIterableIterator<T> {
    const buffer: T[] = [];
    let wake: ((result: IteratorResult<T>) => void) | null = null;
    let done = false;
    const listener: Listener<unknown> = (value) => {
      if (wake) {
        const resolve = wake;
        wake = null;
        resolve({ value: value as T, done: false });
      } else if (buffer.length < 1000) {
        buffer.push(value as T);
      } else {
        logger.warn({ topic }, 'slow subscriber: dropping live update');
      }
    };
    const set = this.listeners.get(topic) ?? new Set();
    set.add(listener);
    this.listeners.set(topic, set);
    const finish = (): Promise<IteratorResult<T>> => {
      done = true;
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(topic);
      wake?.({ value: undefined, done: true });
      wake = null;
      return Promise.resolve({ value: undefined, done: true });
    };
    return {
      next: () => {
        if (buffer.length > 0) return Promise.resolve({ value: buffer.shift()!, done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => {
          wake = resolve;
        });
      },
      return: finish,
      throw: finish,
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }
}
