import { randomUUID } from 'node:crypto';
import type { EventDef, EventEnvelope, RequestMeta, RpcDef, RpcRequest, RpcResponse } from '@app/schema';
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
  /** True when the transport is connected. */
  isReady(): Promise<boolean>;
  close(): Promise<void>;
}

export const DEFAULT_RPC_TIMEOUT_MS = 15_000;

/** NATS subject matching: `*` matches one token, `>` the rest. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== '*' && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
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
