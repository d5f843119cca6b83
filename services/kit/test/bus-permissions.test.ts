import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import {
  BUS_PERMISSIONS,
  BUS_PRINCIPALS,
  type BusPrincipal,
  CHAT_STOP_SUBJECT,
  GENERATION_LIVE_SUBJECTS,
  identityEvents,
  identityRpc,
  mediaEvents,
  SESSION_ENDED_SUBJECT,
  tokensLiveSubject,
} from '@app/schema';
import { connect } from '@nats-io/transport-node';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { type Bus, BusPermissionError, InProcessBus, NatsBus, type NatsServerTls, inboxPrefixOf, renderNatsServerConfig } from '../src/bus';
import { Infra, type NatsSecurity } from '../src/config';
import { natsPasswordVariable } from '../src/env';
import { PrivateNatsServer, natsServerBinary } from './nats-server';
import { eventually } from './test-infra';
import { type TestCertificates, createTestCertificates } from './tls-certificates';

jest.setTimeout(120_000);

const PASSWORDS: Record<BusPrincipal, string> = {
  gateway: 'gateway-test-secret',
  identity: 'identity-test-secret',
  chat: 'chat-test-secret',
  media: 'media-test-secret',
};
const PASSWORD_ENV = Object.fromEntries(BUS_PRINCIPALS.map((principal) => [natsPasswordVariable(principal), PASSWORDS[principal]]));
const security = (overrides: Partial<NatsSecurity> = {}): NatsSecurity => ({
  passwords: PASSWORDS,
  tls: null,
  requireAuthentication: true,
  ...overrides,
});
const hasNatsServer = Boolean(natsServerBinary());
const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789';
const IDENTITY_MAIN = path.join(__dirname, '..', '..', 'identity', 'dist', 'main.js');

/** Writes the generated nats-server configuration (plus TLS, when given) where a private server can read it. */
function writeServerConfig(tls?: NatsServerTls): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nats-conf-')), 'nats.conf');
  fs.writeFileSync(file, renderNatsServerConfig({ tls }));
  return file;
}

const startSecuredServer = (tls?: NatsServerTls) => PrivateNatsServer.start({ configFile: writeServerConfig(tls), env: PASSWORD_ENV });

const signedIn = {
  user: {
    id: randomUUID(),
    email: 'ada@example.com',
    firstName: 'Ada',
    lastName: null,
    profileImageUrl: null,
    createdAt: new Date().toISOString(),
    tokens: 10,
    role: 'member' as const,
    ratingPreferences: { suggestive: 'blur' as const, explicit: 'blur' as const },
    ageAssurance: { level: 'declared' as const, method: 'self_declaration', checkedAt: new Date().toISOString() },
  },
  session: { token: 'a-session-token', expiresAt: new Date().toISOString() },
};
const loginRequest = { input: { email: 'ada@example.com', password: 'a long enough password' }, clientIp: '203.0.113.7' };
const tokenChange = { userId: signedIn.user.id, balance: 15, delta: 5, reason: 'Welcome bonus', occurredAt: new Date().toISOString() };

describe('BUS_PERMISSIONS', () => {
  const callers = (subject: string) => BUS_PRINCIPALS.filter((p) => BUS_PERMISSIONS[p].requests.some((rpc) => rpc.subject === subject));
  const servers = (subject: string) => BUS_PRINCIPALS.filter((p) => BUS_PERMISSIONS[p].serves.some((rpc) => rpc.subject === subject));

  it('lets only the gateway send passwords and session tokens, and only identity receive them', () => {
    for (const rpc of [identityRpc.login, identityRpc.register, identityRpc.resolveSession, identityRpc.logout]) {
      expect({ subject: rpc.subject, callers: callers(rpc.subject), servers: servers(rpc.subject) }).toEqual({
        subject: rpc.subject,
        callers: ['gateway'],
        servers: ['identity'],
      });
    }
    expect(callers(identityRpc.grantTokens.subject)).toEqual(['gateway']);
  });
});

interface Principals {
  as(principal: BusPrincipal): Promise<Bus>;
  close(): Promise<void>;
}

