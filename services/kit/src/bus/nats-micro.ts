import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription as NatsSubscription } from '@nats-io/transport-node';
import { logger } from '../logger';
import { type CircuitState, type InstanceStatusReport, type ServiceInstanceStatus, serviceOfSubject } from './bus';

/** What one RPC endpoint has done since its service started, as `nats micro stats` shows it. */
interface EndpointStats {
  name: string;
  subject: string;
  queue_group: string;
  num_requests: number;
  num_errors: number;
  last_error: string;
  /** Nanoseconds. */
  processing_time: number;
}

interface MicroService {
  id: string;
  name: string;
  started: string;
  endpoints: Map<string, EndpointStats>;
  discovery: NatsSubscription[];
}

export interface MicroEndpoint {
  /** One request answered; `error` is set only for a crash (INTERNAL), not for a refusal the caller caused. */
  record(nanoseconds: number, error: string | null): void;
  remove(): void;
}

const VERBS = ['PING', 'INFO', 'STATS'] as const;
const CIRCUIT_KEY = 'circuit.';
const QUEUE_KEY = 'queue.';
const CIRCUIT_STATES: readonly CircuitState[] = ['closed', 'open', 'half-open'];

/** The INFO answer's fields discovery reads (the protocol's, plus `started`, which `nats micro` ignores). */
interface InfoResponse {
  name: string;
  id: string;
  version: string;
  started?: string;
  metadata?: Record<string, string> | null;
  endpoints?: unknown[] | null;
}

/**
 * The NATS services protocol (micro, ADR-32) over the bus's own RPC subscriptions: each service
 * (`svc.<name>.…`) answers `$SRV.PING|INFO|STATS[.<name>[.<id>]]`, so operators see the running
 * instances, their endpoints and their counters with `nats micro ls|info|stats`. The RPCs keep
 * their subjects and queue groups; only discovery is added.
 */
export class MicroRegistry {
  private readonly services = new Map<string, MicroService>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly version: string,
    /** This connection's live state (circuits, queues), read when an INFO request arrives. */
    private readonly liveStatus: () => Promise<Required<InstanceStatusReport>>,
  ) {}

  register(subject: string): MicroEndpoint | null {
    const name = serviceOfSubject(subject);
    if (!name) return null;
    const service = this.services.get(name) ?? this.start(name);
    const endpoint: EndpointStats = {
      name: subject.split('.').slice(2).join('-'),
      subject,
      queue_group: subject,
      num_requests: 0,
      num_errors: 0,
      last_error: '',
      processing_time: 0,
    };
    service.endpoints.set(subject, endpoint);
    return {
      record: (nanoseconds, error) => {
        endpoint.num_requests += 1;
        endpoint.processing_time += nanoseconds;
        if (error !== null) {
          endpoint.num_errors += 1;
          endpoint.last_error = error;
        }
      },
      remove: () => {
        if (service.endpoints.get(subject) !== endpoint) return;
        service.endpoints.delete(subject);
        if (service.endpoints.size === 0) this.stop(service);
      },
    };
  }

  private start(name: string): MicroService {
    const service: MicroService = {
      id: randomUUID().replace(/-/g, ''),
      name,
      started: new Date().toISOString(),
      endpoints: new Map(),
      discovery: [],
    };
    for (const verb of VERBS) {
      for (const subject of [`$SRV.${verb}`, `$SRV.${verb}.${name}`, `$SRV.${verb}.${name}.${service.id}`]) {
        service.discovery.push(
          this.nc.subscribe(subject, {
            callback: (error, msg) => {
              if (error) return logger.warn({ subject, err: error }, 'service discovery subscription failed');
              void this.describe(service, verb).then((answer) => msg.respond(JSON.stringify(answer)));
            },
          }),
        );
      }
    }
    this.services.set(name, service);
    return service;
  }

  private stop(service: MicroService): void {
    for (const sub of service.discovery) sub.unsubscribe();
    this.services.delete(service.name);
  }

  private async describe(service: MicroService, verb: (typeof VERBS)[number]) {
    const base = { name: service.name, id: service.id, version: this.version, metadata: {} };
    const endpoints = [...service.endpoints.values()];
    if (verb === 'PING') return { type: 'io.nats.micro.v1.ping_response', ...base };
    if (verb === 'INFO') {
      return {
        type: 'io.nats.micro.v1.info_response',
        ...base,
        // Computed now, so `nats micro info <service>` shows the live state too.
        metadata: statusMetadata(await this.liveStatus()),
        started: service.started,
        description: `The ${service.name} service's request/reply endpoints`,
        endpoints: endpoints.map(({ name, subject, queue_group }) => ({ name, subject, queue_group, metadata: null })),
      };
    }
    return {
      type: 'io.nats.micro.v1.stats_response',
      ...base,
      started: service.started,
      endpoints: endpoints.map((endpoint) => ({
        ...endpoint,
        average_processing_time: endpoint.num_requests > 0 ? Math.round(endpoint.processing_time / endpoint.num_requests) : 0,
      })),
    };
  }
}

/** Circuits and queues as the INFO answer's metadata (string to string): `circuit.chat-provider: closed`, `queue.media.image-jobs.waiting: 3`. */
function statusMetadata(status: Required<InstanceStatusReport>): Record<string, string> {
  return Object.fromEntries([
    ...status.circuits.map((circuit) => [`${CIRCUIT_KEY}${circuit.name}`, circuit.state]),
    ...status.queues.map((queue) => [`${QUEUE_KEY}${queue.name}`, String(queue.depth)]),
  ]);
}

/** An INFO answer as discovery reports it; null for anything that is not one (another implementation's odd reply). */
export function readInfoResponse(answer: unknown): ServiceInstanceStatus | null {
  const info = answer as Partial<InfoResponse> | null;
  if (!info || typeof info.name !== 'string' || typeof info.id !== 'string') return null;
  const circuits: ServiceInstanceStatus['circuits'] = [];
  const queues: ServiceInstanceStatus['queues'] = [];
  for (const [key, value] of Object.entries(info.metadata ?? {})) {
    const state = value as CircuitState;
    if (key.startsWith(CIRCUIT_KEY) && CIRCUIT_STATES.includes(state)) circuits.push({ name: key.slice(CIRCUIT_KEY.length), state });
    const depth = Number(value);
    if (key.startsWith(QUEUE_KEY) && Number.isFinite(depth)) queues.push({ name: key.slice(QUEUE_KEY.length), depth });
  }
  return {
    name: info.name,
    id: info.id,
    version: typeof info.version === 'string' ? info.version : '',
    startedAt: typeof info.started === 'string' ? info.started : '',
    endpoints: Array.isArray(info.endpoints) ? info.endpoints.length : 0,
    circuits,
    queues,
  };
}
