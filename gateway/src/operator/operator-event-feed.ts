import { type Bus, type Subscription, logger } from '@app/kit';
import { EVENT_SUBJECTS, type EventEnvelope, type EventFilter, eventMatches } from '@app/schema';
import { type Listener, listenerIterator } from '../live-iterator';

/**
 * The event stream as admins watch it live: one tail of every event per gateway, opened for the first
 * watcher and closed with the last, each watcher receiving what its filter asks for.
 */
export class OperatorEventFeed {
  private readonly watchers = new Set<Listener<EventEnvelope>>();
  private tail: Promise<Subscription> | null = null;

  constructor(private readonly bus: Bus) {}

  /** Resolves once the tail is in place, so nothing appended after it is missed. */
  async watch(filter: EventFilter): Promise<AsyncIterableIterator<EventEnvelope>> {
    const tail = (this.tail ??= this.bus.consumeEvents({ subjects: [EVENT_SUBJECTS], deliver: 'new' }, async (event) => {
      for (const watcher of this.watchers) watcher(event);
    }));
    try {
      await tail;
    } catch (error) {
      if (this.tail === tail && this.watchers.size === 0) this.tail = null;
      throw error;
    }
    return listenerIterator<EventEnvelope>('operator-events', (listener) => {
      const watcher: Listener<EventEnvelope> = (event) => {
        if (eventMatches(filter, event)) listener(event);
      };
      this.watchers.add(watcher);
      return () => {
        this.watchers.delete(watcher);
        if (this.watchers.size === 0) this.closeTail();
      };
    });
  }

  async close(): Promise<void> {
    this.watchers.clear();
    await this.closeTail();
  }

  private async closeTail(): Promise<void> {
    const tail = this.tail;
    this.tail = null;
    const subscription = await tail?.catch(() => null);
    await subscription?.unsubscribe().catch((error: unknown) => logger.warn({ err: error }, 'closing the operator event tail failed'));
  }
}