/** The in-process bus checks the table itself; on NATS the buses are not scoped, so what is refused is refused by the server. */
const transports: [string, () => Promise<Principals>][] = [
  [
    'the in-process bus',
    async () => {
      const root = InProcessBus.open();
      return { as: async (principal) => root.as(principal), close: () => root.close() };
    },
  ],
];
if (hasNatsServer) {
  transports.push([
    'NATS with a user per principal',
    async () => {
      const server = await startSecuredServer();
      const opened: Bus[] = [];
      return {
        as: async (principal) => {
          const bus = await NatsBus.connect(server.url(), `test-${principal}`, { principal, security: security() });
          opened.push(bus);
          return bus;
        },
        close: async () => {
          for (const bus of opened) await bus.close();
          await server.stop();
        },
      };
    },
  ]);
} else {
  console.warn('Skipping the NATS permission tests: no nats-server binary (set NATS_SERVER_BIN).');
}

describe.each(transports)('bus permissions on %s', (_name, open) => {
  let principals: Principals;
  let gateway: Bus;
  let identity: Bus;
  let chat: Bus;
  let media: Bus;

  beforeAll(async () => {
    principals = await open();
    [gateway, identity, chat, media] = await Promise.all(BUS_PRINCIPALS.map((principal) => principals.as(principal)));
  });
  afterAll(() => principals.close());

  it('the gateway signs a member in through identity, which answers login', async () => {
    const served = await identity.serve(identityRpc.login, async () => signedIn);
    await expect(gateway.request(identityRpc.login, loginRequest)).resolves.toEqual(signedIn);
    await served.unsubscribe();
  });

  it('chat can neither call login nor answer it, nor resolve sessions: it never sees a password or a session token', async () => {
    await expect(chat.request(identityRpc.login, loginRequest)).rejects.toThrow(BusPermissionError);
    await expect(chat.serve(identityRpc.login, async () => signedIn)).rejects.toThrow(BusPermissionError);
    await expect(chat.request(identityRpc.resolveSession, { sessionToken: 'a-session-token' })).rejects.toThrow(BusPermissionError);
  });

  it("chat cannot listen to identity's requests, the gateway's replies, or live subjects it has no part in", async () => {
    for (const subject of ['svc.identity.>', `${inboxPrefixOf('gateway')}.>`, '_INBOX.>', 'live.>', GENERATION_LIVE_SUBJECTS]) {
      await expect(chat.subscribeLive(subject, () => undefined)).rejects.toThrow(BusPermissionError);
    }
    const stops = await chat.subscribeLive(CHAT_STOP_SUBJECT, () => undefined);
    await stops.unsubscribe();
  });

  it('only the gateway may grant tokens', async () => {
    const grant = { email: 'ada@example.com', amount: 5, reason: 'Bonus', idempotencyKey: randomUUID() };
    for (const bus of [identity, chat, media])
      await expect(bus.request(identityRpc.grantTokens, grant)).rejects.toThrow(BusPermissionError);
  });

  it("a service appends only its own events and cannot read another service's durable consumer", async () => {
    await expect(chat.publishEvent(identityEvents.tokensChanged, tokenChange, null)).rejects.toThrow(BusPermissionError);
    const options = { subjects: [mediaEvents.imageDeleted.type], durableName: 'identity-stats', deliver: 'all' as const };
    await expect(media.consumeEvents(options, async () => undefined)).rejects.toThrow(BusPermissionError);
  });

  it("the gateway hears a member's balance changes and sign-outs live from identity, and appends no event", async () => {
    const seen: unknown[] = [];
    const live = await gateway.subscribeLive(tokensLiveSubject(tokenChange.userId), (data) => void seen.push(data));
    const ended = await gateway.subscribeLive(SESSION_ENDED_SUBJECT, (data) => void seen.push(data));
    await identity.publishLive(tokensLiveSubject(tokenChange.userId), tokenChange);
    await identity.publishLive(SESSION_ENDED_SUBJECT, { tokenHash: 'a'.repeat(64) });
    await eventually(() => expect(seen).toEqual([tokenChange, { tokenHash: 'a'.repeat(64) }]));
    await live.unsubscribe();
    await ended.unsubscribe();
    // Only gateways hear of sessions and balances.
    await expect(chat.subscribeLive(SESSION_ENDED_SUBJECT, () => undefined)).rejects.toThrow(BusPermissionError);
    await expect(media.subscribeLive(tokensLiveSubject(tokenChange.userId), () => undefined)).rejects.toThrow(BusPermissionError);
    // It follows the whole stream live for operators (test/service-discovery.test.ts), but writes none of it.
    await expect(gateway.publishEvent(identityEvents.tokensChanged, tokenChange, null)).rejects.toThrow(BusPermissionError);
  });
});

