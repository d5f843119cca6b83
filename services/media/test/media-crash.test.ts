import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chatService } from '@app/chat';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { createGateway, readGatewayConfig } from '@app/gateway';
import { identityService } from '@app/identity';
import { type Bus, Infra, type RunningService, connectBus, openObjectStorage, startService } from '@app/kit';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { createTestDatabase, eventually, hasNats, hasPostgres } from '../../kit/test/test-infra';
import { createMediaService } from '../src';
import { startLocalS3 } from './local-s3';

jest.setTimeout(120_000);

const MEDIA_MAIN = path.join(__dirname, '..', 'dist', 'main.js');
const distributed = hasPostgres() && hasNats();

interface Job {
  id: string;
  status: string;
  progress: number | null;
  attempts: number;
  image: { id: string } | null;
}
const JOB_FIELDS = 'id status progress attempts image { id }';

/** Kills the media process mid-generation: the job must be retried elsewhere (or failed and refunded), never left running. */
(distributed ? describe : describe.skip)('media service crash and gateway restart mid-generation (distributed)', () => {
  let database: { url: string; drop(): Promise<void> };
  let s3: Awaited<ReturnType<typeof startLocalS3>>;
  let platform: EmbeddedPlatform;
  let env: NodeJS.ProcessEnv;
  let child: ChildProcess | null = null;
  let rescuer: { bus: Bus; service: RunningService } | null = null;
  // S3 settings come from `env`, so every process of the test sees the same bucket.
  const infra = () => Infra.from({ dataDir: `memory://${randomUUID()}`, databaseUrl: database.url, natsUrl: process.env.NATS_URL! }, env);

  beforeAll(async () => {
    if (!fs.existsSync(MEDIA_MAIN)) throw new Error('Build the services first: npx tsc -b services/embedded');
    database = await createTestDatabase();
    s3 = await startLocalS3();
    env = {
      SIGNUPS_PER_IP_PER_HOUR: '1000',
      S3_BUCKET: s3.config.bucket,
      S3_ENDPOINT: s3.config.endpoint ?? undefined,
      S3_REGION: s3.config.region,
      S3_ACCESS_KEY_ID: s3.config.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.config.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    // Gateway, identity and chat here; media in a child process of its own, drawing slowly with the demo renderer.
    platform = await startEmbedded({ infra: infra(), gateway: { port: 0 }, env, services: [identityService, chatService] });
    child = spawn(process.execPath, [MEDIA_MAIN], {
      env: {
        PATH: process.env.PATH,
        ...env,
        DATABASE_URL: database.url,
        NATS_URL: process.env.NATS_URL,
        MEDIA_DEMO_STEP_DELAY_MS: '500',
        MEDIA_JOB_LEASE_MS: '1500',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const probe = new TestClient(platform.url);
    await probe.fetch('/api/auth/register', { method: 'POST', json: registration() });
    await eventually(async () => {
      const info = await probe.graphql<{ imageProvider: { isDemo: boolean } }>('{ imageProvider { isDemo } }');
      expect(info.data?.imageProvider.isDemo).toBe(true);
    }, 30_000);
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await rescuer?.service.stop();
    await rescuer?.bus.close();
    await platform?.stop();
    await s3?.stop();
    await database?.drop();
  });

  it('a job started through a gateway that then stops, on a media process that is killed, is retried by another instance and charged once', async () => {
    const client = new TestClient(platform.url);
    await client.fetch('/api/auth/register', { method: 'POST', json: registration() });

    // A second gateway takes the request, then shuts down: the job lives in the media service, not in the gateway.
    const gatewayBus = await connectBus(infra(), 'gateway-2');
    const gateway = await createGateway({
      bus: gatewayBus,
      config: { ...readGatewayConfig({}), port: 0 },
      storage: openObjectStorage(infra()),
    });
    const { url } = await gateway.listen();
    const viaSecond = new TestClient(url);
    viaSecond.cookie = client.cookie;
    const started = await viaSecond.graphql<{ generateImage: Job }>(
      `mutation { generateImage(input: { prompt: "Survives everything" }) { ${JOB_FIELDS} } }`,
    );
    expect(started.errors).toBeUndefined();
    const jobId = started.data!.generateImage.id;
    await gateway.close();
    await gatewayBus.close();

    const ws = client.subscriptions();
    const updates = collect<{ generationUpdates: Job }>(ws, `subscription { generationUpdates { ${JOB_FIELDS} } }`, 10_000);
    updates.done.catch(() => undefined);
    await eventually(() => {
      const running = updates.values.map((value) => value.generationUpdates).find((job) => job.id === jobId && (job.progress ?? 0) > 0);
      expect(running).toBeDefined();
    }, 20_000);
    const balanceOf = async () => ((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens;
    expect(await balanceOf()).toBe(14);

    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = null;

    // A surviving (here: newly started) media instance takes the job back once its lease runs out.
    const rescueInfra = infra();
    const bus = await connectBus(rescueInfra, 'media-rescuer');
    rescuer = {
      bus,
      service: await startService(createMediaService({ sweepIntervalMs: 300, demoStepDelayMs: 20 }), bus, rescueInfra, env),
    };

    await eventually(
      () => expect(updates.values.at(-1)?.generationUpdates).toMatchObject({ id: jobId, status: 'DONE', attempts: 2 }),
      30_000,
    );
    const imageId = updates.values.at(-1)!.generationUpdates.image!.id;
    updates.stop();
    await ws.dispose();
    const file = await client.fetch(`/api/media/images/${imageId}/original.png`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await balanceOf()).toBe(14);
  });
});
