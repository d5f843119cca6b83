import { randomUUID } from 'node:crypto';
import { chatService } from '@app/chat';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { type PasswordHasher, createIdentityService, createPasswordHasher, scryptKdf } from '@app/identity';
import { type Bus, DEFAULT_RPC_TIMEOUT_MS, InProcessBus, NatsBus, type RunningService, startService } from '@app/kit';
import { mediaService } from '@app/media';
import { AppError, type RegisterInput, identityRpc } from '@app/schema';
import { IdentityClient } from '../../../gateway/src/identity-client';
import { TestClient, registration } from '../../../gateway/test/http-client';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { HeldKdf } from './held-kdf';

jest.setTimeout(120_000);

const BUSY = 'The server is busy checking passwords. Please try again in a few seconds.';

interface Answer {
  code: string;
  message: string;
  retryAfterSeconds?: number;
}

interface Credentials {
  email: string;
  password: string;
}

const unknownEmail = () => `nobody-${randomUUID().slice(0, 8)}@example.com`;
const wrongPassword = () => `wrong password ${randomUUID()}`;

/** Starts every call at once, each with its own password, and records each answer as it arrives. */
function flood<T>(count: number, send: (index: number, password: string) => Promise<T>) {
  const answers: T[] = [];
  const passwords = Array.from({ length: count }, wrongPassword);
  const all = Promise.all(passwords.map((password, index) => send(index, password).then((answer) => void answers.push(answer))));
  return { answers, all, passwords };
}

const targets = testTargets().map((target) => [target.name, target] as [string, TestTarget]);

