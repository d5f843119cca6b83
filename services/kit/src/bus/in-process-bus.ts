import { randomUUID } from 'node:crypto';
import {
  AppError,
  BUS_PERMISSIONS,
  BUS_PRINCIPALS,
  type BusPrincipal,
  type EventDef,
  type EventEnvelope,
  type RequestMeta,
  type RpcDef,
  type RpcRequest,
  type RpcResponse,
} from '@app/schema';
import type { z } from 'zod';
import { DEFAULT_SERVICE_VERSION } from '../env/kit.environment';
import { logger } from '../logger';
import { busEventsConsumed, busEventsPublished, timeBusRequest, trackConsumerPending, trackStatusReporter } from '../metrics';
import { readStatus } from '../metrics/live-state';
import { runDetached, traceRpcRequest } from '../tracing/spans';
import {
  type Bus,
  type ConsumeOptions,
  DEFAULT_RPC_TIMEOUT_MS,
  type EventHandler,
  type RpcHandler,
  type ServiceInstanceStatus,
  type StatusReporter,
  type Subscription,
  buildEnvelope,
  serviceOfSubject,
  sortInstances,
  subjectMatches,
  requestDeadline,
} from './bus';
import { EventLog, type EventLogStats, SEGMENT_MAX_BYTES, type SegmentReader } from './event-log';
import { DEFAULT_EVENT_RETENTION, type EventRetention } from './event-retention';
import { LiveRouter } from './live-router';
import { handleRequestFrame, readReplyFrame } from './rpc-wire';
import { ScopedBus } from './scoped-bus';

type RawHandler = (frame: unknown) => Promise<unknown>;

interface Consumer {
  subjects: string[];
  handlers: EventHandler[];
  nextHandler: number;
  /** The sequence of the next event to deliver; everything before it is acknowledged. */
  position: number;
  durableName: string | null;
  reader: SegmentReader;
  running: boolean;
  stopped: boolean;
}

export interface InProcessBusOptions {
  /** The log's active file (DATA_DIR/events/events.jsonl); its sealed segments and checkpoint live beside it. Omit to keep events in memory. */
  eventLogFile?: string;
  retention?: EventRetention;
  /** The active file is sealed into a segment at this size (smaller in tests and benchmarks). */
  segmentMaxBytes?: number;
  /** What discovery reports as each service's version (SERVICE_VERSION). */
  serviceVersion?: string;
}

const RETRY_DELAY_MS = 500;
/** Seals a quiet log's active file and removes expired segments even when nothing is published. */
const HOUSEKEEPING_INTERVAL_MS = 3_600_000;

/** Copies through JSON so in-process callers see exactly what a network hop would give them. */
const overTheWire = <T>(value: T): unknown => JSON.parse(JSON.stringify(value ?? null));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The embedded bus: same semantics as NATS + JetStream inside one process. Events are kept in a
 * segmented JSON-lines log under DATA_DIR, with durable consumers' positions, so they resume after a restart.
 */
export class InProcessBus implements Bus {
  private readonly servers = new Map<string, { handlers: RawHandler[]; next: number }>();
  /** Discovery's answer: every service of this process is one instance, under this process's id. */
  private readonly instanceId = randomUUID().replace(/-/g, '');
  private readonly servicesStarted = new Map<string, string>();
  /** Status reporters by the service they belong to; null: every service of this bus. */
  private readonly reporters = new Map<string | null, StatusReporter[]>();
  private readonly untrack: (() => void)[] = [];
  private readonly durable = new Map<string, Consumer>();
  private readonly consumers = new Set<Consumer>();
  private readonly live = new LiveRouter();
  private readonly housekeeping: NodeJS.Timeout | null;
  private isClosed = false;
  private markClosed: () => void = () => undefined;
  private readonly whenClosed = new Promise<null>((resolve) => {
    this.markClosed = () => resolve(null);
  });

  private constructor(
    private readonly log: EventLog,
    private readonly serviceVersion: string,
  ) {
    this.housekeeping = log.isOnDisk ? setInterval(() => log.housekeep(), HOUSEKEEPING_INTERVAL_MS).unref() : null;
  }

  /** One principal's view of this bus, refused anything outside its row of BUS_PERMISSIONS (as NATS would refuse it). */
  as(principal: BusPrincipal): ScopedBus {
    return new ScopedBus(this, principal, false);
  }

  static open(options: InProcessBusOptions = {}): InProcessBus {
    const retention = options.retention ?? DEFAULT_EVENT_RETENTION;
    const version = options.serviceVersion ?? DEFAULT_SERVICE_VERSION;
    if (!options.eventLogFile) return new InProcessBus(EventLog.inMemory(retention), version);
    return new InProcessBus(EventLog.open(options.eventLogFile, retention, options.segmentMaxBytes ?? SEGMENT_MAX_BYTES), version);
  }

