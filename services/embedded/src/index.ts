import { chatService } from '@app/chat';
import { type GatewayConfig, createGateway, readGatewayConfig } from '@app/gateway';
import { identityService } from '@app/identity';
import {
  type Bus,
  type InfraConfig,
  type RunningService,
  type ServiceDefinition,
  connectBus,
  lockDataDir,
  logger,
  openObjectStorage,
  readInfraConfig,
  startService,
} from '@app/kit';
import { mediaService } from '@app/media';

export interface EmbeddedOptions {
  infra?: InfraConfig;
  gateway?: Partial<GatewayConfig>;
  env?: NodeJS.ProcessEnv;
  /** Replaces a service definition (tests use it for a fake clock). */
  services?: ServiceDefinition[];
}

export interface EmbeddedPlatform {
  url: string;
  port: number;
  /** The bus everything here talks over (tests attach a second gateway to it). */
  bus: Bus;
  services: RunningService[];
  stop(): Promise<void>;
}

/** The whole product in one process: gateway + identity + chat + media on one bus and one database. */
export async function startEmbedded(options: EmbeddedOptions = {}): Promise<EmbeddedPlatform> {
  const env = options.env ?? process.env;
  const infra = options.infra ?? readInfraConfig(env);
  const lock = await lockDataDir(infra);
  const services: RunningService[] = [];
  let bus: Bus | null = null;
  try {
    bus = await connectBus(infra, 'embedded');
    const definitions = options.services ?? [identityService, chatService, mediaService];
    for (const definition of definitions) services.push(await startService(definition, bus, infra, env));
    const gateway = await createGateway({
      bus,
      config: { ...readGatewayConfig(env), ...options.gateway },
      storage: openObjectStorage(infra, env),
      isReady: async () => (await Promise.all(services.map((service) => service.isReady()))).every(Boolean),
    });
    const { url, port } = await gateway.listen();
    const running = bus;
    return {
      url,
      port,
      bus: running,
      services,
      stop: async () => {
        await gateway.close();
        for (const service of services.reverse()) await service.stop();
        await running.close();
        lock?.release();
        logger.info('stopped');
      },
    };
  } catch (error) {
    // A start that fails half way leaves nothing open, the data directory included.
    for (const service of services.reverse()) await service.stop().catch(() => undefined);
    await bus?.close().catch(() => undefined);
    lock?.release();
    throw error;
  }
}