(hasNatsServer ? describe : describe.skip)('signing in to NATS', () => {
  let server: PrivateNatsServer;

  beforeAll(async () => {
    server = await startSecuredServer();
  });
  afterAll(() => server.stop());

  it("refuses a wrong password, a missing one and another principal's, naming the variable to check", async () => {
    const refusal = /^NATS refused the credentials of chat \(authorization violation\): check NATS_CHAT_PASSWORD$/;
    for (const passwords of [{ chat: 'not-the-password' }, {}, { chat: PASSWORDS.identity }]) {
      await expect(NatsBus.connect(server.url(), 'intruder', { principal: 'chat', security: security({ passwords }) })).rejects.toThrow(
        refusal,
      );
    }
  });

  it('stops a service process whose credentials are refused, saying why', async () => {
    if (!fs.existsSync(IDENTITY_MAIN)) throw new Error('Build the services first: npx tsc -b services/embedded');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'identity-refused-'));
    const child = spawn(process.execPath, [IDENTITY_MAIN], {
      env: {
        PATH: process.env.PATH,
        NATS_URL: server.url(),
        NATS_IDENTITY_PASSWORD: 'not-the-password',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(1);
    expect(output).toContain(
      'identity could not start: NATS refused the credentials of identity (authorization violation): check NATS_IDENTITY_PASSWORD',
    );
  });

  it('lets the optional operator user (`npm run nats:config -- --operator`) watch everything, for the nats CLI', async () => {
    const configFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nats-conf-')), 'nats.conf');
    fs.writeFileSync(configFile, renderNatsServerConfig({ operator: true }));
    const withOperator = await PrivateNatsServer.start({
      configFile,
      env: { ...PASSWORD_ENV, NATS_OPERATOR_PASSWORD: 'operator-test-secret' },
    });
    const nc = await connect({ servers: withOperator.url(), user: 'operator', pass: 'operator-test-secret' });
    const everything = nc.subscribe('>', { max: 1 });
    nc.publish('evt.identity.user.registered', '{}');
    for await (const msg of everything) expect(msg.subject).toBe('evt.identity.user.registered');
    await nc.close();
    await withOperator.stop();
  });

  it('refuses, in production, a NATS server that lets anyone in', async () => {
    const open = await PrivateNatsServer.start();
    const connecting = NatsBus.connect(open.url(), 'gateway', { principal: 'gateway', security: security() });
    await expect(connecting).rejects.toThrow(/^NATS lets clients in without credentials/);
    await open.stop();
  });

  describe('the whole platform, each process signed in as its own principal', () => {
    let platform: EmbeddedPlatform;

    beforeAll(async () => {
      platform = await startEmbedded({
        infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: server.url(), nats: security() },
        gateway: { port: 0, operatorToken: OPERATOR_TOKEN },
        env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_DEMO_STEP_DELAY_MS: '20' },
      });
    });
    afterAll(() => platform?.stop());

    it('signs up, chats, draws an image, follows it all live and counts it on the dashboard', async () => {
      const client = new TestClient(platform.url);
      const input = registration();
      expect((await client.fetch('/api/auth/register', { method: 'POST', json: input })).status).toBe(201);
      const ws = client.subscriptions();
      const tokens = collect<{ tokenBalanceChanged: { balance: number } }>(ws, 'subscription { tokenBalanceChanged { balance } }', 1000);
      const jobs = collect<{ generationUpdates: { status: string } }>(ws, 'subscription { generationUpdates { status } }', 1000);
      const created = await client.graphql<{ createConversation: { id: string } }>('mutation { createConversation { id } }');
      const conversationId = created.data!.createConversation.id;
      const replies = collect<{ conversationUpdates: { type: string; message: { role: string; status: string } | null } }>(
        ws,
        `subscription { conversationUpdates(conversationId: "${conversationId}") { type message { role status } } }`,
        1000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));

      const sent = await client.graphql(
        'mutation($id: ID!) { sendMessage(conversationId: $id, content: "Hello") { userMessage { id } } }',
        {
          id: conversationId,
        },
      );
      expect(sent.errors).toBeUndefined();
      const drawn = await client.graphql('mutation { generateImage(input: { prompt: "A lighthouse at dusk" }) { id } }');
      expect(drawn.errors).toBeUndefined();
      const operator = new TestClient(platform.url);
      const granted = await operator.graphql(
        'mutation($email: String!) { grantTokens(email: $email, amount: 5, reason: "Bonus") { balance } }',
        { email: input.email },
        { authorization: `Bearer ${OPERATOR_TOKEN}` },
      );
      expect(granted.errors).toBeUndefined();

      await eventually(() => {
        const updates = replies.values.map((value) => value.conversationUpdates);
        expect(updates).toContainEqual({ type: 'MESSAGE', message: { role: 'ASSISTANT', status: 'COMPLETE' } });
        expect(jobs.values.map((value) => value.generationUpdates.status)).toContain('DONE');
        expect(tokens.values.map((value) => value.tokenBalanceChanged.balance)).toContain(13);
      }, 30_000);
      await eventually(async () => {
        const stats = await client.graphql<{ dashboardStats: { chatMessages: number; imagesGenerated: number } }>(
          '{ dashboardStats { chatMessages imagesGenerated } }',
        );
        expect(stats.data?.dashboardStats).toEqual({ chatMessages: 1, imagesGenerated: 1 });
      }, 15_000);
      for (const feed of [tokens, jobs, replies]) feed.stop();
      await ws.dispose();
      expect((await client.fetch('/readyz')).status).toBe(200);
    });
  });
});

