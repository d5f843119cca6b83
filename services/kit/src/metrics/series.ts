import { AppError } from '@app/schema';
import type { UpstreamErrorKind } from '../http-upstream/upstream-error';
import { circuitStateValue, readConsumerPending, readProcessStatus } from './live-state';
import { counter, gauge, histogram } from './registry';

/*
 * The platform's series. Label values come from fixed sets (route patterns, RPC subjects, event types, consumer,
 * provider and queue names, outcomes), never from ids or free text, so each series stays bounded.
 */

/** Request and operation latencies: from 5 ms to 10 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A chat reply takes seconds, an image up to minutes. */
const GENERATION_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300];

export const httpRequestDuration = histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests the gateway answered, by method, route pattern and status code.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: LATENCY_BUCKETS,
});

export const graphqlOperationDuration = histogram({
  name: 'graphql_operation_duration_seconds',
  help: 'GraphQL operations over HTTP, by operation name and type, and outcome (ok, or the first error code in lower case).',
  labelNames: ['operation_name', 'operation_type', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
});

export const busRequestDuration = histogram({
  name: 'bus_request_duration_seconds',
  help: 'Bus RPCs as their callers saw them, by subject and outcome (ok, timeout, or the error code in lower case).',
  labelNames: ['subject', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
});

export const busEventsPublished = counter({
  name: 'bus_events_published_total',
  help: 'Domain events appended to the event stream by this process, by type (a repeated id stored once counts once).',
  labelNames: ['type'] as const,
});

export const busEventsConsumed = counter({
  name: 'bus_events_consumed_total',
  help: "Domain events handed to this process's consumers, by consumer (`tail` for live tails), type and outcome (ok, error).",
  labelNames: ['consumer', 'type', 'outcome'] as const,
});

gauge({
  name: 'bus_consumer_pending',
  help: 'Events a durable consumer has not processed yet (JetStream: pending plus awaiting acknowledgement), read at each scrape.',
  labelNames: ['consumer'] as const,
  async collect() {
    this.reset();
    for (const [consumer, pending] of await readConsumerPending()) this.set({ consumer }, pending);
  },
});

export const generationDuration = histogram({
  name: 'generation_duration_seconds',
  help: 'Chat replies (chat_reply), story passages (story_passage) and image job attempts (image) from start to end, by outcome: completed, failed, stopped, refused, retried.',
  labelNames: ['kind', 'outcome'] as const,
  buckets: GENERATION_BUCKETS,
});

export const providerErrors = counter({
  name: 'provider_errors_total',
  help: 'Failed calls to an AI provider (chat-provider, image-provider, moderation-model), by kind of failure.',
  labelNames: ['provider', 'kind'] as const,
});

gauge({
  name: 'provider_circuit_state',
  help: "Each provider's circuit breaker as the services report it: 0 closed, 1 half-open, 2 open.",
  labelNames: ['provider'] as const,
  async collect() {
    this.reset();
    for (const circuit of (await readProcessStatus()).circuits) this.set({ provider: circuit.name }, circuitStateValue(circuit.state));
  },
});

gauge({
  name: 'queue_depth',
  help: 'Work waiting or running in a queue the services report (e.g. media.image-jobs.waiting), read at each scrape.',
  labelNames: ['queue'] as const,
  async collect() {
    this.reset();
    for (const queue of (await readProcessStatus()).queues) this.set({ queue: queue.name }, queue.depth);
  },
});

export const websocketConnections = gauge({
  name: 'websocket_connections',
  help: 'GraphQL WebSocket connections open on the gateway.',
});

export type GenerationKind = 'chat_reply' | 'story_passage' | 'image';
/** `retried`: an image attempt that failed and went back to the queue for another. */
export type GenerationOutcome = 'completed' | 'failed' | 'stopped' | 'refused' | 'retried';

/** One chat reply or image job that has ended, `startedAt` from `performance.now()`. */
export function recordGeneration(kind: GenerationKind, outcome: GenerationOutcome, startedAt: number): void {
  generationDuration.observe({ kind, outcome }, (performance.now() - startedAt) / 1000);
}

/** A failed provider call; the member's own stop is not the provider's failure and is not counted. */
export function recordProviderError(provider: string, kind: UpstreamErrorKind): void {
  if (kind !== 'cancelled') providerErrors.inc({ provider, kind });
}

/** Times one RPC as its caller sees it, including time-outs and refusals. */
export async function timeBusRequest<T>(subject: string, call: () => Promise<T>): Promise<T> {
  const end = busRequestDuration.startTimer({ subject });
  try {
    const reply = await call();
    end({ outcome: 'ok' });
    return reply;
  } catch (error) {
    end({ outcome: requestOutcome(error) });
    throw error;
  }
}

function requestOutcome(error: unknown): string {
  if (error instanceof AppError) return error.code.toLowerCase();
  return error instanceof Error && error.name === 'BusPermissionError' ? 'refused' : 'error';
}
