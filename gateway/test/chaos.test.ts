import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chatService } from '@app/chat';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { openObjectStorage } from '@app/kit';
import { mediaService } from '@app/media';
import { PrivateNatsServer, natsServerBinary } from '../../services/kit/test/nats-server';
import { createTestDatabase, eventually, hasNats, hasPostgres } from '../../services/kit/test/test-infra';
import { attemptImageId, imageKeys } from '../../services/media/src/images/images.service';
import { TestClient, collect, registration } from './http-client';
import { MEDIA_MAIN, PlatformProbe, identityLosingDebitAnswers, spawnMediaProcess } from './platform-probes';
import { type TcpProxy, startTcpProxy } from './tcp-proxy';

jest.setTimeout(120_000);

const distributed = hasPostgres() && hasNats() && natsServerBinary() !== null;
const STARTING_TOKENS = 15;
const RECOVERY_MS = 30_000;
const PACES = {
  // A demo reply of about 20 words streams for some 4 s, a demo image draws for 5 s: time to break things in the middle.
  CHAT_DEMO_CHUNK_DELAY_MS: '200',
  CHAT_REPLY_LEASE_MS: '3000',
  CHAT_SWEEP_INTERVAL_MS: '500',
  MEDIA_DEMO_STEP_DELAY_MS: '500',
  // Renewed every 1.5 s, so a 2 s outage in the middle of a drawing does not cost the job its lease.
  MEDIA_JOB_LEASE_MS: '4500',
  MEDIA_SWEEP_INTERVAL_MS: '500',
  MEDIA_POLL_INTERVAL_MS: '200',
  MEDIA_RETRY_DELAY_MS: '200',
};

const SEND =
  'mutation($id: ID!, $content: String!) { sendMessage(conversationId: $id, content: $content) { userMessage { id } assistantMessage { id } } }';
const MESSAGES = 'query($id: ID!) { messages(conversationId: $id, last: 30) { nodes { id role status content errorCode } } }';
const GENERATE = 'mutation($prompt: String!) { generateImage(input: { prompt: $prompt }) { id } }';
const GENERATION = 'query($id: ID!) { generation(id: $id) { id status attempts errorCode image { id } } }';
const CONVERSATION_UPDATES = (id: string) => `subscription { conversationUpdates(conversationId: "${id}") { type message { id status } } }`;
const GENERATION_UPDATES = 'subscription { generationUpdates { id status progress } }';
/** A reply under way: streaming, with some text already saved. */
const STREAMING_WITH_TEXT = { status: 'streaming', content: expect.stringMatching(/\S/) };

interface MessageView {
  id: string;
  role: string;
  status: string;
  content: string;
  errorCode: string | null;
}
interface JobView {
  id: string;
  status: string;
  attempts: number;
  errorCode: string | null;
  image: { id: string } | null;
}
interface Member {
  client: TestClient;
  userId: string;
}
/** A charge the member should see: its debit key, and whether its outcome (a failed reply or job) gives it back. */
interface Charge {
  key: string;
  refunded: boolean;
}

/** Waits `ms`, or less when `until` settles first. */
async function pause(ms: number, until?: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race(until ? [elapsed, until] : [elapsed]);
  clearTimeout(timer);
}

/**
 * Chaos under a running platform in the distributed mode: a private nats-server restarted, and PostgreSQL (behind
 * a proxy the test cuts) unreachable, while a reply streams and while an image is drawn. Afterwards the same
 * processes answer again, nothing is left streaming or running, each debit is refunded exactly when its outcome
 * failed, acknowledged writes are kept, and what an outbox held reaches the event stream once.
 */
