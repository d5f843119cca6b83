import http from 'node:http';
import path from 'node:path';
import { type BusPrincipal, isBusPrincipal } from '@app/schema';
import { type Bus, InProcessBus, NatsBus, ScopedBus, type Subscription } from './bus';
import { type InfraConfig, readInfraConfig, readInt } from './config';
import { lockDataDir } from './data-dir-lock';
import { Database, type DatabaseOptions } from './db/database';
import { logger } from './logger';

export interface ServiceContext {
  bus: Bus;
  db: Database;
  infra: InfraConfig;
  env: NodeJS.ProcessEnv;
}

/** What a service package exports: its database and how to wire its handlers and consumers. */
export interface ServiceDefinition extends DatabaseOptions {
  name: string;
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
export async function connectBus(infra: InfraConfig, clientName: string): Promise<Bus> {
  if (infra.natsUrl) return NatsBus.connect(infra.natsUrl, clientName, { security: infra.nats });
  return openInProcessBus(infra);
}

function openInProcessBus(infra: InfraConfig): InProcessBus {
  const inMemory = infra.dataDir.startsWith('memory://');
  return InProcessBus.open({ eventLogFile: inMemory ? undefined : path.join(infra.dataDir, 'events', 'events.jsonl') });
}

/**
 * Where a process's principals meet the bus. Without NATS_URL: one in-process bus, seen by each
 * principal through its own permission-checked view. With it: a NATS connection per principal, signed
 * in with that principal's credentials, so the server enforces the same table (and the view checks first).
 */
export class BusTransport {
  private constructor(
    private readonly infra: InfraConfig,
    private readonly local: InProcessBus | null,
  ) {}

  static open(infra: InfraConfig): BusTransport {
    return new BusTransport(infra, infra.natsUrl ? null : openInProcessBus(infra));
  }

  async connect(principal: BusPrincipal): Promise<Bus> {
    if (this.local) return this.local.as(principal);
    const bus = await NatsBus.connect(this.infra.natsUrl!, principal, { principal, security: this.infra.nats });
    return new ScopedBus(bus, principal, true);
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
  infra: InfraConfig = readInfraConfig(),
  env: NodeJS.ProcessEnv = process.env,
): Promise<RunningService> {
  const started = performance.now();
  const db = await Database.open(infra, definition);
  const subscriptions = await definition.start({ bus, db, infra, env });
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
  const infra = readInfraConfig();
  const lock = await lockDataDir(infra);
  const transport = BusTransport.open(infra);
  const bus = await transport.connect(principalOf(definition));
  exitWhenBusIsLost(bus, definition.name);
  const service = await startService(definition, bus, infra);
  const handle = healthHandler(() => service.isReady());
  const port = readInt(process.env, 'HEALTH_PORT', 0);
  const server = http.createServer((req, res) => {
    void handle(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  server.listen(port, process.env.HOST ?? '127.0.0.1', () => {
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
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}
