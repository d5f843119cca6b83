import http from 'node:http';
import path from 'node:path';
import { type BusPrincipal, isBusPrincipal } from '@app/schema';
import { type Bus, InProcessBus, NatsBus, ScopedBus, type Subscription } from './bus';
import { Infra } from './config';
import { type Environment, type Variable, assertValidEnvironment } from './env/environment';
import {
  infraEnvironment,
  listenEnvironment,
  loggingEnvironment,
  metricsEnvironment,
  natsCredentialsEnvironment,
  outboxEnvironment,
  standaloneEnvironment,
  tracingEnvironment,
} from './env/kit.environment';
import { eventsEnvironment } from './bus/event-retention';
import { lockDataDir } from './data-dir-lock';
import { Database, type DatabaseOptions } from './db/database';
import { Outbox, readOutboxOptions } from './db/outbox';
import { logger } from './logger';
import { collectProcessMetrics, isAuthorizedScrape, readMetrics } from './metrics';
import { stopTracing } from './tracing/start';

export interface ServiceContext {
  bus: Bus;
  db: Database;
  infra: Infra;
  env: NodeJS.ProcessEnv;
}

/** What a service package exports: its database, the variables it reads, and how to wire its handlers and consumers. */
export interface ServiceDefinition extends DatabaseOptions {
  name: string;
  /** The environment variables of the service's own (the kit's are checked for every service). */
  environments?: Environment<Record<string, Variable<unknown>>>[];
  start(context: ServiceContext): Promise<Subscription[]>;
}

export interface RunningService {
  name: string;
  db: Database;
  isReady(): Promise<boolean>;
  stop(): Promise<void>;
}

/**
 * NATS + JetStream when NATS_URL is set, otherwise the in-process bus with its event log under DATA_DIR.
 * Unscoped and anonymous: for tools and tests. Processes of the platform use a BusTransport.
 */
export async function connectBus(infra: Infra, clientName: string): Promise<Bus> {
  if (infra.natsUrl) {
    return NatsBus.connect(infra.natsUrl, clientName, {
      security: infra.nats,
      retention: infra.retention,
      serviceVersion: infra.serviceVersion,
    });
  }
  return openInProcessBus(infra);
}

function openInProcessBus(infra: Infra): InProcessBus {
  const eventLogFile = infra.eventLogDir ? path.join(infra.eventLogDir, 'events.jsonl') : undefined;
  return InProcessBus.open({ eventLogFile, retention: infra.retention, serviceVersion: infra.serviceVersion });
}

/**
 * Where a process's principals meet the bus. Without NATS_URL: one in-process bus, seen by each
 * principal through its own permission-checked view. With it: a NATS connection per principal, signed
 * in with that principal's credentials, so the server enforces the same table (and the view checks first).
 */
export class BusTransport {
  private constructor(
    private readonly infra: Infra,
    private readonly local: InProcessBus | null,
  ) {}

  static open(infra: Infra): BusTransport {
    return new BusTransport(infra, infra.natsUrl ? null : openInProcessBus(infra));
  }

  async connect(principal: BusPrincipal): Promise<Bus> {
    if (this.local) return this.local.as(principal);
    const bus = await NatsBus.connect(this.infra.natsUrl!, principal, {
      principal,
      security: this.infra.nats,
      retention: this.infra.retention,
      serviceVersion: this.infra.serviceVersion,
    });
    return new ScopedBus(bus, principal, true);
  }

  /**
   * A view of the whole event stream for operators' tools and tests: the in-process bus itself, or a NATS connection
   * without a principal (servers that require credentials refuse it; operators use `nats` with their own).
   */
  async connectObserver(): Promise<Bus> {
    if (this.local) return this.local;
    return NatsBus.connect(this.infra.natsUrl!, 'observer', { security: this.infra.nats, retention: this.infra.retention });
  }

  /** Closes the in-process bus; each principal's NATS connection closes with its own bus. */
  async close(): Promise<void> {
    await this.local?.close();
  }
}

/** A service acts on the bus as the principal of its name (BUS_PERMISSIONS in schema/src/bus/permissions.ts). */
export function principalOf(definition: ServiceDefinition): BusPrincipal {
  if (!isBusPrincipal(definition.name)) throw new Error(`The service ${definition.name} has no row in BUS_PERMISSIONS`);
  return definition.name;
}

