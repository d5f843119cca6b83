import { type Bus, type Subscription, logger } from '@app/kit';
import {
  AchievementEarned,
  ChatLiveUpdate,
  GenerationLiveUpdate,
  SESSION_ENDED_SUBJECT,
  SessionEnded,
  StoryLiveUpdate,
  TokenChange,
  achievementsLiveSubject,
  chatLiveSubject,
  generationLiveSubject,
  storyLiveSubject,
  tokensLiveSubject,
} from '@app/schema';
import { type Listener, listenerIterator } from './live-iterator';

export const LIVE_TOPICS = {
  tokens: 'tokens',
  achievements: 'achievements',
  conversation: 'conversation',
  generation: 'generation',
  story: 'story',
} as const;

/** Live subjects routed per conversation, story or member: the bus subject, and how its messages reach the topic. */
const ROUTED = {
  // Balance changes, keyed by their member: a member only ever listens to their own.
  tokens: {
    subject: tokensLiveSubject,
    toTopic: (data: unknown) => {
      const change = TokenChange.safeParse(data);
      return change.success ? { id: change.data.userId, value: change.data as unknown } : null;
    },
  },
  // Achievements as they are earned, keyed by their member: a member only ever listens to their own.
  achievements: {
    subject: achievementsLiveSubject,
    toTopic: (data: unknown) => {
      const earned = AchievementEarned.safeParse(data);
      return earned.success ? { id: earned.data.userId, value: earned.data.achievement as unknown } : null;
    },
  },
  // Typing, text deltas and message changes; conversation ids are checked for ownership before listening.
  conversation: {
    subject: chatLiveSubject,
    toTopic: (data: unknown) => {
      const update = ChatLiveUpdate.safeParse(data);
      return update.success ? { id: update.data.conversationId, value: update.data as unknown } : null;
    },
  },
  // Typing, passage text deltas and passage or story changes; story ids are checked for ownership before listening.
  story: {
    subject: storyLiveSubject,
    toTopic: (data: unknown) => {
      const update = StoryLiveUpdate.safeParse(data);
      return update.success ? { id: update.data.storyId, value: update.data as unknown } : null;
    },
  },
  // Generation jobs, keyed by their owner: a member only ever listens to their own.
  generation: {
    subject: generationLiveSubject,
    toTopic: (data: unknown) => {
      const update = GenerationLiveUpdate.safeParse(data);
      return update.success ? { id: update.data.userId, value: update.data.job as unknown } : null;
    },
  },
} as const;

export type RoutedTopic = keyof typeof ROUTED;

/**
 * Fans bus traffic out to this gateway's GraphQL subscriptions. Balance, achievement, conversation, story and generation
 * updates come from the live subject of that member, conversation or story, subscribed while this gateway has a listener for
 * it and dropped with the last, so a gateway receives the live traffic of its own sockets only. Sign-outs,
 * rare, reach every gateway (`onSessionEnded`).
 */
export class LiveHub {
  private readonly listeners = new Map<string, Set<Listener<unknown>>>();
  private readonly routed = new Map<string, { subscription: Promise<Subscription>; listeners: number }>();
  private subscriptions: Subscription[] = [];
  private bus: Bus | null = null;
  private readonly sessionEndedListeners = new Set<(tokenHash: string) => void>();

  async start(bus: Bus): Promise<void> {
    this.bus = bus;
    this.subscriptions.push(
      await bus.subscribeLive(SESSION_ENDED_SUBJECT, (data) => {
        const ended = SessionEnded.safeParse(data);
        if (!ended.success) return logger.warn('malformed sign-out notice dropped');
        for (const listener of this.sessionEndedListeners) listener(ended.data.tokenHash);
      }),
    );
  }

  /** Called with the SHA-256 of each session token that ended, whichever gateway it ended through. */
  onSessionEnded(listener: (tokenHash: string) => void): void {
    this.sessionEndedListeners.add(listener);
  }

  async stop(): Promise<void> {
    for (const subscription of this.subscriptions) await subscription.unsubscribe();
    this.subscriptions = [];
    const routed = [...this.routed.values()];
    this.routed.clear();
    for (const entry of routed) await (await entry.subscription.catch(() => null))?.unsubscribe();
  }

  /** Bus subjects this gateway listens to for conversations, stories and members (for tests and operators). */
  get routedSubjects(): string[] {
    return [...this.routed.keys()];
  }

  /**
   * Listens to one conversation, story or member. Resolves once the bus subscription is in place, so nothing
   * published after it is missed; the subject is released when the last local listener leaves.
   */
  async listen(topic: RoutedTopic, id: string): Promise<AsyncIterableIterator<unknown>> {
    const key = `${topic}:${id}`;
    const entry = this.routed.get(key) ?? { subscription: this.subscribeRouted(topic, id), listeners: 0 };
    this.routed.set(key, entry);
    entry.listeners++;
    const release = () => {
      entry.listeners--;
      if (entry.listeners > 0 || this.routed.get(key) !== entry) return;
      this.routed.delete(key);
      void entry.subscription.then((subscription) => subscription.unsubscribe()).catch(() => undefined);
    };
    try {
      await entry.subscription;
    } catch (error) {
      release();
      throw error;
    }
    return this.iterate(key, release);
  }

  private subscribeRouted(topic: RoutedTopic, id: string): Promise<Subscription> {
    if (!this.bus) return Promise.reject(new Error('LiveHub is not started'));
    const route = ROUTED[topic];
    return this.bus.subscribeLive(route.subject(id), (data) => {
      const routed = route.toTopic(data);
      if (routed) this.publish(topic, routed.id, routed.value);
      else logger.warn({ topic }, 'malformed live update dropped');
    });
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

  /** An async iterator over a topic; `onFinish` runs when the client leaves. */
  private iterate<T>(topic: string, onFinish?: () => void): AsyncIterableIterator<T> {
    return listenerIterator<T>(topic, (listener) => {
      const set = this.listeners.get(topic) ?? new Set();
      set.add(listener as Listener<unknown>);
      this.listeners.set(topic, set);
      return () => {
        onFinish?.();
        set.delete(listener as Listener<unknown>);
        if (set.size === 0) this.listeners.delete(topic);
      };
    });
  }
}
