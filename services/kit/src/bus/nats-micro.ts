import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription as NatsSubscription } from '@nats-io/transport-node';
import { logger } from '../logger';

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
  ) {}

  register(subject: string): MicroEndpoint | null {
    const [prefix, name, ...rest] = subject.split('.');
    if (prefix !== 'svc' || !name || rest.length === 0) return null;
    const service = this.services.get(name) ?? this.start(name);
    const endpoint: EndpointStats = {
      name: rest.join('-'),
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
              msg.respond(JSON.stringify(this.describe(service, verb)));
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

  private describe(service: MicroService, verb: (typeof VERBS)[number]) {
    const base = { name: service.name, id: service.id, version: this.version, metadata: {} };
    const endpoints = [...service.endpoints.values()];
    if (verb === 'PING') return { type: 'io.nats.micro.v1.ping_response', ...base };
    if (verb === 'INFO') {
      return {
        type: 'io.nats.micro.v1.info_response',
        ...base,
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
