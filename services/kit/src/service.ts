import http from 'node:http';
import path from 'node:path';
import { type Bus, InProcessBus, NatsBus, type Subscription } from './bus';
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

/** NATS + JetStream when NATS_URL is set, otherwise the in-process bus with its event log under DATA_DIR. */
export async function connectBus(infra: InfraConfig, clientName: string): Promise<Bus> {
  if (infra.natsUrl) return NatsBus.connect(infra.natsUrl, clientName);
  const inMemory = infra.dataDir.startsWith('memory://');
  return InProcessBus.open({ eventLogFile: inMemory ? undefined : path.join(infra.dataDir, 'events', 'events.jsonl') });
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

/** `GET /healthz` says the process is up; `GET /readyz` checks the database and the bus. */
export function healthHandler(isReady: () => Promise<boolean>) {
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const url = req.url?.split('?')[0];
    if (req.method !== 'GET' || (url !== '/healthz' && url !== '/readyz')) return false;
    const ready = url === '/healthz' ? true : await isReady().catch(() => false);
    res.writeHead(ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ status: ready ? 'ok' : 'unavailable' }));
    return true;
  };
}

/** Runs one service as its own process (distributed mode): bus, database, health port, clean shutdown. */
export async function runStandalone(definition: ServiceDefinition): Promise<void> {
  const infra = readInfraConfig();
  const lock = await lockDataDir(infra);
  const bus = await connectBus(infra, definition.name);
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
    lock?.release();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown());
  process.once('SIGINT', () => void shutdown());
}