/** A bus that gave up for good (e.g. its credentials were refused on reconnect) stops the process, so its supervisor restarts it. */
export function exitWhenBusIsLost(bus: Bus, processName: string): void {
  void bus.closed().then((error) => {
    if (!error) return;
    logger.fatal({ process: processName, err: error }, `the bus connection of ${processName} is lost: ${error.message}`);
    process.exit(1);
  });
}

export async function startService(
  definition: ServiceDefinition,
  bus: Bus,
  infra: Infra,
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const started = performance.now();
  const db = await Database.open(infra, definition);
  // Every service's events leave through its outbox, relayed after each commit that wrote any.
  const relay = new Outbox(db, bus, readOutboxOptions(env)).start();
  const subscriptions = [...(await definition.start({ bus, db, infra, env })), relay];
  logger.info({ service: definition.name, latencyMs: Math.round(performance.now() - started) }, 'service started');
  return {
    name: definition.name,
    db,
    isReady: async () => (await db.isReady()) && (await bus.isReady()),
    stop: async () => {
      for (const subscription of subscriptions) await subscription.unsubscribe();
      await db.close();
    },
  };
}

export interface HealthServer {
  server: http.Server;
  close(): Promise<void>;
}

/** `GET /healthz` says the process is up; `GET /readyz` checks the database and the bus; `HEAD` gets the same status. */
export function healthHandler(isReady: () => Promise<boolean>) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const url = req.url?.split('?')[0];
    if ((req.method !== 'GET' && req.method !== 'HEAD') || (url !== '/healthz' && url !== '/readyz')) return false;
    const ready = url === '/healthz' ? true : await isReady().catch(() => false);
    const headers = { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
    res.writeHead(ready ? 200 : 503, headers);
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ status: ready ? 'ok' : 'unavailable' }));
    return true;
  };
}

/**
 * `GET /metrics`: the process's series for Prometheus. With a token, only `Authorization: Bearer <token>` gets them
 * (401 otherwise); without one the health port is internal and serves them to whoever reaches it.
 */
export function metricsHandler(token: string | null) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') return false;
    if (token && !isAuthorizedScrape(req.headers.authorization, token)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer', 'cache-control': 'no-store' }).end();
      return true;
    }
    const { contentType, body } = await readMetrics();
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.end(body);
    return true;
  };
}

/** What every standalone service process reads besides its own variables. */
const STANDALONE_ENVIRONMENTS = [
  infraEnvironment,
  natsCredentialsEnvironment,
  eventsEnvironment,
  outboxEnvironment,
  loggingEnvironment,
  tracingEnvironment,
  listenEnvironment,
  standaloneEnvironment,
  metricsEnvironment,
];

/** Runs one service as its own process (distributed mode); a failure to start, such as refused NATS credentials, stops it. */
export async function runStandalone(definition: ServiceDefinition): Promise<void> {
  try {
    await serveStandalone(definition);
  } catch (error) {
    logger.fatal({ service: definition.name, err: error }, `${definition.name} could not start: ${(error as Error).message}`);
    process.exit(1);
  }
}

/** Bus, database, health port, clean shutdown. */
async function serveStandalone(definition: ServiceDefinition): Promise<void> {
  // Every variable this process reads is checked before anything starts, each invalid one named.
  assertValidEnvironment(process.env, [...STANDALONE_ENVIRONMENTS, ...(definition.environments ?? [])]);
  const infra = Infra.fromEnvironment();
  logger.info({ service: definition.name, ...infra.describe() }, 'infrastructure');
  const lock = await lockDataDir(infra);
  collectProcessMetrics();
  const transport = BusTransport.open(infra);
  const bus = await transport.connect(principalOf(definition));
  exitWhenBusIsLost(bus, definition.name);
  const service = await startService(definition, bus, infra);
  const health = healthHandler(() => service.isReady());
  const metrics = metricsHandler(metricsEnvironment.parse(process.env).METRICS_TOKEN);
  const { HEALTH_PORT: port } = standaloneEnvironment.parse(process.env);
  const { HOST: host } = listenEnvironment.parse(process.env);
  const server = http.createServer((req, res) => {
    void (async () => (await health(req, res)) || (await metrics(req, res)) || res.writeHead(404).end())().catch((error: unknown) => {
      logger.error({ err: error }, 'health endpoint failed');
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  server.listen(port, host, () => {
    const address = server.address();
    logger.info({ service: definition.name, port: typeof address === 'object' ? address?.port : port }, 'health endpoint listening');
  });
  const shutdown = async () => {
    logger.info({ service: definition.name }, 'shutting down');
    server.close();
    await service.stop();
    await bus.close();
    await transport.close();
    lock?.release();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}
