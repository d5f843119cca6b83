import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type InfraConfig, NATS_OPERATOR_PASSWORD_VARIABLE, natsPasswordVariable, renderNatsServerConfig } from '@app/kit';
import { BUS_PRINCIPALS, type EventEnvelope } from '@app/schema';
import { type EmbeddedPlatform, startEmbedded } from '../src/index';
import { createTestDatabase, eventually, hasNats, hasPostgres } from '../../kit/test/test-infra';
import { PrivateNatsServer, natsServerBinary } from '../../kit/test/nats-server';
import { TestClient, registration } from '../../../gateway/test/http-client';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..', '..', '..');
const EVENTS = path.join(ROOT, 'services', 'embedded', 'dist', 'events.js');
const USAGE_LINE = /^Usage: npm run events -- tail \[--subject 'evt\.chat\.>'\]/m;
const PLATFORM_ENV = { PORT: '0', HOST: '127.0.0.1', SIGNUPS_PER_IP_PER_HOUR: '1000' };

type Env = Record<string, string>;

/** `npm run events -- tail …` as an operator runs it: a process of its own, on the platform's settings. */
function events(env: Env, ...args: string[]) {
  const result = spawnSync(process.execPath, [EVENTS, ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const printed = result.stdout.split('\n').filter(Boolean);
  return { code: result.status, printed: printed.map((line) => JSON.parse(line) as EventEnvelope), err: result.stderr.trim() };
}

/** `tail --follow` in the background: what it has printed so far, and Ctrl-C. */
function follow(env: Env, ...args: string[]) {
  const child = spawn(process.execPath, [EVENTS, 'tail', '--follow', ...args], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed: EventEnvelope[] = [];
  let partial = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop()!;
    printed.push(...lines.filter(Boolean).map((line) => JSON.parse(line) as EventEnvelope));
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    printed,
    stderr: () => err,
    /** Ctrl-C; the exit code. */
    interrupt: async () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

interface Chat {
  client: TestClient;
  userId: string;
  conversationId: string;
}

/** A member registers, opens a conversation and sends a message, as the web app does through /api. */
async function chat(platform: EmbeddedPlatform): Promise<Chat> {
  const client = new TestClient(platform.url);
  const registered = await client.fetch('/api/auth/register', { method: 'POST', json: registration() });
  expect(registered.status).toBe(201);
  const { id: userId } = (await registered.json()) as { id: string };
  const created = await client.fetch('/api/conversations', { method: 'POST', json: { title: 'Event tail' } });
  expect(created.status).toBe(201);
  const { id: conversationId } = (await created.json()) as { id: string };
  await send({ client, userId, conversationId });
  return { client, userId, conversationId };
}

async function send({ client, conversationId }: Chat, content = 'Hello there'): Promise<void> {
  const sent = await client.fetch(`/api/chat/${conversationId}`, { method: 'POST', json: { content } });
  expect({ status: sent.status, body: sent.status === 200 ? null : await sent.text() }).toEqual({ status: 200, body: null });
}

const messageCreated = ({ userId, conversationId }: Chat) =>
  expect.objectContaining({
    type: 'evt.chat.message.created',
    version: 1,
    actorId: userId,
    data: expect.objectContaining({ conversationId, role: 'user' }),
  });

/** What an operator looking for one member's chat events sees: their message, and nothing of anyone else or of other services. */
async function expectMemberChatEvents(env: Env, member: Chat, other: Chat): Promise<void> {
  // The outbox relays an event just after its transaction commits, so it may trail the answer a little.
  await eventually(() => {
    const tailed = events(env, 'tail', '--subject', 'evt.chat.>', '--member', member.userId, '--since', '5m');
    expect(tailed).toMatchObject({ code: 0, err: '' });
    expect(tailed.printed).toContainEqual(messageCreated(member));
    for (const event of tailed.printed) {
      expect(event.type).toMatch(/^evt\.chat\./);
      expect(event.actorId).not.toBe(other.userId);
    }
  }, 20_000);

  const identityOnly = events(env, 'tail', '--subject', 'evt.identity.>', '--member', member.userId, '--since', '5m');
  expect(identityOnly.code).toBe(0);
  expect(identityOnly.printed.map((event) => event.type)).toContain('evt.identity.user.registered');
  expect(identityOnly.printed.filter((event) => !event.type.startsWith('evt.identity.'))).toEqual([]);

  const messagesOnly = events(env, 'tail', '--subject', 'evt.*.message.created', '--since', '5m');
  expect(messagesOnly.printed).toEqual(expect.arrayContaining([messageCreated(member), messageCreated(other)]));
  expect(messagesOnly.printed.filter((event) => event.type !== 'evt.chat.message.created')).toEqual([]);

  // Replies were written too: they are only left out by the filter.
  const everything = events(env, 'tail', '--member', member.userId, '--since', '5m');
  expect(everything.printed.map((event) => event.type)).toEqual(
    expect.arrayContaining(['evt.chat.reply.started', 'evt.chat.message.created']),
  );
  // A time before the message leaves nothing out; one after it leaves the message out.
  const fromTheFuture = new Date(Date.now() + 60_000).toISOString();
  expect(events(env, 'tail', '--member', member.userId, '--since', fromTheFuture)).toMatchObject({ code: 0, printed: [] });
}

/** `tail --follow` prints a message sent after it started, then stops at Ctrl-C with exit code 0. */
async function expectFollowing(env: Env, member: Chat): Promise<void> {
  const tail = follow(env, '--subject', 'evt.chat.message.created', '--member', member.userId, '--since', '5m');
  try {
    await eventually(() => expect(tail.printed).toContainEqual(messageCreated(member)), 20_000);
    const before = tail.printed.length;
    await send(member, 'And another thing');
    await eventually(() => expect(tail.printed.length).toBe(before + 1), 20_000);
    expect(tail.printed.at(-1)).toEqual(messageCreated(member));
    expect(new Set(tail.printed.map((event) => event.id)).size).toBe(tail.printed.length);
  } finally {
    const code = await tail.interrupt();
    expect(tail.stderr()).toBe('');
    expect(code).toBe(0);
  }
}

describe('events command line', () => {
  beforeAll(() => {
    if (!fs.existsSync(EVENTS)) throw new Error(`${EVENTS} is missing: build with npm run build:server first`);
  });

  it('explains itself when called wrongly', () => {
    const wrongly = [
      [],
      ['show'],
      ['tail', 'extra'],
      ['tail', '--colour'],
      ['tail', '--since', 'yesterday'],
      ['tail', '--since', '10'],
      ['tail', '--subject', 'evt..chat'],
      ['tail', '--subject', 'evt.>.created'],
      ['tail', '--member', 'not-an-id'],
    ];
    for (const args of wrongly) {
      const result = events({ DATA_DIR: 'memory://unused' }, ...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.err).toMatch(USAGE_LINE);
      expect(result.printed).toEqual([]);
    }
    expect(events({}, 'tail', '--since', 'yesterday').err).toMatch(/^Not a duration or a time: yesterday/);
    expect(events({}, 'tail', '--subject', 'evt..chat').err).toMatch(/^Not a subject: evt\.\.chat/);
  });

  it('says why when there is no event log to read', () => {
    const missing = path.join(os.tmpdir(), `no-such-data-${randomUUID()}`);
    expect(events({ DATA_DIR: missing }, 'tail')).toMatchObject({
      code: 1,
      err: `No event log in ${missing}/events: has the product run with DATA_DIR=${missing}?`,
    });
    expect(events({ DATA_DIR: 'memory://running' }, 'tail').err).toMatch(/in the product's memory/);
  });

  it("embedded: prints a member's chat events from the log under DATA_DIR, while the product runs and once it has stopped", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-cli-'));
    const env = { DATA_DIR: dataDir };
    const platform = await startEmbedded({ env: { ...env, ...PLATFORM_ENV } });
    let isRunning = true;
    try {
      const member = await chat(platform);
      const other = await chat(platform);
      await expectMemberChatEvents(env, member, other);
      await expectFollowing(env, member);
      await platform.stop();
      isRunning = false;

      const afterStop = events(env, 'tail', '--subject', 'evt.chat.message.created', '--member', member.userId, '--since', '5m');
      expect(afterStop).toMatchObject({ code: 0, err: '' });
      expect(afterStop.printed).toEqual([messageCreated(member), messageCreated(member)]);
    } finally {
      if (isRunning) await platform.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const distributed = hasPostgres() && hasNats() ? it : it.skip;
  distributed('distributed: reads the JetStream stream EVENTS from the --since time', async () => {
    const database = await createTestDatabase();
    const infra: InfraConfig = { dataDir: `memory://${randomUUID()}`, databaseUrl: database.url, natsUrl: process.env.NATS_URL! };
    const platform = await startEmbedded({ infra, env: PLATFORM_ENV });
    try {
      const env = { NATS_URL: process.env.NATS_URL! };
      const member = await chat(platform);
      const other = await chat(platform);
      await expectMemberChatEvents(env, member, other);
      await expectFollowing(env, member);
    } finally {
      await platform.stop();
      await database.drop();
    }
  });

  const securedNats = natsServerBinary() ? it : it.skip;
  securedNats('distributed, on a NATS server with users: signs in as operator with NATS_OPERATOR_PASSWORD', async () => {
    const passwords = Object.fromEntries(BUS_PRINCIPALS.map((principal) => [principal, `${principal}-test-secret`]));
    const operatorPassword = 'operator-test-secret';
    const configFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nats-conf-')), 'nats.conf');
    fs.writeFileSync(configFile, renderNatsServerConfig({ operator: true }));
    const server = await PrivateNatsServer.start({
      configFile,
      env: {
        ...Object.fromEntries(BUS_PRINCIPALS.map((principal) => [natsPasswordVariable(principal), passwords[principal]!])),
        [NATS_OPERATOR_PASSWORD_VARIABLE]: operatorPassword,
      },
    });
    const platform = await startEmbedded({
      infra: {
        dataDir: `memory://${randomUUID()}`,
        databaseUrl: null,
        natsUrl: server.url(),
        nats: { passwords, tls: null, requireAuthentication: true },
      },
      env: PLATFORM_ENV,
    });
    try {
      const member = await chat(platform);
      const env = { NATS_URL: server.url(), [NATS_OPERATOR_PASSWORD_VARIABLE]: operatorPassword };
      await eventually(() => {
        const tailed = events(env, 'tail', '--subject', 'evt.chat.>', '--member', member.userId, '--since', '5m');
        expect(tailed.printed).toContainEqual(messageCreated(member));
      }, 20_000);

      expect(events({ NATS_URL: server.url() }, 'tail')).toMatchObject({
        code: 1,
        err: expect.stringMatching(/^NATS asks for credentials: set NATS_OPERATOR_PASSWORD to the password of the user operator/),
      });
      expect(events({ NATS_URL: server.url(), [NATS_OPERATOR_PASSWORD_VARIABLE]: 'wrong' }, 'tail')).toMatchObject({
        code: 1,
        err: 'NATS refused the credentials of operator (authorization violation): check NATS_OPERATOR_PASSWORD',
      });
    } finally {
      await platform.stop();
      await server.stop();
      fs.rmSync(path.dirname(configFile), { recursive: true, force: true });
    }
  });
});
