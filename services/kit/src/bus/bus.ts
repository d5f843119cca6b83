import { randomUUID } from 'node:crypto';
import { AppError, type EventDef, type EventEnvelope, type RequestMeta, type RpcDef, type RpcRequest, type RpcResponse } from '@app/schema';
import { type z } from 'zod';

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export type RpcHandler<R extends RpcDef> = (payload: z.output<R['request']>, meta: RequestMeta) => Promise<z.input<R['response']>>;

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface ConsumeOptions {
  /** Event types (subjects) to receive; NATS wildcards `*` and `>` allowed. */
  subjects: string[];
  /** Durable consumers share work across instances and resume where they stopped; omit for a per-process live tail. */
  durableName?: string;
  /** `all` replays the stream from the start (projections); `new` receives only events published from now on. */
  deliver: 'all' | 'new';
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/** A running service instance as the NATS services protocol ($SRV.INFO) describes it, with its live state. */
export interface ServiceInstanceStatus {
  /** 'chat' */
  name: string;
  /** Instance id. */
  id: string;
  version: string;
  /** ISO time. */
  startedAt: string;
  /** RPC endpoints it serves. */
  endpoints: number;
  circuits: { name: string; state: CircuitState }[];
  queues: { name: string; depth: number }[];
}

/** What a service adds to its instance's status: its circuit breakers' states and its queues' depths, read when asked. */
export interface InstanceStatusReport {
  circuits?: { name: string; state: CircuitState }[];
  queues?: { name: string; depth: number }[];
}

export type StatusReporter = () => Promise<InstanceStatusReport> | InstanceStatusReport;

/**
 * The one messaging interface services and the gateway use. Two implementations pass the same
 * contract suite: NATS + JetStream (distributed) and in-process (embedded).
 */
export interface Bus {
  /** Request/reply; rejects with the handler's AppError, or UNAVAILABLE/TIMEOUT. */
  request<R extends RpcDef>(rpc: R, payload: RpcRequest<R>, meta?: RequestMeta, timeoutMs?: number): Promise<RpcResponse<R>>;
  /** Serves an RPC; instances of a service share requests as a queue group. */
  serve<R extends RpcDef>(rpc: R, handler: RpcHandler<R>): Promise<Subscription>;
  /** Appends a domain event to the durable stream (at-least-once). */
  publishEvent<E extends EventDef>(event: E, data: z.input<E['data']>, actorId: string | null): Promise<EventEnvelope>;
  /** Appends an already-built envelope (outbox relay); a repeated id is stored once. */
  publishEnvelope(envelope: EventEnvelope): Promise<void>;
  /** Consumes domain events; a handler that throws gets the event again later. */
  consumeEvents(options: ConsumeOptions, handler: EventHandler): Promise<Subscription>;
  /** Fire-and-forget live message (typing, deltas): not stored. */
  publishLive(subject: string, data: unknown): Promise<void>;
  subscribeLive(subject: string, handler: (data: unknown, subject: string) => void): Promise<Subscription>;
  /** Every service instance that answers within `timeoutMs` (default 500), sorted by name then id. */
  discoverServices(timeoutMs?: number): Promise<ServiceInstanceStatus[]>;
  /** Adds live state to this process's service instance(s) on this bus: circuit states and queue depths. */
  reportStatus(reporter: StatusReporter): void;
  /** True when the transport is connected and every event consumer is running. */
  isReady(): Promise<boolean>;
  /** Settles once the bus has closed: null after `close()`, the reason when the transport gave up (e.g. refused credentials). */
  closed(): Promise<Error | null>;
  close(): Promise<void>;
}

export const DEFAULT_RPC_TIMEOUT_MS = 15_000;
export const DEFAULT_DISCOVERY_TIMEOUT_MS = 500;
/** The NATS services protocol's INFO request: discovery asks it of every service at once. */
export const DISCOVERY_SUBJECT = '$SRV.INFO';

/**
 * When a request stops waiting: its own timeout or the caller's deadline (a GraphQL operation's), whichever
 * comes first. A request already past it is not sent: the caller has stopped waiting.
 */
export function requestDeadline(subject: string, meta: RequestMeta, timeoutMs: number): { deadlineAt: number; waitMs: number } {
  const now = Date.now();
  const deadlineAt = Math.min(meta.deadlineAt ?? Number.POSITIVE_INFINITY, now + timeoutMs);
  if (deadlineAt <= now) throw new AppError('TIMEOUT', `The request ran out of time before ${subject} was called`);
  return { deadlineAt, waitMs: deadlineAt - now };
}

/** NATS subject matching (`*` one token, `>` the rest), shared with the event filters of the contracts. */
export { subjectMatches } from '@app/schema';

/** True when every subject `pattern` matches is also matched by `allowed` (how NATS checks a wildcard subscription). */
export function patternCovers(allowed: string, pattern: string): boolean {
  const a = allowed.split('.');
  const p = pattern.split('.');
  for (let i = 0; i < a.length; i++) {
    if (a[i] === '>') return p.length > i;
    if (i >= p.length || p[i] === '>') return false;
    if (a[i] !== '*' && (p[i] === '*' || a[i] !== p[i])) return false;
  }
  return a.length === p.length;
}

/** The service an RPC subject belongs to: `chat` for `svc.chat.reply.start`; null for anything else. */
export function serviceOfSubject(subject: string): string | null {
  const [prefix, name, ...rest] = subject.split('.');
  return prefix === 'svc' && name && rest.length > 0 ? name : null;
}

/** Discovery's order: by name, then by id. */
export function sortInstances(instances: ServiceInstanceStatus[]): ServiceInstanceStatus[] {
  return instances.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

export function buildEnvelope<E extends EventDef>(event: E, data: z.input<E['data']>, actorId: string | null): EventEnvelope {
  return {
    id: randomUUID(),
    type: event.type,
    version: event.version,
    occurredAt: new Date().toISOString(),
    actorId,
    data: event.data.parse(data),
  };
}
