import {
  AppError,
  EVENT_STREAM,
  EVENT_SUBJECTS,
  type EventDef,
  type EventEnvelope,
  type RequestMeta,
  type RpcDef,
  type RpcRequest,
  type RpcResponse,
} from '@app/schema';
import {
  AckPolicy,
  DeliverPolicy,
  type JetStreamClient,
  type JetStreamManager,
  StorageType,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { type NatsConnection, RequestError, TimeoutError, connect } from '@nats-io/transport-node';
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
} from './bus';
import { type MicroEndpoint, MicroRegistry } from './nats-micro';
import { handleRequestFrame, readReplyFrame } from './rpc-wire';

const NANOS_PER_MS = 1_000_000;
const ACK_WAIT_MS = 30_000;
const REDELIVERY_DELAY_MS = 1_000;
/** Reported by `nats micro info`; SERVICE_VERSION overrides it. */
const SERVICE_VERSION = '0.1.0';
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** The distributed bus: core NATS for request/reply and live subjects, JetStream for domain events. */
export class NatsBus implements Bus {
  private readonly subscriptions = new Set<Subscription>();
  private readonly micro: MicroRegistry;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
  ) {
    const wanted = process.env.SERVICE_VERSION;
    // The services protocol requires semantic versions; anything else would make `nats micro` reject the answers.
    this.micro = new MicroRegistry(nc, wanted && SEMVER.test(wanted) ? wanted : SERVICE_VERSION);
  }

  static async connect(url: string, name: string): Promise<NatsBus> {
    const nc = await connect({ servers: url.split(','), name, maxReconnectAttempts: -1 });
    const jsm = await jetstreamManager(nc);
    await ensureEventStream(jsm);
    return new NatsBus(nc, jetstream(nc), jsm);
  }

  async request<R extends RpcDef>(
    rpc: R,
    payload: RpcRequest<R>,
    meta: RequestMeta = {},
    timeoutMs = DEFAULT_RPC_TIMEOUT_MS,
  ): Promise<RpcResponse<R>> {
    try {
      const reply = await this.nc.request(rpc.subject, JSON.stringify({ payload, meta }), { timeout: timeoutMs });
      return readReplyFrame(rpc, reply.json());
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof RequestError && error.isNoResponders()) throw new AppError('UNAVAILABLE', `No service answers ${rpc.subject}`);
      if (error instanceof TimeoutError || (error instanceof Error && error.cause instanceof TimeoutError)) {
        throw new AppError('TIMEOUT', `${rpc.subject} timed out`);
      }
      throw new AppError('UNAVAILABLE', `${rpc.subject} failed: ${(error as Error).message}`);
    }
  }

  async serve<R extends RpcDef>(rpc: R, handler: RpcHandler<R>): Promise<Subscription> {
    let endpoint: MicroEndpoint | null = null;
    const sub = this.nc.subscribe(rpc.subject, {
      queue: rpc.subject,
      callback: (error, msg) => {
        if (error) return logger.error({ subject: rpc.subject, err: error }, 'rpc subscription failed');
        const started = process.hrtime.bigint();
        let frame: unknown;
        try {
          frame = msg.json();
        } catch {
          frame = null;
        }
        void handleRequestFrame(rpc, handler, frame).then((reply) => {
          msg.respond(JSON.stringify(reply));
          const crashed = !reply.ok && reply.error.code === 'INTERNAL' ? reply.error.message : null;
          endpoint?.record(Number(process.hrtime.bigint() - started), crashed);
        });
      },
    });
    // The flush makes the subscription known to the server before anyone is told it is serving.
    await this.nc.flush();
    // Advertised only once it serves.
    endpoint = this.micro.register(rpc.subject);
    return this.track({
      unsubscribe: async () => {
        endpoint?.remove();
        await this.unsubscribeAndFlush(sub);
      },
    });
  }

  async publishEvent<E extends EventDef>(event: E, data: z.input<E['data']>, actorId: string | null): Promise<EventEnvelope> {
    const envelope = buildEnvelope(event, data, actorId);
    await this.publishEnvelope(envelope);
    return envelope;
  }

  async publishEnvelope(envelope: EventEnvelope): Promise<void> {
    // msgID lets JetStream drop a duplicate if a publish is retried within the duplicate window.
    await this.js.publish(envelope.type, JSON.stringify(envelope), { msgID: envelope.id });
  }

  async consumeEvents(options: ConsumeOptions, handler: EventHandler): Promise<Subscription> {
    // nats-server 2.9 takes one filter subject per consumer; several are filtered here instead.
    const filter = options.subjects.length === 1 ? options.subjects[0]! : EVENT_SUBJECTS;
    const deliverPolicy = options.deliver === 'all' ? DeliverPolicy.All : DeliverPolicy.New;
    let consumer;
    if (options.durableName) {
      const exists = await this.jsm.consumers.info(EVENT_STREAM, options.durableName).then(
        () => true,
        () => false,
      );
      if (!exists) {
        await this.jsm.consumers.add(EVENT_STREAM, {
          durable_name: options.durableName,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: deliverPolicy,
          filter_subject: filter,
          ack_wait: ACK_WAIT_MS * NANOS_PER_MS,
        });
      }
      consumer = await this.js.consumers.get(EVENT_STREAM, options.durableName);
    } else {
      consumer = await this.js.consumers.get(EVENT_STREAM, { filter_subjects: filter, deliver_policy: deliverPolicy });
    }
    const messages = await consumer.consume({ max_messages: 64 });
    const done = (async () => {
      for await (const msg of messages) {
        let envelope: EventEnvelope;
        try {
          envelope = msg.json<EventEnvelope>();
        } catch {
          msg.term();
          continue;
        }
        if (!options.subjects.some((pattern) => subjectMatches(pattern, envelope.type))) {
          msg.ack();
          continue;
        }
        try {
          await handler(envelope);
          msg.ack();
        } catch (error) {
          logger.warn({ subject: envelope.type, eventId: envelope.id, err: error }, 'event handler failed; will redeliver');
          msg.nak(REDELIVERY_DELAY_MS);
        }
      }
    })();
    return this.track({
      unsubscribe: async () => {
        await messages.close();
        await done.catch(() => undefined);
      },
    });
  }

  async publishLive(subject: string, data: unknown): Promise<void> {
    this.nc.publish(subject, JSON.stringify(data ?? null));
  }

  async subscribeLive(subject: string, handler: (data: unknown, subject: string) => void): Promise<Subscription> {
    const sub = this.nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error) return;
        try {
          handler(msg.json(), msg.subject);
        } catch (handlerError) {
          logger.warn({ subject, err: handlerError }, 'live handler failed');
        }
      },
    });
    await this.nc.flush();
    return this.track({ unsubscribe: () => this.unsubscribeAndFlush(sub) });
  }

  async isReady(): Promise<boolean> {
    if (this.nc.isClosed()) return false;
    try {
      await this.nc.flush();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    for (const sub of [...this.subscriptions]) await sub.unsubscribe().catch(() => undefined);
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  private async unsubscribeAndFlush(sub: { unsubscribe(): void }): Promise<void> {
    sub.unsubscribe();
    if (!this.nc.isClosed()) await this.nc.flush().catch(() => undefined);
  }

  private track(sub: Subscription): Subscription {
    const tracked: Subscription = {
      unsubscribe: async () => {
        this.subscriptions.delete(tracked);
        await sub.unsubscribe();
      },
    };
    this.subscriptions.add(tracked);
    return tracked;
  }
}

async function ensureEventStream(jsm: JetStreamManager): Promise<void> {
  try {
    await jsm.streams.info(EVENT_STREAM);
  } catch {
    try {
      await jsm.streams.add({
        name: EVENT_STREAM,
        subjects: [EVENT_SUBJECTS],
        storage: StorageType.File,
        duplicate_window: 2 * 60 * 1000 * NANOS_PER_MS,
      });
    } catch (error) {
      // Another instance may have created it in the meantime.
      await jsm.streams.info(EVENT_STREAM).catch(() => {
        throw error;
      });
    }
  }
}
