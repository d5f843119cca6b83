import type { Bus, ServiceInstanceStatus } from '@app/kit';
import type { EventEnvelope, EventFilter } from '@app/schema';
import { OperatorEventFeed } from './operator-event-feed';

/** What admins see of the running platform: the service instances up now, and the event stream live. */
export class OperatorConsole {
  private readonly feed: OperatorEventFeed;

  constructor(private readonly bus: Bus) {
    this.feed = new OperatorEventFeed(bus);
  }

  /** Every instance that answers discovery, with its circuits and queues. */
  services(): Promise<ServiceInstanceStatus[]> {
    return this.bus.discoverServices();
  }

  watchEvents(filter: EventFilter): Promise<AsyncIterableIterator<EventEnvelope>> {
    return this.feed.watch(filter);
  }

  close(): Promise<void> {
    return this.feed.close();
  }
}
