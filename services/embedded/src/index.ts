import { chatService } from '@app/chat';
import { type GatewayConfig, createGateway, readGatewayConfig } from '@app/gateway';
import { identityService } from '@app/identity';
import {
  type Bus,
  type ConsumeOptions,
  type EventHandler,
  type Subscription,
  BusTransport,
  Infra,
  type InfraConfig,
  assertValidEnvironment,
  type RunningService,
  type ServiceDefinition,
  lockDataDir,
  logger,
  openObjectStorage,
  principalOf,
  readMetricsToken,
  startService,
} from '@app/kit';
import { mediaService } from '@app/media';
import { PLATFORM_ENVIRONMENTS } from './configuration';
import { LOCAL_SERVERS, type LocalServerCandidates, detectLocalProviders } from './provider-probe/provider-probe';

export type { LocalServerCandidates } from './provider-probe/provider-probe';

export interface EmbeddedOptions {
  /** Decided by the caller (tests sharing it), or settings written by hand; by default read from `env`. */
  infra?: Infra | InfraConfig;
  gateway?: Partial<GatewayConfig>;
  env?: NodeJS.ProcessEnv;
  /** Replaces a service definition (tests use it for a fake clock). */
  services?: ServiceDefinition[];
  /**
   * Looks for AI servers on this computer when no chat or image provider is configured (`npm start` does; tests
   * keep the demo unless they pass servers of their own). True: the usual loopback ports.
   */
  probeLocalServers?: boolean | LocalServerCandidates;
}

export interface EmbeddedPlatform {
  url: string;
  port: number;
  /** The gateway's bus (tests attach a second gateway to it). */
  bus: Bus;
  /** The infrastructure the platform runs on (tests open its object storage). */
  infra: Infra;
  services: RunningService[];
  /** Follows every event on the stream, as an operator would (tests use it to see what the services announce). */
  observe(options: ConsumeOptions, handler: EventHandler): Promise<Subscription>;
  stop(): Promise<void>;
}

/**
 * The whole product in one process: gateway + identity + chat + media on one database, each on the
 * bus as its own principal (views of one in-process bus, or a NATS connection each when NATS_URL is set).
 */
export async function startEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedPlatform> {
  const given = options.env ?? process.env;
  // Every variable the platform reads is checked before anything starts, each invalid one named.
  assertValidEnvironment(given, PLATFORM_ENVIRONMENTS);
  const probe = options.probeLocalServers;
  const env = probe ? { ...given, ...(await detectLocalProviders(given, probe === true ? LOCAL_SERVERS : probe)) } : given;
  const infra =
    options.infra instanceof Infra ? options.infra : options.infra ? Infra.from(options.infra, env) : Infra.fromEnvironment(env);
  logger.info(infra.describe(), 'infrastructure');
  const lock = await lockDataDir(infra);
  const transport = BusTransport.open(infra);
  const buses: Bus[] = [];
  const services: RunningService[] = [];
  const closeAll = async () => {
    for (const bus of buses.reverse()) await bus.close().catch(() => undefined);
    await transport.close().catch(() => undefined);
    lock?.release();
  };
  try {
    const definitions = options.services ?? [identityService, chatService, mediaService];
    for (const definition of definitions) {
      const bus = await transport.connect(principalOf(definition));
      buses.push(bus);
      services.push(await startService(definition, bus, infra, env));
    }
    const bus = await transport.connect('gateway');
    buses.push(bus);
    const gateway = await createGateway({
      bus,
      config: { ...readGatewayConfig(env), ...options.gateway },
      storage: openObjectStorage(infra),
      databaseUrl: infra.databaseUrl,
      metricsToken: readMetricsToken(env),
      isReady: async () => (await Promise.all([bus.isReady(), ...services.map((service) => service.isReady())])).every(Boolean),
    });
    const { url, port } = await gateway.listen();
    return {
      url,
      port,
      bus,
      infra,
      services,
      observe: async (consume, handler) => {
        const observer = await transport.connectObserver();
        // A NATS connection of its own closes with the platform; the in-process bus closes with the transport.
        if (infra.natsUrl) buses.push(observer);
        return observer.consumeEvents(consume, handler);
      },
      stop: async () => {
        await gateway.close();
        for (const service of services.reverse()) await service.stop();
        await closeAll();
        logger.info('stopped');
      },
    };
  } catch (error) {
    // A start that fails half way leaves nothing open, the data directory included.
    for (const service of services.reverse()) await service.stop().catch(() => undefined);
    await closeAll();
    throw error;
  }
}
