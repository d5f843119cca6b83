import { randomUUID } from 'node:crypto';
import { EVENT_STREAM, type EventEnvelope } from '@app/schema';
import {
  AckPolicy,
  type ConsumerMessages,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { logger } from '../logger';
import { busEventsConsumed } from '../metrics';
import { type ConsumeOptions, type EventHandler, subjectMatches } from './bus';
import { consumerFilter } from './nats-permissions';

const NANOS_PER_MS = 1_000_000;
const ACK_WAIT_MS = 30_000;
const REDELIVERY_DELAY_MS = 1_000;
/** Each pull waits this long; heartbeats come at half of it, so a dead consumer shows within two pulls. */
const PULL_EXPIRES_MS = 10_000;
/** Pauses before reopening a consumer that stopped: quick at first, then once every few seconds. */
const REOPEN_DELAYS_MS = [500, 1_000, 2_000, 5_000];

/**
 * One `consumeEvents` subscription on JetStream, kept alive: when the consumer's message stream ends
 * or fails (NATS restarted and lost an in-memory consumer, the consumer or the stream was deleted),
 * it is opened again, and a live tail resumes after the last event it saw. `isHealthy` is false from
 * the moment it stops delivering until it runs again, so readiness tells.
 */
export class SupervisedConsumer {
  private healthy = false;
  private stopped = false;
  private messages: ConsumerMessages | null = null;
  private cancelPause: (() => void) | null = null;
  private isReopening = false;
  private running: Promise<void> = Promise.resolve();
  /** Tails: the stream sequence to resume from, counted in the stream created at `streamCreated`. */
  private nextSequence = 1;
  private streamCreated: string | null = null;
  private tailName = newTailName();

  constructor(
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: ConsumeOptions,
    private readonly handler: EventHandler,
    private readonly isConnectionClosed: () => boolean,
  ) {}

  private get label(): string {
    return this.options.durableName ?? `${this.tailName} (${this.options.subjects.join(', ')})`;
  }

  /** Opens the consumer once (a failure here is the caller's), then keeps it running in the background. */
  async start(): Promise<void> {
    const first = await this.open();
    this.running = this.supervise(first);
  }

  isHealthy(): boolean {
    return this.healthy;
  }

  get durableName(): string | null {
    return this.options.durableName ?? null;
  }

  /** A durable consumer's backlog as JetStream counts it: not yet delivered plus delivered and awaiting acknowledgement. */
  async pending(): Promise<number | null> {
    if (!this.options.durableName) return null;
    const info = await this.jsm.consumers.info(EVENT_STREAM, this.options.durableName);
    return info.num_pending + info.num_ack_pending;
  }

  /** The connection dropped: nothing is delivered until the consumer is checked (or opened) again after the reconnect. */
  markInterrupted(): void {
    this.healthy = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelPause?.();
    await this.messages?.close();
    await this.running;
  }

  /** After a reconnect: open the consumer anew rather than wait for the old pull loop to find out what survived. */
  reopen(): void {
    this.isReopening = true;
    this.cancelPause?.();
    void this.messages?.close();
  }

  private isActive(): boolean {
    return !this.stopped && !this.isConnectionClosed();
  }

  private async supervise(first: ConsumerMessages): Promise<void> {
    let messages: ConsumerMessages | null = first;
    let failedOpens = 0;
    while (this.isActive()) {
      if (messages) {
        failedOpens = 0;
        await this.drain(messages);
        if (!this.isActive()) break;
        if (!this.isReopening) logger.warn({ consumer: this.label }, 'event consumer stopped; opening it again');
      }
      if (!this.isReopening) await this.pause(REOPEN_DELAYS_MS[Math.min(failedOpens, REOPEN_DELAYS_MS.length - 1)]!);
      this.isReopening = false;
      if (!this.isActive()) break;
      messages = await this.open().catch((error: unknown) => {
        logger.warn({ consumer: this.label, err: error }, 'event consumer could not be opened; will retry');
        return null;
      });
      if (!messages) failedOpens++;
      else if (!this.isActive()) await messages.close();
    }
    this.healthy = false;
  }

  /** Delivers until the message stream ends. */
  private async drain(messages: ConsumerMessages): Promise<void> {
    this.messages = messages;
    this.healthy = true;
    void this.watchStatus(messages);
    try {
      for await (const msg of messages) {
        this.healthy = true;
        await this.deliver(msg);
      }
    } catch (error) {
      if (!this.stopped) logger.warn({ consumer: this.label, err: error }, 'event consumer failed');
    }
    this.healthy = false;
    this.messages = null;
  }

  /** Missed heartbeats or a missing consumer mark it unhealthy until it delivers or hears from the server again. */
  private async watchStatus(messages: ConsumerMessages): Promise<void> {
    for await (const status of messages.status()) {
      if (['heartbeats_missed', 'consumer_not_found', 'stream_not_found', 'consumer_deleted', 'no_responders'].includes(status.type)) {
        this.healthy = false;
      } else if (['heartbeat', 'next', 'ordered_consumer_recreated'].includes(status.type)) {
        this.healthy = true;
      }
    }
  }

  private async deliver(msg: JsMsg): Promise<void> {
    const isTail = !this.options.durableName;
    if (isTail) this.nextSequence = msg.seq + 1;
    let envelope: EventEnvelope;
    try {
      envelope = msg.json<EventEnvelope>();
    } catch {
      if (!isTail) msg.term();
      return;
    }
    if (!this.options.subjects.some((pattern) => subjectMatches(pattern, envelope.type))) {
      if (!isTail) msg.ack();
      return;
    }
    const counted = { consumer: this.options.durableName ?? 'tail', type: envelope.type };
    try {
      await this.handler(envelope);
      if (!isTail) msg.ack();
      busEventsConsumed.inc({ ...counted, outcome: 'ok' });
    } catch (error) {
      busEventsConsumed.inc({ ...counted, outcome: 'error' });
      logger.warn({ subject: envelope.type, eventId: envelope.id, err: error }, 'event handler failed; will redeliver');
      if (!isTail) msg.nak(REDELIVERY_DELAY_MS);
    }
  }

  private async open(): Promise<ConsumerMessages> {
    const consumer = this.options.durableName ? await this.openDurable(this.options.durableName) : await this.openTail();
    // A missing consumer or stream ends the message stream, so `supervise` opens it again from here.
    return consumer.consume({ max_messages: 64, expires: PULL_EXPIRES_MS, abort_on_missing_resource: true });
  }

  private async openDurable(durableName: string) {
    const exists = await this.jsm.consumers.info(EVENT_STREAM, durableName).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await this.jsm.consumers.add(EVENT_STREAM, {
        durable_name: durableName,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: this.options.deliver === 'all' ? DeliverPolicy.All : DeliverPolicy.New,
        filter_subject: consumerFilter(this.options.subjects),
        ack_wait: ACK_WAIT_MS * NANOS_PER_MS,
      });
    }
    return this.js.consumers.get(EVENT_STREAM, durableName);
  }

  /** An ordered consumer from the next unseen sequence; a stream created anew since is read from its start. */
  private async openTail() {
    const stream = await this.jsm.streams.info(EVENT_STREAM);
    if (stream.created !== this.streamCreated) {
      const isFirstOpen = this.streamCreated === null;
      this.nextSequence = isFirstOpen && this.options.deliver === 'new' ? stream.state.last_seq + 1 : Math.max(stream.state.first_seq, 1);
      this.streamCreated = stream.created;
    }
    // A fresh name each time: the consumer it replaces may still exist with its old start sequence.
    this.tailName = newTailName();
    return this.js.consumers.get(EVENT_STREAM, {
      name_prefix: this.tailName,
      filter_subjects: consumerFilter(this.options.subjects),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: this.nextSequence,
    });
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.cancelPause = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}

const newTailName = () => `tail-${randomUUID().slice(0, 8)}`;