  /** What the event log keeps on disk and how much of it has been read, opening included. */
  eventLogStats(): EventLogStats {
    return this.log.stats();
  }

  async request<R extends RpcDef>(
    rpc: R,
    payload: RpcRequest<R>,
    meta: RequestMeta = {},
    timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
  ): Promise<RpcResponse<R>> {
    return traceRpcRequest(rpc.subject, meta, (traced) => timeBusRequest(rpc.subject, () => this.call(rpc, payload, traced, timeoutMs)));
  }

  private async call<R extends RpcDef>(rpc: R, payload: RpcRequest<R>, meta: RequestMeta, timeoutMs: number): Promise<RpcResponse<R>> {
    this.assertOpen();
    const entry = this.servers.get(rpc.subject);
    if (!entry || entry.handlers.length === 0) throw new AppError('UNAVAILABLE', `No service answers ${rpc.subject}`);
    const { deadlineAt, waitMs } = requestDeadline(rpc.subject, meta, timeoutMs);
    const handler = entry.handlers[entry.next++ % entry.handlers.length]!;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new AppError('TIMEOUT', `${rpc.subject} timed out`)), waitMs);
    });
    try {
      const frame = { payload, meta: { ...meta, deadlineAt } };
      const reply = await Promise.race([handler(overTheWire(frame)), timeout]);
      return readReplyFrame(rpc, overTheWire(reply));
    } finally {
      clearTimeout(timer);
    }
  }

  async serve<R extends RpcDef>(rpc: R, handler: RpcHandler<R>): Promise<Subscription> {
    this.assertOpen();
    const raw: RawHandler = (frame) => handleRequestFrame(rpc, handler, frame);
    const entry = this.servers.get(rpc.subject) ?? { handlers: [], next: 0 };
    entry.handlers.push(raw);
    this.servers.set(rpc.subject, entry);
    const service = serviceOfSubject(rpc.subject);
    if (service && !this.servicesStarted.has(service)) this.servicesStarted.set(service, new Date().toISOString());
    return {
      unsubscribe: async () => {
        entry.handlers = entry.handlers.filter((h) => h !== raw);
      },
    };
  }

  async publishEvent<E extends EventDef>(event: E, data: z.input<E['data']>, actorId: string | null): Promise<EventEnvelope> {
    const envelope = buildEnvelope(event, data, actorId);
    await this.publishEnvelope(envelope);
    return envelope;
  }

  async publishEnvelope(envelope: EventEnvelope): Promise<void> {
    this.assertOpen();
    if (!this.log.append(overTheWire(envelope) as EventEnvelope)) return;
    busEventsPublished.inc({ type: envelope.type });
    // Delivery serves no request: the handlers' logs and spans must not join the one whose publish set it off.
    for (const consumer of this.consumers) void runDetached(() => this.pump(consumer));
  }

  async consumeEvents(options: ConsumeOptions, handler: EventHandler): Promise<Subscription> {
    this.assertOpen();
    const existing = options.durableName ? this.durable.get(options.durableName) : undefined;
    existing?.handlers.push(handler);
    const own = existing ?? this.addConsumer(options, handler);
    void runDetached(() => this.pump(own));
    return {
      unsubscribe: async () => {
        own.handlers = own.handlers.filter((h) => h !== handler);
        // A durable consumer keeps its position for the next subscriber, as JetStream does.
        if (own.handlers.length === 0 && !options.durableName) {
          own.stopped = true;
          this.consumers.delete(own);
        }
      },
    };
  }

  async publishLive(subject: string, data: unknown): Promise<void> {
    this.assertOpen();
    const copy = overTheWire(data);
    for (const handler of this.live.handlersFor(subject)) queueMicrotask(() => handler(copy, subject));
  }

  async subscribeLive(subject: string, handler: (data: unknown, subject: string) => void): Promise<Subscription> {
    this.assertOpen();
    const remove = this.live.add(subject, handler);
    return { unsubscribe: async () => remove() };
  }

  /** Each service that serves an RPC here is one instance, with what its reporters and durable consumers say now. */
  async discoverServices(): Promise<ServiceInstanceStatus[]> {
    this.assertOpen();
    const endpoints = new Map<string, number>();
    for (const [subject, entry] of this.servers) {
      const service = serviceOfSubject(subject);
      if (service && entry.handlers.length > 0) endpoints.set(service, (endpoints.get(service) ?? 0) + 1);
    }
    const instances = [...endpoints].map(async ([name, count]) => {
      const status = await readStatus([
        ...(this.reporters.get(null) ?? []),
        ...(this.reporters.get(name) ?? []),
        () => this.consumerQueues(name),
      ]);
      return {
        name,
        id: this.instanceId,
        version: this.serviceVersion,
        startedAt: this.servicesStarted.get(name)!,
        endpoints: count,
        ...status,
      };
    });
    return sortInstances(await Promise.all(instances));
  }

  /** `service`: the one service of this shared bus the reporter speaks for (a principal's view passes its own); every service when absent. */
  reportStatus(reporter: StatusReporter, service?: string): void {
    this.assertOpen();
    const scope = service ?? null;
    this.reporters.set(scope, [...(this.reporters.get(scope) ?? []), reporter]);
    this.untrack.push(trackStatusReporter(reporter));
  }

  async isReady(): Promise<boolean> {
    return !this.isClosed;
  }

  closed(): Promise<Error | null> {
    return this.whenClosed;
  }

  async close(): Promise<void> {
    this.isClosed = true;
    this.markClosed();
    for (const consumer of this.consumers) consumer.stopped = true;
    this.consumers.clear();
    this.live.clear();
    this.servers.clear();
    for (const untrack of this.untrack.splice(0)) untrack();
    if (this.housekeeping) clearInterval(this.housekeeping);
    this.log.close();
  }

  /** A durable consumer starts where it stopped (its checkpoint), otherwise at the oldest event kept (`all`) or the next one (`new`). */
  private addConsumer(options: ConsumeOptions, handler: EventHandler): Consumer {
    const consumer: Consumer = {
      subjects: options.subjects,
      handlers: [handler],
      nextHandler: 0,
      position: this.log.startingPosition(options),
      durableName: options.durableName ?? null,
      reader: { segment: null, events: [] },
      running: false,
      stopped: false,
    };
    if (consumer.durableName) {
      this.durable.set(consumer.durableName, consumer);
      this.log.acknowledge(consumer.durableName, consumer.position);
      this.untrack.push(trackConsumerPending({ consumer: consumer.durableName, read: async () => this.pendingOf(consumer) }));
    }
    this.consumers.add(consumer);
    return consumer;
  }

  /** Delivers events in order; a failing handler (or read) is retried after a pause without skipping ahead. */
  private async pump(consumer: Consumer): Promise<void> {
    if (consumer.running) return;
    consumer.running = true;
    try {
      while (!consumer.stopped && consumer.handlers.length > 0 && consumer.position < this.log.nextSeq) {
        await this.deliverNext(consumer).catch(async (error: unknown) => {
          logger.error({ position: consumer.position, err: error }, 'could not read the event log; will retry');
          await pause(RETRY_DELAY_MS);
        });
      }
    } finally {
      consumer.running = false;
    }
  }

  private async deliverNext(consumer: Consumer): Promise<void> {
    const event = this.log.read(consumer.position, consumer.reader);
    // Gone past retention (only consumers that hold nothing back can be behind it): resume at the oldest event kept.
    if (!event) return this.advance(consumer, Math.max(consumer.position + 1, this.log.firstSeq));
    if (!consumer.subjects.some((pattern) => subjectMatches(pattern, event.type))) return this.advance(consumer, consumer.position + 1);
    const handler = consumer.handlers[consumer.nextHandler++ % consumer.handlers.length]!;
    const counted = { consumer: consumer.durableName ?? 'tail', type: event.type };
    try {
      await handler(overTheWire(event) as EventEnvelope);
      busEventsConsumed.inc({ ...counted, outcome: 'ok' });
    } catch (error) {
      busEventsConsumed.inc({ ...counted, outcome: 'error' });
      logger.warn({ subject: event.type, eventId: event.id, err: error }, 'event handler failed; will redeliver');
      await pause(RETRY_DELAY_MS);
      return;
    }
    this.advance(consumer, consumer.position + 1);
  }

  private advance(consumer: Consumer, position: number): void {
    consumer.position = position;
    if (consumer.durableName) this.log.acknowledge(consumer.durableName, position);
  }

  /** Events at or after the consumer's position, delivered or not: the head of the log minus its position. */
  private pendingOf(consumer: Consumer): number {
    return Math.max(0, this.log.nextSeq - consumer.position);
  }

  /** The durable consumers `service` owns (by BUS_PERMISSIONS), or that no principal owns (tools, tests), as queues. */
  private consumerQueues(service: string) {
    const queues = [...this.durable.values()]
      .filter((consumer) => {
        const owner = BUS_PRINCIPALS.find((principal) => consumer.durableName! in BUS_PERMISSIONS[principal].durableConsumers);
        return !owner || owner === service;
      })
      .map((consumer) => ({ name: `consumer.${consumer.durableName}`, depth: this.pendingOf(consumer) }));
    return { queues };
  }

  private assertOpen(): void {
    if (this.isClosed) throw new AppError('UNAVAILABLE', 'The bus is closed');
  }
}
