import {
  BUS_PERMISSIONS,
  EVENT_SUBJECTS,
  type BusGrant,
  type BusPrincipal,
  type EventDef,
  type EventEnvelope,
  type RequestMeta,
  type RpcDef,
  type RpcRequest,
  type RpcResponse,
} from '@app/schema';
import type { z } from 'zod';
import {
  type Bus,
  type ConsumeOptions,
  DISCOVERY_SUBJECT,
  type EventHandler,
  type RpcHandler,
  type ServiceInstanceStatus,
  type StatusReporter,
  type Subscription,
  patternCovers,
  subjectMatches,
} from './bus';

/** A transport several principals share (the in-process bus): a status report says which service it speaks for. */
type StatusScopedBus = Bus & { reportStatus(reporter: StatusReporter, service?: string): void };

export type BusOperation = 'request' | 'serve' | 'publish the event' | 'consume' | 'publish live on' | 'subscribe to';

/** A bus call outside the caller's row of BUS_PERMISSIONS, refused by the in-process bus or by NATS. */
export class BusPermissionError extends Error {
  constructor(
    readonly principal: string,
    readonly operation: BusOperation,
    readonly subject: string,
  ) {
    super(`The ${principal} principal may not ${operation} ${subject} on the bus`);
    this.name = 'BusPermissionError';
  }
}

/**
 * One principal's view of a bus: every call is checked against its row of BUS_PERMISSIONS before it
 * reaches the transport, so the embedded mode refuses exactly what NATS refuses in the distributed one.
 */
export class ScopedBus implements Bus {
  private readonly grant: BusGrant;

  constructor(
    private readonly inner: StatusScopedBus,
    readonly principal: BusPrincipal,
    /** Whether closing this view closes the transport (a NATS connection of its own) or leaves it to its owner. */
    private readonly ownsTransport: boolean,
  ) {
    this.grant = BUS_PERMISSIONS[principal];
  }

  async request<R extends RpcDef>(rpc: R, payload: RpcRequest<R>, meta?: RequestMeta, timeoutMs?: number): Promise<RpcResponse<R>> {
    this.allow(
      'request',
      rpc.subject,
      this.grant.requests.some((allowed) => allowed.subject === rpc.subject),
    );
    return this.inner.request(rpc, payload, meta, timeoutMs);
  }

  async serve<R extends RpcDef>(rpc: R, handler: RpcHandler<R>): Promise<Subscription> {
    this.allow(
      'serve',
      rpc.subject,
      this.grant.serves.some((allowed) => allowed.subject === rpc.subject),
    );
    return this.inner.serve(rpc, handler);
  }

  async publishEvent<E extends EventDef>(event: E, data: z.input<E['data']>, actorId: string | null): Promise<EventEnvelope> {
    this.allow('publish the event', event.type, this.mayPublishEvent(event.type));
    return this.inner.publishEvent(event, data, actorId);
  }

  async publishEnvelope(envelope: EventEnvelope): Promise<void> {
    this.allow('publish the event', envelope.type, this.mayPublishEvent(envelope.type));
    return this.inner.publishEnvelope(envelope);
  }

  async consumeEvents(options: ConsumeOptions, handler: EventHandler): Promise<Subscription> {
    const readable = options.durableName ? this.grant.durableConsumers[options.durableName] : this.grant.tailsEvents;
    const types = (readable ?? []).map((event) => event.type);
    // Operators' live view follows the whole stream, without a durable consumer (nothing is held back for it).
    if (!options.durableName && this.grant.tailsAllEvents) types.push(EVENT_SUBJECTS);
    for (const subject of options.subjects) {
      const label = options.durableName ? `${subject} with the durable consumer ${options.durableName}` : subject;
      this.allow(
        'consume',
        label,
        types.some((type) => patternCovers(type, subject)),
      );
    }
    return this.inner.consumeEvents(options, handler);
  }

  async publishLive(subject: string, data: unknown): Promise<void> {
    this.allow(
      'publish live on',
      subject,
      this.grant.publishesLive.some((allowed) => subjectMatches(allowed, subject)),
    );
    return this.inner.publishLive(subject, data);
  }

  async subscribeLive(subject: string, handler: (data: unknown, subject: string) => void): Promise<Subscription> {
    this.allow(
      'subscribe to',
      subject,
      this.grant.subscribesLive.some((allowed) => patternCovers(allowed, subject)),
    );
    return this.inner.subscribeLive(subject, handler);
  }

  async discoverServices(timeoutMs?: number): Promise<ServiceInstanceStatus[]> {
    this.allow('request', DISCOVERY_SUBJECT, this.grant.discoversServices);
    return this.inner.discoverServices(timeoutMs);
  }

  reportStatus(reporter: StatusReporter): void {
    this.inner.reportStatus(reporter, this.principal);
  }

  isReady(): Promise<boolean> {
    return this.inner.isReady();
  }

  closed(): Promise<Error | null> {
    return this.inner.closed();
  }

  async close(): Promise<void> {
    if (this.ownsTransport) await this.inner.close();
  }

  private mayPublishEvent(type: string): boolean {
    return this.grant.publishesEvents.some((event) => event.type === type);
  }

  private allow(operation: BusOperation, subject: string, allowed: boolean): void {
    if (!allowed) throw new BusPermissionError(this.principal, operation, subject);
  }
}
