import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityService } from '@app/identity';
import { type Bus, Infra, type RunningService, connectBus, startService } from '@app/kit';
import { mediaService } from '@app/media';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { createTestDatabase, eventually, hasNats, hasPostgres } from '../../kit/test/test-infra';
import { createChatService } from '../src';

jest.setTimeout(90_000);

const CHAT_MAIN = path.join(__dirname, '..', 'dist', 'main.js');
const distributed = hasPostgres() && hasNats();

type Update = {
  conversationUpdates: { type: string; typing: boolean | null; message: { status: string; errorCode: string | null } | null };
};

/** Kills the chat process mid-reply: the member must see a failed, refunded reply, never an endless 'Typing...'. */
(distributed ? describe : describe.skip)('chat service crash mid-reply (distributed)', () => {
  let database: { url: string; drop(): Promise<void> };
  let platform: EmbeddedPlatform;
  let child: ChildProcess | null = null;
  let rescuer: { bus: Bus; service: RunningService } | null = null;

  beforeAll(async () => {
    if (!fs.existsSync(CHAT_MAIN)) throw new Error('Build the services first: npx tsc -b services/embedded');
    database = await createTestDatabase();
    const infra = { dataDir: `memory://${randomUUID()}`, databaseUrl: database.url, natsUrl: process.env.NATS_URL! };
    // The gateway, identity and media in this process; chat in a child process of its own.
    platform = await startEmbedded({
      infra,
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
      services: [identityService, mediaService],
    });
    child = spawn(process.execPath, [CHAT_MAIN], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: database.url,
        NATS_URL: process.env.NATS_URL,
        CHAT_DEMO_CHUNK_DELAY_MS: '150',
        CHAT_REPLY_LEASE_MS: '1500',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const probe = new TestClient(platform.url);
    await probe.fetch('/api/auth/register', { method: 'POST', json: registration() });
    await eventually(async () => {
      const info = await probe.graphql<{ chatProvider: { isDemo: boolean } }>('{ chatProvider { isDemo } }');
      expect(info.data?.chatProvider.isDemo).toBe(true);
    }, 30_000);
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await rescuer?.service.stop();
    await rescuer?.bus.close();
    await platform?.stop();
    await database?.drop();
  });

  it('another chat instance fails the orphaned reply, refunds it once, and ends typing', async () => {
    const client = new TestClient(platform.url);
    await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
    const conversation = (await (await client.fetch('/api/conversations', { method: 'POST', json: { title: 'Crash' } })).json()) as {
      id: string;
    };
    const ws = client.subscriptions();
    const stream = collect<Update>(
      ws,
      `subscription { conversationUpdates(conversationId: "${conversation.id}") { type typing message { status errorCode } } }`,
      100_000,
    );
    stream.done.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await client.graphql('mutation($id: ID!) { sendMessage(conversationId: $id, content: "Tell me everything") { userMessage { id } } }', {
      id: conversation.id,
    });
    await eventually(() => expect(stream.values.filter((v) => v.conversationUpdates.type === 'DELTA').length).toBeGreaterThanOrEqual(2));
    const balanceOf = async () => ((await (await client.fetch('/api/user')).json()) as { tokens: number }).tokens;
    expect(await balanceOf()).toBe(14);

    child!.kill('SIGKILL');
    await new Promise((resolve) => child!.once('exit', resolve));
    child = null;

    // A surviving (here: newly started) chat instance sweeps replies whose lease ran out.
    const infra = Infra.from({ dataDir: `memory://${randomUUID()}`, databaseUrl: database.url, natsUrl: process.env.NATS_URL! });
    const bus = await connectBus(infra, 'chat-rescuer');
    rescuer = { bus, service: await startService(createChatService({ sweepIntervalMs: 300 }), bus, infra, {}) };

    await eventually(() => {
      const updates = stream.values.map((v) => v.conversationUpdates);
      expect(updates.find((u) => u.type === 'MESSAGE' && u.message?.status === 'FAILED')?.message).toMatchObject({
        errorCode: 'INTERRUPTED',
      });
      expect(updates.at(-1)).toMatchObject({ type: 'TYPING', typing: false });
    }, 15_000);
    stream.stop();
    await ws.dispose();
    await eventually(async () => expect(await balanceOf()).toBe(15));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await balanceOf()).toBe(15);
  });
});
