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
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  StorageType,
  type StreamConfig,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import { NoRespondersError, type NatsConnection, PermissionViolationError, RequestError, TimeoutError } from '@nats-io/transport-node';
import type { z } from 'zod';
import { DEFAULT_SERVICE_VERSION } from '../env/kit.environment';
import { logger } from '../logger';
import { busEventsPublished, timeBusRequest, trackConsumerPending, trackStatusReporter } from '../metrics';
import { readStatus } from '../metrics/live-state';
import { traceRpcRequest } from '../tracing/spans';
import {
  type Bus,
  type ConsumeOptions,
  DEFAULT_DISCOVERY_TIMEOUT_MS,
  DEFAULT_RPC_TIMEOUT_MS,
  DISCOVERY_SUBJECT,
  type EventHandler,
  type InstanceStatusReport,
  type RpcHandler,
  type ServiceInstanceStatus,
  type StatusReporter,
  type Subscription,
  buildEnvelope,
  requestDeadline,
  sortInstances,
} from './bus';
import { DEFAULT_EVENT_RETENTION, type EventRetention } from './event-retention';
import { type NatsConnectOptions, openNatsConnection } from './nats-connection';
import { SupervisedConsumer } from './nats-event-consumer';
import { type MicroEndpoint, MicroRegistry, readInfoResponse } from './nats-micro';
import { handleRequestFrame, readReplyFrame } from './rpc-wire';
import { type BusOperation, BusPermissionError } from './scoped-bus';

const NANOS_PER_MS = 1_000_000;
/** A readiness probe must answer promptly, also while the connection is down. */
const READY_FLUSH_TIMEOUT_MS = 2_000;

export interface NatsBusOptions extends NatsConnectOptions {
  /** The EVENTS stream's limits, applied at every start (DEFAULT_EVENT_RETENTION when absent). */
  retention?: EventRetention;
  /** Reported by `nats micro info` (SERVICE_VERSION, checked to be a semantic version when the environment is read). */
  serviceVersion?: string;
}

