import fs from 'node:fs';
import path from 'node:path';
import {
  AppError,
  type BusPrincipal,
  type EventDef,
  type EventEnvelope,
  type RequestMeta,
  type RpcDef,
  type RpcRequest,
  type RpcResponse,
} from '@app/schema';
import type { z } from 'zod';
import { logger } from '../logger';
import {
  type Bus,
  type ConsumeOptions,
  DEFAULT_RPC_TIMEOUT_MS,
  type EventHandler,
  type RpcHandler,
  type Subscription,
  buildEnvelope,
  subjectMatches,
  requestDeadline,
} from './bus';
import { handleRequestFrame, readReplyFrame } from './rpc-wire';
import { ScopedBus } from './scoped-bus';

type RawHandler = (frame: unknown) => Promise<unknown>;

interface Consumer {
  subjects: string[];
  handlers: EventHandler[];
  nextHandler: number;
  position: number;
  running: boolean;
  stopped: boolean;
}

const RETRY_DELAY_MS = 500;

/** Copies through JSON so in-process callers see exactly what a network hop would give them. */
const overTheWire = <T>(value: T): unknown => JSON.parse(JSON.stringify(value ?? null));

/**
 * The embedded bus: same semantics as NATS + JetStream inside one process. Events are kept in an
 * append-only JSON-lines file under DATA_DIR so durable consumers can replay after a restart.
 */
export class InProcessBus implements Bus {
  private readonly servers = new Map<string, { handlers: RawHandler[]; next: number }>();
  private readonly events: EventEnvelope[] = [];
  private readonly eventIds = new Set<string>();
  private readonly durable = new Map<string, Consumer>();
  private readonly consumers = new Set<Consumer>();
  private readonly live = new Set<{ pattern: string; handler: (data: unknown, subject: string) => void }>();
  private isClosed = false;
  private markClosed: () => void = () => undefined;
  private readonly whenClosed = new Promise<null>((resolve) => {
    this.markClosed = () => resolve(null);
  });

  private constructor(private readonly eventLog: fs.WriteStream | null) {}

  /** One principal's view of this bus, refused anything outside its row of BUS_PERMISSIONS (as NATS would refuse it). */
  as(principal: BusPrincipal): ScopedBus {
    return new ScopedBus(this, principal, false);
  }

  static open(options: { eventLogFile?: string } = {}): InProcessBus {
    if (!options.eventLogFile) return new InProcessBus(null);
    fs.mkdirSync(path.dirname(options.eventLogFile), { recursive: true });
    const existing = fs.existsSync(options.eventLogFile) ? fs.readFileSync(options.eventLogFile, 'utf8') : '';
    const bus = new InProcessBus(fs.createWriteStream(options.eventLogFile, { flags: 'a' }));
    for (const line of existing.split('\n')) {
      if (!line.trim()) continue;
      try {
        bus.append(JSON.parse(line) as EventEnvelope);
      } catch {
        logger.warn('skipping a torn line in the event log');
      }
    }
    return bus;
  }

  async request<R extends RpcDef>(
    rpc: R,
    payload: RpcRequest<R>,
    meta: RequestMeta = {},
    timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
  ): Promise<RpcResponse<R>> {
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
    const copy = overTheWire(envelope) as EventEnvelope;
    if (!this.append(copy)) return;
    if (this.eventLog) {
      const line = `${JSON.stringify(copy)}\n`;
      await new Promise<void>((resolve, reject) => this.eventLog!.write(line, (error) => (error ? reject(error) : resolve())));
    }
    for (const consumer of this.consumers) void this.pump(consumer);
  }

  async consumeEvents(options: ConsumeOptions, handler: EventHandler): Promise<Subscription> {
    this.assertOpen();
    const start = options.deliver === 'all' ? 0 : this.events.length;
    let consumer = options.durableName ? this.durable.get(options.durableName) : undefined;
    if (consumer) {
      consumer.handlers.push(handler);
    } else {
      consumer = { subjects: options.subjects, handlers: [handler], nextHandler: 0, position: start, running: false, stopped: false };
      if (options.durableName) this.durable.set(options.durableName, consumer);
      this.consumers.add(consumer);
    }
    const own = consumer;
    void this.pump(own);
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
    for (const sub of this.live) {
      if (subjectMatches(sub.pattern, subject)) queueMicrotask(() => sub.handler(copy, subject));
    }
  }

  async subscribeLive(subject: string, handler: (data: unknown, subject: string) => void): Promise<Subscription> {
    this.assertOpen();
    const sub = { pattern: subject, handler };
    this.live.add(sub);
    return { unsubscribe: async () => void this.live.delete(sub) };
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
    if (this.eventLog) await new Promise<void>((resolve) => this.eventLog!.end(() => resolve()));
  }

  private append(envelope: EventEnvelope): boolean {
    if (this.eventIds.has(envelope.id)) return false;
    this.eventIds.add(envelope.id);
    this.events.push(envelope);
    return true;
  }

  /** Delivers events in order; a failing handler is retried after a pause without skipping ahead. */
  private async pump(consumer: Consumer): Promise<void> {
    if (consumer.running) return;
    consumer.running = true;
    try {
      while (!consumer.stopped && consumer.handlers.length > 0 && consumer.position < this.events.length) {
        const event = this.events[consumer.position]!;
        if (!consumer.subjects.some((pattern) => subjectMatches(pattern, event.type))) {
          consumer.position++;
          continue;
        }
        const handler = consumer.handlers[consumer.nextHandler++ % consumer.handlers.length]!;
        try {
          await handler(overTheWire(event) as EventEnvelope);
          consumer.position++;
        } catch (error) {
          logger.warn({ subject: event.type, eventId: event.id, err: error }, 'event handler failed; will redeliver');
          await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
        }
      }
    } finally {
      consumer.running = false;
    }
  }

  private assertOpen(): void {
    if (this.isClosed) throw new AppError('UNAVAILABLE', 'The bus is closed');
  }
}