(distributed ? describe : describe.skip)('chaos under a running platform (distributed: private NATS, PostgreSQL behind a proxy)', () => {
  let nats: PrivateNatsServer;
  let proxy: TcpProxy;
  let databaseUrl: string;
  let dropDatabase: () => Promise<void>;
  let dataDir: string;
  let platform: EmbeddedPlatform;
  let probe: PlatformProbe;
  const loseDebitAnswers = { next: false };

  beforeAll(async () => {
    nats = await PrivateNatsServer.start();
    const database = await createTestDatabase();
    dropDatabase = database.drop;
    const url = new URL(database.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = `127.0.0.1:${proxy.port}`;
    databaseUrl = url.toString();
    // Image files on disk, so a media process of its own writes where the gateway reads.
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chaos-'));
    platform = await startEmbedded({
      infra: { dataDir, databaseUrl, natsUrl: nats.url() },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', ...PACES },
      services: [identityLosingDebitAnswers(loseDebitAnswers), chatService, mediaService],
    });
    probe = new PlatformProbe(platform, nats.url());
  });
  afterAll(async () => {
    await proxy?.restore();
    await platform?.stop();
    await proxy?.close();
    await nats?.stop();
    await dropDatabase?.();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const readiness = async () => (await fetch(`${platform.url}/readyz`)).status;

  async function signUp(): Promise<Member> {
    const client = new TestClient(platform.url);
    const response = await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
    expect(response.status).toBe(201);
    return { client, userId: ((await response.json()) as { id: string }).id };
  }

  async function startConversation(member: Member): Promise<string> {
    const response = await member.client.fetch('/api/conversations', { method: 'POST', json: { title: 'Chaos' } });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  async function send(member: Member, conversationId: string, content: string) {
    type Sent = { sendMessage: { userMessage: { id: string }; assistantMessage: { id: string } } };
    const sent = await member.client.graphql<Sent>(SEND, { id: conversationId, content });
    expect(sent.errors).toBeUndefined();
    return { userMessageId: sent.data!.sendMessage.userMessage.id, replyId: sent.data!.sendMessage.assistantMessage.id };
  }

  async function messages(member: Member, conversationId: string): Promise<MessageView[]> {
    const page = await member.client.graphql<{ messages: { nodes: MessageView[] } }>(MESSAGES, { id: conversationId });
    expect(page.errors).toBeUndefined();
    return page.data!.messages.nodes;
  }

  /** The reply once it has left `streaming`, as the member reads it. */
  async function settledReply(member: Member, conversationId: string, replyId: string): Promise<MessageView> {
    let reply: MessageView | undefined;
    await eventually(async () => {
      reply = (await messages(member, conversationId)).find((message) => message.id === replyId);
      expect(reply?.status).toMatch(/^(COMPLETE|FAILED)$/);
    }, RECOVERY_MS);
    return reply!;
  }

  async function generate(member: Member, prompt: string): Promise<string> {
    const started = await member.client.graphql<{ generateImage: { id: string } }>(GENERATE, { prompt });
    expect(started.errors).toBeUndefined();
    return started.data!.generateImage.id;
  }

  /** The job once it has ended, as the member reads it. */
  async function settledJob(member: Member, jobId: string): Promise<JobView> {
    let job: JobView | undefined;
    await eventually(async () => {
      job = (await member.client.graphql<{ generation: JobView }>(GENERATION, { id: jobId })).data?.generation;
      expect(job?.status).toMatch(/^(DONE|FAILED)$/);
    }, RECOVERY_MS);
    return job!;
  }

  /** A done job has one image row, and files only under the id of the attempt that made it, served to its owner. */
  async function expectStoredOnce(member: Member, job: JobView): Promise<void> {
    expect(await probe.imagesOfJob(job.id)).toEqual([job.image!.id]);
    const storage = openObjectStorage(platform.infra);
    for (let attempt = 1; attempt <= job.attempts; attempt++) {
      const imageId = attemptImageId(job.id, attempt);
      expect({ attempt, stored: await storage.exists(imageKeys.original(imageId)) }).toEqual({
        attempt,
        stored: imageId === job.image!.id,
      });
    }
    expect((await member.client.fetch(`/api/media/images/${job.image!.id}/original.png`)).status).toBe(200);
  }

  /** Each debit once, a refund exactly for the charges whose outcome failed, and the same balance in the ledger and for the member. */
  async function expectCharges(member: Member, charges: Charge[]): Promise<void> {
    const expected = STARTING_TOKENS - charges.filter((charge) => !charge.refunded).length;
    expect(await probe.ledger(member.userId)).toEqual({
      debits: charges.map((charge) => charge.key).sort(),
      refunds: charges
        .filter((charge) => charge.refunded)
        .map((charge) => `refund:${charge.key}`)
        .sort(),
      balance: expected,
    });
    expect(await tokensOf(member)).toBe(expected);
  }

  const tokensOf = async (member: Member) => ((await (await member.client.fetch('/api/user')).json()) as { tokens: number }).tokens;

  /** Identity's projection counted each event once, whenever it arrived. */
  async function expectStats(member: Member, expected: { chatMessages?: number; imagesGenerated?: number }): Promise<void> {
    await eventually(async () => {
      expect(await (await member.client.fetch('/api/dashboard/stats')).json()).toMatchObject(expected);
    }, RECOVERY_MS);
  }

  /** The same processes serve again: ready, and every outbox relayed. */
  async function expectRecovered(): Promise<void> {
    await eventually(async () => expect(await readiness()).toBe(200), RECOVERY_MS);
    await eventually(async () => {
      const unrelayed = {
        identity: await probe.unrelayed('identity'),
        chat: await probe.unrelayed('chat'),
        media: await probe.unrelayed('media'),
      };
      expect(unrelayed).toEqual({ identity: 0, chat: 0, media: 0 });
    }, RECOVERY_MS);
  }

  async function expectUnavailable(pending: Promise<Response>): Promise<void> {
    const response = await pending;
    expect({ status: response.status, retryAfter: response.headers.get('retry-after') }).toEqual({
      status: 503,
      retryAfter: expect.stringMatching(/^\d+$/),
    });
  }

  it('NATS restarted mid-reply: the reply ends, its event waits in the outbox and reaches the stream once, and chat works again', async () => {
    const member = await signUp();
    const conversationId = await startConversation(member);
    const first = await send(member, conversationId, 'Tell me about the sea, the wind and the stars');
    await eventually(async () => expect(await probe.replyStatus(first.replyId)).toMatchObject(STREAMING_WITH_TEXT), RECOVERY_MS);

    await nats.halt();
    // The reply needs no bus to finish: its end is committed, and its event waits in the outbox.
    await eventually(async () => expect((await probe.replyStatus(first.replyId)).status).not.toBe('streaming'), RECOVERY_MS);
    expect(await probe.unrelayed('chat')).toBeGreaterThan(0);
    await nats.resume();

    await expectRecovered();
    const reply = await settledReply(member, conversationId, first.replyId);
    expect(reply.content).not.toBe('');
    expect((await messages(member, conversationId)).find((message) => message.id === first.userMessageId)).toMatchObject({
      role: 'USER',
      status: 'COMPLETE',
    });
    expect(await probe.streamed('evt.chat.message.created', 'messageId', first.userMessageId)).toBe(1);
    const ending = reply.status === 'COMPLETE' ? 'evt.chat.reply.completed' : 'evt.chat.reply.failed';
    expect(await probe.streamed(ending, 'messageId', first.replyId)).toBe(1);

    // Requests, replies and live updates go through the same processes again.
    const ws = member.client.subscriptions();
    type Update = { conversationUpdates: { message: { id: string; status: string } | null } };
    const live = collect<Update>(ws, CONVERSATION_UPDATES(conversationId), 1000);
    live.done.catch(() => undefined);
    await pause(300);
    const second = await send(member, conversationId, 'And after the storm?');
    await eventually(() => {
      const seen = live.values.map((value) => value.conversationUpdates.message).filter((message) => message?.id === second.replyId);
      expect(seen.at(-1)?.status).toBe('COMPLETE');
    }, RECOVERY_MS);
    live.stop();
    await ws.dispose();

    await expectCharges(member, [
      { key: `chat-reply:${first.replyId}`, refunded: reply.status === 'FAILED' },
      { key: `chat-reply:${second.replyId}`, refunded: false },
    ]);
    await expectStats(member, { chatMessages: 2 });
  });

  it('NATS restarted mid-generation: the job ends, its image is stored once, its event reaches the stream once, and media works again', async () => {
    const member = await signUp();
    const jobId = await generate(member, 'A lighthouse in a storm');
    await eventually(async () => expect(await probe.jobStatus(jobId)).toBe('running'), RECOVERY_MS);

    await nats.halt();
    await eventually(async () => expect(await probe.jobStatus(jobId)).toMatch(/^(done|failed)$/), RECOVERY_MS);
    expect(await probe.unrelayed('media')).toBeGreaterThan(0);
    await nats.resume();

    await expectRecovered();
    const job = await settledJob(member, jobId);
    if (job.status === 'DONE') {
      await expectStoredOnce(member, job);
      expect(await probe.streamed('evt.media.image.generated', 'jobId', jobId)).toBe(1);
    } else {
      expect(await probe.streamed('evt.media.generation.failed', 'jobId', jobId)).toBe(1);
    }

    const next = await settledJob(member, await generate(member, 'The same lighthouse at dawn'));
    expect(next.status).toBe('DONE');
    await expectStoredOnce(member, next);
    await expectCharges(member, [
      { key: `image-generation:${jobId}`, refunded: job.status === 'FAILED' },
      { key: `image-generation:${next.id}`, refunded: false },
    ]);
    await expectStats(member, { imagesGenerated: job.status === 'DONE' ? 2 : 1 });
  });

  it('PostgreSQL unreachable across the end of a reply: requests answer 503 with Retry-After, then the reply ends, refunded once if failed, and chat works again', async () => {
    const member = await signUp();
    const conversationId = await startConversation(member);
    // A short message gets a short reply (about 3 s), which ends well inside the outage.
    const first = await send(member, conversationId, 'Hi there');
    await eventually(async () => expect(await probe.replyStatus(first.replyId)).toMatchObject(STREAMING_WITH_TEXT), RECOVERY_MS);

    await proxy.cut();
    // Longer than the rest of the reply: it reaches its end while nothing can be written.
    const restoreAt = Date.now() + 5_000;
    await expectUnavailable(member.client.fetch(`/api/conversations/${conversationId}/messages`));
    await expectUnavailable(
      member.client.fetch('/graphql', { method: 'POST', json: { query: SEND, variables: { id: conversationId, content: 'Hello?' } } }),
    );
    expect(await readiness()).toBe(503);
    await pause(restoreAt - Date.now());
    await proxy.restore();

    await expectRecovered();
    const reply = await settledReply(member, conversationId, first.replyId);
    const kept = await messages(member, conversationId);
    expect(kept.filter((message) => message.role === 'USER').map((message) => message.id)).toEqual([first.userMessageId]);

    const second = await send(member, conversationId, 'And beyond them?');
    expect((await settledReply(member, conversationId, second.replyId)).status).toBe('COMPLETE');
    await expectCharges(member, [
      { key: `chat-reply:${first.replyId}`, refunded: reply.status === 'FAILED' },
      { key: `chat-reply:${second.replyId}`, refunded: false },
    ]);
    await expectStats(member, { chatMessages: 2 });
  });

  it('PostgreSQL unreachable mid-generation: requests answer 503 with Retry-After, then the job is done once and media works again', async () => {
    const member = await signUp();
    const jobId = await generate(member, 'A harbour at night');
    await eventually(async () => expect(await probe.jobStatus(jobId)).toBe('running'), RECOVERY_MS);

    await proxy.cut();
    // Back well before the drawing ends (an outage across its end is the last test).
    const restoreAt = Date.now() + 2_000;
    await expectUnavailable(member.client.fetch('/api/generations', { method: 'POST', json: { prompt: 'Another harbour' } }));
    await expectUnavailable(member.client.fetch('/api/images'));
    await pause(restoreAt - Date.now());
    await proxy.restore();

    await expectRecovered();
    const job = await settledJob(member, jobId);
    expect(job.status).toBe('DONE');
    await expectStoredOnce(member, job);
    const next = await settledJob(member, await generate(member, 'The harbour at dawn'));
    expect(next.status).toBe('DONE');
    await expectCharges(member, [
      { key: `image-generation:${jobId}`, refunded: false },
      { key: `image-generation:${next.id}`, refunded: false },
    ]);
    await expectStats(member, { imagesGenerated: 2 });
  });

  it('identity commits a chat debit but its answer is lost: the send fails and the charge comes back', async () => {
    const member = await signUp();
    const conversationId = await startConversation(member);
    loseDebitAnswers.next = true;
    const lost = await member.client.graphql(SEND, { id: conversationId, content: 'Are you there?' });
    expect(lost.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
    expect(await messages(member, conversationId)).toEqual([]);
    expect((await probe.ledger(member.userId)).debits).toHaveLength(1);
    await eventually(async () => expect((await probe.ledger(member.userId)).balance).toBe(STARTING_TOKENS), 3_000);
  });

  it('identity commits an image debit but its answer is lost: the generation fails and the charge comes back', async () => {
    const member = await signUp();
    loseDebitAnswers.next = true;
    const lost = await member.client.graphql(GENERATE, { prompt: 'A quiet field' });
    expect(lost.errors?.[0]?.extensions?.code).toBe('UNAVAILABLE');
    expect((await probe.ledger(member.userId)).debits).toHaveLength(1);
    await eventually(async () => expect((await probe.ledger(member.userId)).balance).toBe(STARTING_TOKENS), 3_000);
  });

  // Last: it stops the in-process media service and hands generations to a media process of its own.
  describe('a media process of its own', () => {
    let media: ReturnType<typeof spawnMediaProcess> | null = null;

    beforeAll(async () => {
      if (!fs.existsSync(MEDIA_MAIN)) throw new Error('Build the services first: npx tsc -b services/embedded');
      await platform.services.find((service) => service.name === 'media')!.stop();
      media = spawnMediaProcess({
        DATABASE_URL: databaseUrl,
        NATS_URL: nats.url(),
        DATA_DIR: dataDir,
        ...Object.fromEntries(Object.entries(PACES).filter(([name]) => name.startsWith('MEDIA_'))),
        MEDIA_DEMO_STEP_DELAY_MS: '300',
      });
      const client = new TestClient(platform.url);
      await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
      await eventually(async () => expect((await client.graphql('{ imageProvider { isDemo } }')).errors).toBeUndefined(), RECOVERY_MS);
    });
    afterAll(() => {
      media?.child.kill('SIGKILL');
    });

    // A database error while ending a job used to escape GenerationWorker.run as an unhandled rejection and end the
    // process (in embedded mode, the whole platform); the job is now left to the sweeper.
    it('PostgreSQL unreachable as a drawing finishes: the media process lives on and the job ends, charged once', async () => {
      const member = await signUp();
      const ws = member.client.subscriptions();
      const live = collect<{ generationUpdates: { id: string; progress: number | null } }>(ws, GENERATION_UPDATES, 1000);
      live.done.catch(() => undefined);
      let jobId: string;
      try {
        await pause(300);
        jobId = await generate(member, 'A lighthouse keeper asleep');
        await eventually(async () => expect(await probe.jobStatus(jobId)).toBe('running'), RECOVERY_MS);

        await proxy.cut();
        const drawn = () => live.values.some((value) => value.generationUpdates.id === jobId && value.generationUpdates.progress === 1);
        await eventually(() => expect(drawn()).toBe(true), RECOVERY_MS);
        // Storing it now fails: hold the outage a few seconds more (or until the process has gone).
        await pause(3_000, media!.exited);
      } finally {
        await proxy.restore();
        live.stop();
        await ws.dispose();
      }

      await eventually(async () => {
        if (media!.child.exitCode === null) expect(await probe.jobStatus(jobId)).toMatch(/^(done|failed)$/);
      }, RECOVERY_MS);
      expect({ exitCode: media!.child.exitCode, stderr: media!.child.exitCode === null ? '' : media!.stderr() }).toEqual({
        exitCode: null,
        stderr: '',
      });
      const job = await settledJob(member, jobId);
      await expectCharges(member, [{ key: `image-generation:${jobId}`, refunded: job.status === 'FAILED' }]);
    });
  });
});