/** The distributed bus: core NATS for request/reply and live subjects, JetStream for domain events. */
export class NatsBus implements Bus {
  private readonly subscriptions = new Set<Subscription>();
  private readonly consumers = new Set<SupervisedConsumer>();
  private readonly micro: MicroRegistry;
  private readonly reporters: StatusReporter[] = [];
  private readonly untrack: (() => void)[] = [];
  private readonly whenClosed: Promise<Error | null>;
  private isConnected = true;
  private isClosing = false;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    /** The principal (or client name) this connection acts for, in logs and refusals. */
    private readonly name: string,
    serviceVersion: string,
  ) {
    this.micro = new MicroRegistry(nc, serviceVersion, () => this.liveStatus());
    this.whenClosed = nc.closed().then((error) => {
      if (error && !this.isClosing) logger.fatal({ client: name, err: error }, 'the NATS connection closed for good');
      return error ?? null;
    });
    void this.watchConnection();
  }

  /** Connects as `options.principal` with its credentials and TLS settings, or anonymously without one. */
  static async connect(url: string, name: string, options: NatsBusOptions = {}): Promise<NatsBus> {
    const nc = await openNatsConnection(url, name, options);
    try {
      const jsm = await jetstreamManager(nc);
      await ensureEventStream(jsm, options.retention ?? DEFAULT_EVENT_RETENTION);
      return new NatsBus(nc, jetstream(nc), jsm, options.principal ?? name, options.serviceVersion ?? DEFAULT_SERVICE_VERSION);
    } catch (error) {
      await nc.close();
      throw refusal(error, options.principal ?? name, 'consume', EVENT_STREAM) ?? error;
    }
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
    const { deadlineAt, waitMs } = requestDeadline(rpc.subject, meta, timeoutMs);
    try {
      const frame = { payload, meta: { ...meta, deadlineAt } };
      const reply = await this.nc.request(rpc.subject, JSON.stringify(frame), { timeout: waitMs });
      return readReplyFrame(rpc, reply.json());
    } catch (error) {
      if (error instanceof AppError) throw error;
      const refused = refusal(error, this.name, 'request', rpc.subject);
      if (refused) throw refused;
      if (error instanceof RequestError && error.isNoResponders()) throw new AppError('UNAVAILABLE', `No service answers ${rpc.subject}`);
      if (error instanceof TimeoutError || (error instanceof Error && error.cause instanceof TimeoutError)) {
        throw new AppError('TIMEOUT', `${rpc.subject} timed out`);
      }
      throw new AppError('UNAVAILABLE', `${rpc.subject} failed: ${(error as Error).message}`);
    }
  }

  async serve<R extends RpcDef>(rpc: R, handler: RpcHandler<R>): Promise<Subscription> {
    let endpoint: MicroEndpoint | null = null;
    let refused: Error | null = null;
    const sub = this.nc.subscribe(rpc.subject, {
      queue: rpc.subject,
      callback: (error, msg) => {
        if (error) {
          refused = error;
          return logger.error({ subject: rpc.subject, err: error }, 'rpc subscription failed');
        }
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
    // The flush makes the subscription known to the server (or refused by it) before anyone is told it is serving.
    await this.nc.flush();
    if (refused) throw refusal(refused, this.name, 'serve', rpc.subject) ?? refused;
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
    try {
      // msgID lets JetStream drop a duplicate if a publish is retried within the duplicate window.
      const ack = await this.js.publish(envelope.type, JSON.stringify(envelope), { msgID: envelope.id });
      if (!ack.duplicate) busEventsPublished.inc({ type: envelope.type });
    } catch (error) {
      throw refusal(error, this.name, 'publish the event', envelope.type) ?? error;
    }
  }

  async consumeEvents(options: ConsumeOptions, handler: EventHandler): Promise<Subscription> {
    const consumer = new SupervisedConsumer(this.js, this.jsm, options, handler, () => this.nc.isClosed());
    try {
      await consumer.start();
    } catch (error) {
      throw refusal(error, this.name, 'consume', options.subjects.join(', ')) ?? error;
    }
    this.consumers.add(consumer);
    const untrack = options.durableName
      ? trackConsumerPending({ consumer: options.durableName, read: () => consumer.pending() })
      : () => undefined;
    return this.track({
      unsubscribe: async () => {
        untrack();
        this.consumers.delete(consumer);
        await consumer.stop();
      },
    });
  }

  async publishLive(subject: string, data: unknown): Promise<void> {
    this.nc.publish(subject, JSON.stringify(data ?? null));
  }

  async subscribeLive(subject: string, handler: (data: unknown, subject: string) => void): Promise<Subscription> {
    let refused: Error | null = null;
    const sub = this.nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error) {
          refused = error;
          return;
        }
        try {
          handler(msg.json(), msg.subject);
        } catch (handlerError) {
          logger.warn({ subject, err: handlerError }, 'live handler failed');
        }
      },
    });
    await this.nc.flush();
    if (refused) throw refusal(refused, this.name, 'subscribe to', subject) ?? refused;
    return this.track({ unsubscribe: () => this.unsubscribeAndFlush(sub) });
  }

  /** Asks `$SRV.INFO` of every service on the server and gathers the answers that come within `timeoutMs`. */
  async discoverServices(timeoutMs = DEFAULT_DISCOVERY_TIMEOUT_MS): Promise<ServiceInstanceStatus[]> {
    const instances: ServiceInstanceStatus[] = [];
    try {
      const replies = await this.nc.requestMany(DISCOVERY_SUBJECT, '', { maxWait: timeoutMs, strategy: 'timer' });
      for await (const reply of replies) {
        let answer: unknown;
        try {
          answer = reply.json();
        } catch {
          continue;
        }
        const instance = readInfoResponse(answer);
        if (instance) instances.push(instance);
      }
    } catch (error) {
      const refused = refusal(error, this.name, 'request', DISCOVERY_SUBJECT);
      if (refused) throw refused;
      // No service is running: an empty answer, not a failure.
      if (!(error instanceof NoRespondersError || (error instanceof RequestError && error.isNoResponders()))) {
        throw new AppError('UNAVAILABLE', `Service discovery failed: ${(error as Error).message}`);
      }
    }
    return sortInstances(instances);
  }

  reportStatus(reporter: StatusReporter): void {
    this.reporters.push(reporter);
    this.untrack.push(trackStatusReporter(reporter));
  }

  /** Connected, answering, and every event consumer delivering: a lost consumer makes `/readyz` fail. */
  async isReady(): Promise<boolean> {
    if (this.nc.isClosed() || !this.isConnected) return false;
    if ([...this.consumers].some((consumer) => !consumer.isHealthy())) return false;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), READY_FLUSH_TIMEOUT_MS);
    });
    const flushed = this.nc.flush().then(
      () => true,
      () => false,
    );
    try {
      return await Promise.race([flushed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  closed(): Promise<Error | null> {
    return this.whenClosed;
  }

  async close(): Promise<void> {
    this.isClosing = true;
    for (const untrack of this.untrack.splice(0)) untrack();
    for (const sub of [...this.subscriptions]) await sub.unsubscribe().catch(() => undefined);
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  /** Follows the connection for readiness, and reports what the server refused (a publish outside the user's permissions). */
  private async watchConnection(): Promise<void> {
    for await (const status of this.nc.status()) {
      switch (status.type) {
        case 'disconnect':
          this.isConnected = false;
          for (const consumer of this.consumers) consumer.markInterrupted();
          break;
        case 'reconnect':
          this.isConnected = true;
          for (const consumer of this.consumers) consumer.reopen();
          break;
        case 'error':
          if (status.error instanceof PermissionViolationError) {
            logger.error({ client: this.name, err: status.error }, "NATS refused an operation outside this principal's permissions");
          }
          break;
      }
    }
  }

  /** What this connection's service instances report: the services' reporters, and each durable consumer's backlog as a queue. */
  private liveStatus(): Promise<Required<InstanceStatusReport>> {
    const consumerQueues = async (): Promise<InstanceStatusReport> => {
      const durable = [...this.consumers].filter((consumer) => consumer.durableName);
      const depths = await Promise.all(durable.map((consumer) => consumer.pending().catch(() => null)));
      return {
        queues: durable.flatMap((consumer, index) => {
          const depth = depths[index];
          return depth === null || depth === undefined ? [] : [{ name: `consumer.${consumer.durableName}`, depth }];
        }),
      };
    };
    return readStatus([...this.reporters, consumerQueues]);
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

/** NATS's refusal of an operation outside the user's permissions, as the same error the in-process bus throws. */
function refusal(error: unknown, client: string, operation: BusOperation, subject: string): BusPermissionError | null {
  const violation = error instanceof PermissionViolationError ? error : error instanceof Error ? error.cause : null;
  if (!(violation instanceof PermissionViolationError)) return null;
  return new BusPermissionError(client, operation, violation.subject || subject);
}

type StreamLimits = Pick<StreamConfig, 'max_age' | 'max_bytes' | 'discard'>;

/** Creates EVENTS with the configured limits, or brings an existing stream's limits to them, so a changed setting applies at the next start. */
async function ensureEventStream(jsm: JetStreamManager, retention: EventRetention): Promise<void> {
  const limits: StreamLimits = { max_age: retention.maxAgeMs * NANOS_PER_MS, max_bytes: retention.maxBytes, discard: DiscardPolicy.Old };
  const existing = await jsm.streams.info(EVENT_STREAM).catch(() => null);
  const config = existing?.config ?? (await createEventStream(jsm, limits));
  if (!config || hasLimits(config, limits)) return;
  try {
    await jsm.streams.update(EVENT_STREAM, limits);
    logger.info({ stream: EVENT_STREAM, maxAgeMs: retention.maxAgeMs, maxBytes: retention.maxBytes }, 'event stream limits updated');
  } catch (error) {
    // The stream works with its old limits; the operator must see that the new ones did not apply.
    logger.error(
      { stream: EVENT_STREAM, err: error, wanted: limits, current: { max_age: config.max_age, max_bytes: config.max_bytes } },
      `could not apply EVENTS_MAX_AGE_HOURS / EVENTS_MAX_BYTES to the ${EVENT_STREAM} stream: ${(error as Error).message}`,
    );
  }
}

/** Null when it already existed (another instance created it first): then its limits are checked like any existing stream's. */
async function createEventStream(jsm: JetStreamManager, limits: StreamLimits): Promise<StreamConfig | null> {
  try {
    await jsm.streams.add({
      name: EVENT_STREAM,
      subjects: [EVENT_SUBJECTS],
      storage: StorageType.File,
      duplicate_window: 2 * 60 * 1000 * NANOS_PER_MS,
      ...limits,
    });
    return null;
  } catch (error) {
    const raced = await jsm.streams.info(EVENT_STREAM).catch(() => null);
    if (raced) return raced.config;
    // JetStream reserves max_bytes on its store up front, so a limit larger than the server's store is refused here.
    if (/insufficient (storage )?resources/i.test((error as Error).message)) {
      throw new Error(
        `NATS cannot reserve ${limits.max_bytes} bytes for the ${EVENT_STREAM} stream: lower EVENTS_MAX_BYTES or give JetStream more storage (max_file_store)`,
        { cause: error },
      );
    }
    throw error;
  }
}

const hasLimits = (config: StreamConfig, limits: StreamLimits) =>
  config.max_age === limits.max_age && config.max_bytes === limits.max_bytes && config.discard === limits.discard;
