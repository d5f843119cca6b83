import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { TestClient, collect, registration } from '../../../gateway/test/http-client';
import { PrivateNatsServer, natsServerBinary } from './nats-server';
import { eventually } from './test-infra';

jest.setTimeout(120_000);

const OPERATOR_TOKEN = 'operator-token-for-tests-0123456789';
const BALANCES = 'subscription { tokenBalanceChanged { balance reason } }';

interface BalanceChange {
  tokenBalanceChanged: { balance: number; reason: string };
}

/**
 * NATS restarts, with the platform running against it: event consumers must come back by themselves
 * (live feeds included), and `/readyz` must say so while they cannot.
 */
(natsServerBinary() ? describe : describe.skip)('the platform across NATS restarts (private nats-server)', () => {
  let nats: PrivateNatsServer;
  let platform: EmbeddedPlatform;
  let member: TestClient;
  let email: string;

  const grant = (reason: string) =>
    new TestClient(platform.url).graphql(
      'mutation($email: String!, $reason: String!) { grantTokens(email: $email, amount: 1, reason: $reason) { balance } }',
      { email, reason },
      { authorization: `Bearer ${OPERATOR_TOKEN}` },
    );
  const readiness = async () => (await fetch(`${platform.url}/readyz`)).status;

  beforeAll(async () => {
    nats = await PrivateNatsServer.start();
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: nats.url() },
      gateway: { port: 0, operatorToken: OPERATOR_TOKEN },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
    member = new TestClient(platform.url);
    const input = registration();
    email = input.email;
    expect((await member.fetch('/api/auth/register', { method: 'POST', json: input })).status).toBe(201);
  });
  afterAll(async () => {
    await platform?.stop();
    await nats?.stop();
  });

  it('a token-balance subscription keeps receiving grants after NATS restarts under traffic', async () => {
    const ws = member.subscriptions();
    const feed = collect<BalanceChange>(ws, BALANCES, 1000);
    const reasons = () => feed.values.map((value) => value.tokenBalanceChanged.reason);
    await eventually(async () => {
      await grant('before');
      expect(reasons()).toContain('before');
    });

    let busy = true;
    const traffic = (async () => {
      while (busy) {
        await grant('during').catch(() => undefined);
        await member.graphql('{ me { tokens } }').catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    await nats.halt();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await nats.resume();
    await eventually(async () => expect(await readiness()).toBe(200), 30_000);
    busy = false;
    await traffic;

    expect((await grant('after-1')).errors).toBeUndefined();
    expect((await grant('after-2')).errors).toBeUndefined();
    await eventually(() => expect(reasons()).toEqual(expect.arrayContaining(['after-1', 'after-2'])), 20_000);
    feed.stop();
    await ws.dispose();
  });

  it('/readyz answers 503 while NATS is back without its streams, and 200 once the event consumers run again', async () => {
    expect(await readiness()).toBe(200);
    await nats.halt();
    await nats.resume({ jetstream: false });
    // Requests and replies work again (core NATS), but no event consumer can run without JetStream.
    await eventually(
      async () => expect((await member.graphql<{ me: { tokens: number } }>('{ me { tokens } }')).data?.me).toBeDefined(),
      30_000,
    );
    expect(await readiness()).toBe(503);

    await nats.halt();
    await nats.resume();
    await eventually(async () => expect(await readiness()).toBe(200), 30_000);
    const ws = member.subscriptions();
    const feed = collect<BalanceChange>(ws, BALANCES, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await grant('back');
    const [change] = await feed.done;
    expect(change!.tokenBalanceChanged.reason).toBe('back');
    await ws.dispose();
  });
});