describe.each(targets)('a sign-in flood through the gateway on %s', (_name, target) => {
  let platform: EmbeddedPlatform;
  let cleanup: () => Promise<void>;
  const kdf = new HeldKdf(scryptKdf);
  // One hash at a time and two waiting (one of them kept for members): a flood of 12 leaves 9 to refuse.
  const hasher: PasswordHasher = createPasswordHasher(
    { passwordHashConcurrency: 1, passwordHashQueue: 2, signinUnknownEmailPerMinute: 1000 },
    kdf,
  );

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    platform = await startEmbedded({
      infra: created.infra,
      gateway: { port: 0 },
      env: { TRUST_PROXY_HOPS: '1', SIGNUPS_PER_IP_PER_HOUR: '1000' },
      services: [createIdentityService({}, { passwordHasher: hasher }), chatService, mediaService],
    });
  });
  afterAll(async () => {
    kdf.release();
    await platform.stop();
    await cleanup();
  });

  /** Each call from its own address, as a spread-out flood would come. */
  const from = (index: number) => ({ 'x-forwarded-for': `10.44.${Math.floor(index / 250)}.${index % 250}` });

  const registerMembers = async (count: number): Promise<Credentials[]> =>
    Promise.all(
      Array.from({ length: count }, async (_, index) => {
        const member = registration();
        const response = await new TestClient(platform.url).fetch('/api/auth/register', {
          method: 'POST',
          json: member,
          headers: from(800 + index),
        });
        expect(response.status).toBe(201);
        return { email: member.email, password: member.password };
      }),
    );

  const restSignIn = async (credentials: Credentials, index: number): Promise<Answer> => {
    const response = await new TestClient(platform.url).fetch('/api/auth/login', {
      method: 'POST',
      json: credentials,
      headers: from(index),
    });
    const answer = (await response.json()) as Answer;
    const retryAfter = response.headers.get('retry-after');
    expect(response.status).toBe(answer.code === 'UNAVAILABLE' ? 503 : 401);
    return { ...answer, ...(retryAfter ? { retryAfterSeconds: Number(retryAfter) } : {}) };
  };
  const graphqlSignIn = async (credentials: Credentials, index: number): Promise<Answer> => {
    const mutation = 'mutation($input: LoginInput!) { login(input: $input) { id } }';
    const result = await new TestClient(platform.url).graphql(mutation, { input: credentials }, from(index));
    const error = result.errors![0]!;
    return {
      code: String(error.extensions?.code),
      message: error.message,
      retryAfterSeconds: error.extensions?.retryAfterSeconds as number,
    };
  };

  it.each([
    ['REST POST /api/auth/login', restSignIn],
    ['GraphQL login', graphqlSignIn],
  ])(
    'over %s, wrong passwords beyond the queue are refused at once with UNAVAILABLE and Retry-After, never TIMEOUT',
    async (_via, send) => {
      const members = await registerMembers(3);
      kdf.hold();
      const { answers, all, passwords } = flood(12, (index, password) => send({ email: members[index % 3]!.email, password }, index));
      // The 9 that do not fit are answered while the first hash is still held: nobody waits for a timeout.
      await eventually(() => expect(answers.length).toBeGreaterThanOrEqual(9), 30_000);
      const refused = answers.slice();
      expect(refused.every((answer) => answer.code === 'UNAVAILABLE' && answer.message === BUSY)).toBe(true);
      expect(refused.every((answer) => answer.retryAfterSeconds! >= 1)).toBe(true);
      expect(kdf.countFor(passwords)).toBe(1);
      kdf.release();
      await all;
      expect(answers.slice(refused.length).every((answer) => answer.code === 'INVALID_CREDENTIALS')).toBe(true);
      expect(kdf.countFor(passwords)).toBe(12 - refused.length);
      expect(hasher.queue.stats.maxRunning).toBe(1);
    },
  );

  it('registration waits in the same queue: refused with 503 while it is full, accepted once it drains', async () => {
    const [member] = await registerMembers(1);
    kdf.hold();
    const { answers, all } = flood(3, (index, password) => restSignIn({ email: member!.email, password }, index));
    await eventually(() => expect(hasher.queue.stats).toMatchObject({ running: 1, queued: 2 }), 30_000);
    const newcomer = registration();
    const refused = await new TestClient(platform.url).fetch('/api/auth/register', { method: 'POST', json: newcomer, headers: from(900) });
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ code: 'UNAVAILABLE', message: BUSY });
    kdf.release();
    await all;
    expect(answers.map((answer) => answer.code)).toEqual(['INVALID_CREDENTIALS', 'INVALID_CREDENTIALS', 'INVALID_CREDENTIALS']);
    const accepted = await new TestClient(platform.url).fetch('/api/auth/register', { method: 'POST', json: newcomer, headers: from(901) });
    expect(accepted.status).toBe(201);
  });

  it('a flood of unknown e-mails is answered like wrong passwords without taking the place kept for members, who sign in during it', async () => {
    const [member] = await registerMembers(1);
    kdf.hold();
    const { answers, all, passwords } = flood(12, (index, password) => restSignIn({ email: unknownEmail(), password }, index));
    // Decoy checks take the free slot and one waiting place; the other 10 are answered without hashing.
    await eventually(() => expect(answers.length).toBeGreaterThanOrEqual(10), 30_000);
    expect(hasher.queue.stats).toMatchObject({ running: 1, queued: 1 });
    expect(kdf.countFor(passwords)).toBe(1);
    const client = new TestClient(platform.url);
    const signingIn = client.fetch('/api/auth/login', { method: 'POST', json: member, headers: from(902) });
    await eventually(() => expect(hasher.queue.stats.queued).toBe(2), 30_000);
    kdf.release();
    expect((await signingIn).status).toBe(200);
    expect(((await (await client.fetch('/api/user')).json()) as { email: string }).email).toBe(member!.email);
    await all;
    expect(answers).toEqual(Array.from({ length: 12 }, () => ({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' })));
    expect(kdf.countFor(passwords)).toBe(2);
  });

  it('never hashes for a caller that stopped waiting while queued, and creates no account for it', async () => {
    kdf.hold();
    const first = { email: unknownEmail(), password: wrongPassword() };
    const held = platform.bus
      .request(identityRpc.login, { input: first, clientIp: '10.45.0.0' }, {}, 60_000)
      .catch((error: AppError) => error);
    await eventually(() => expect(hasher.queue.stats.running).toBe(1), 30_000);
    const droppedBefore = hasher.queue.stats.dropped;
    // Long enough to be let in behind the held hash, short enough to give up while it is still held.
    const patienceMs = Math.ceil(3 * hasher.queue.averageRunMs) + 1_000;
    const impatient = { email: unknownEmail(), password: wrongPassword() };
    const gaveUp = platform.bus
      .request(
        identityRpc.register,
        { input: { ...registration(), ...impatient, confirmPassword: impatient.password }, clientIp: '10.45.0.1' },
        {},
        patienceMs,
      )
      .catch((error: AppError) => error);
    await eventually(() => expect(hasher.queue.stats.queued).toBe(1), 30_000);
    expect(await gaveUp).toMatchObject({ code: 'TIMEOUT' });
    kdf.release();
    expect(await held).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await eventually(() => expect(hasher.queue.stats.dropped).toBe(droppedBefore + 1));
    expect(kdf.countFor([impatient.password])).toBe(0);
    const signIn = { email: impatient.email, password: impatient.password };
    await expect(platform.bus.request(identityRpc.login, { input: signIn, clientIp: '10.45.0.2' })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
  });
});

describe.each(targets)('the unknown-e-mail budget on %s', (_name, target) => {
  let bus: Bus;
  let service: RunningService;
  let cleanup: () => Promise<void>;
  const kdf = new HeldKdf(scryptKdf);
  // Four waiting places, two kept for members: the budget of 2 is what stops decoy checks here.
  const BUDGET = 2;
  const hasher = createPasswordHasher({ passwordHashConcurrency: 1, passwordHashQueue: 4, signinUnknownEmailPerMinute: BUDGET }, kdf);

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    bus = created.infra.natsUrl ? await NatsBus.connect(created.infra.natsUrl, 'identity-flood-test') : InProcessBus.open();
    service = await startService(createIdentityService({}, { passwordHasher: hasher }), bus, created.infra, {});
  });
  afterAll(async () => {
    kdf.release();
    await service.stop();
    await bus.close();
    await cleanup();
  });

  const signIn = (input: Credentials, index: number) =>
    bus.request(identityRpc.login, { input, clientIp: `10.46.${Math.floor(index / 250)}.${index % 250}` });

  it('hashes only its budget of unknown e-mails a minute and answers the rest alike without hashing', async () => {
    kdf.hold();
    const { answers, all, passwords } = flood(20, (index, password) =>
      signIn({ email: unknownEmail(), password }, index).catch((error: AppError) => error),
    );
    // Past the budget nothing is hashed: those 18 are answered while the 2 budgeted checks (one held, one waiting) are not.
    await eventually(() => expect(answers).toHaveLength(18), 30_000);
    expect(hasher.queue.stats).toMatchObject({ running: 1, queued: BUDGET - 1 });
    kdf.release();
    await all;
    expect(answers.map((error) => [(error as AppError).code, (error as AppError).message])).toEqual(
      Array.from({ length: 20 }, () => ['INVALID_CREDENTIALS', 'Invalid email or password']),
    );
    expect(kdf.countFor(passwords)).toBe(BUDGET);
    const later = wrongPassword();
    await expect(signIn({ email: unknownEmail(), password: later }, 99)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(kdf.countFor([later])).toBe(0);
  });
});

describe('the gateway identity client', () => {
  const timingOut = () => {
    const timeouts: (number | undefined)[] = [];
    const bus = {
      request: async (_rpc: unknown, _payload: unknown, _meta: unknown, timeoutMs?: number) => {
        timeouts.push(timeoutMs);
        throw new AppError('TIMEOUT', 'svc.identity.login timed out');
      },
    } as unknown as Bus;
    return { client: new IdentityClient(bus), timeouts };
  };

  it.each([
    ['login', 'Signing in is taking too long right now. Please try again in a few seconds.'],
    ['register', 'Creating your account is taking too long right now. Please try again in a few seconds.'],
  ] as const)(
    'answers a %s that ran out of time as retryable UNAVAILABLE, waiting less than the bus default',
    async (operation, message) => {
      const { client, timeouts } = timingOut();
      const error = await client[operation]({} as RegisterInput, '10.47.0.1', {}).catch((caught: AppError) => caught);
      expect(error).toMatchObject({ code: 'UNAVAILABLE', message, details: { retryAfterSeconds: 5 } });
      expect(timeouts[0]).toBeLessThan(DEFAULT_RPC_TIMEOUT_MS);
    },
  );
});