(hasNatsServer ? describe : describe.skip)('NATS over TLS', () => {
  let certificates: TestCertificates;
  beforeAll(() => {
    certificates = createTestCertificates();
  });
  afterAll(() => fs.rmSync(certificates.dir, { recursive: true, force: true }));

  const connectAs = (url: string, env: NodeJS.ProcessEnv) => {
    const infra = Infra.fromEnvironment({ NATS_URL: url, ...PASSWORD_ENV, ...env });
    return NatsBus.connect(infra.natsUrl!, 'identity', { principal: 'identity', security: infra.nats });
  };

  it("connects to a server with a certificate from NATS_TLS_CA_FILE's CA, and refuses one it cannot verify", async () => {
    const server = await startSecuredServer({ certFile: certificates.serverCertFile, keyFile: certificates.serverKeyFile });
    const bus = await connectAs(server.url('tls'), { NATS_TLS_CA_FILE: certificates.caFile });
    await expect(bus.publishEvent(identityEvents.userRegistered, { userId: randomUUID() }, null)).resolves.toBeDefined();
    await bus.close();
    // Without the CA the certificate cannot be trusted; a plain nats:// URL is upgraded to TLS, never sent in the clear.
    await expect(connectAs(server.url('tls'), {})).rejects.toThrow();
    await expect(connectAs(server.url(), {})).rejects.toThrow();
    await server.stop();
  });

  it('presents the client certificate from NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE to a server that verifies clients', async () => {
    const server = await startSecuredServer({
      certFile: certificates.serverCertFile,
      keyFile: certificates.serverKeyFile,
      caFile: certificates.caFile,
    });
    // Without a client certificate the handshake fails; the client only notices at its connect timeout, shortened here.
    const withoutCertificate = connect({
      servers: server.url('tls'),
      tls: { caFile: certificates.caFile },
      user: 'identity',
      pass: PASSWORDS.identity,
      timeout: 2_000,
    });
    await expect(withoutCertificate).rejects.toThrow();
    const bus = await connectAs(server.url('tls'), {
      NATS_TLS_CA_FILE: certificates.caFile,
      NATS_TLS_CERT_FILE: certificates.clientCertFile,
      NATS_TLS_KEY_FILE: certificates.clientKeyFile,
    });
    expect(await bus.isReady()).toBe(true);
    await bus.close();
    await server.stop();
  });
});
