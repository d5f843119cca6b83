import { randomUUID } from 'node:crypto';
import { type Bus, Database, InProcessBus, NatsBus, type RunningService, startService } from '@app/kit';
import { type AppError, type EventEnvelope, type RegisterInput, identityEvents, identityRpc } from '@app/schema';
import { createIdentityService } from '@app/identity';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';

jest.setTimeout(60_000);

const DAY = 24 * 60 * 60 * 1000;

describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))('identity service on %s', (_name, target) => {
  let bus: Bus;
  let service: RunningService;
  let cleanup: () => Promise<void>;
  let now = new Date('2026-03-15T12:00:00Z');
  const events: EventEnvelope[] = [];
  let infra: Awaited<ReturnType<TestTarget['create']>>['infra'];

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    infra = created.infra;
    bus = created.infra.natsUrl ? await NatsBus.connect(created.infra.natsUrl, 'identity-test') : InProcessBus.open();
    service = await startService(
      createIdentityService({ clock: () => now, signupTokenGrant: 3, monthlyTokenAllowance: 0, signupsPerIpPerHour: 10 }),
      bus,
      created.infra,
      {},
    );
    await bus.consumeEvents({ subjects: ['evt.identity.>'], deliver: 'new' }, async (event) => void events.push(event));
  });
  afterAll(async () => {
    await service.stop();
    await bus.close();
    await cleanup();
  });

  const email = () => `m${randomUUID().slice(0, 8)}@example.com`;
  const validInput = (overrides: Record<string, unknown> = {}) => ({
    email: email(),
    password: 'correct horse battery',
    confirmPassword: 'correct horse battery',
    dateOfBirth: '1995-06-01',
    acceptTerms: true,
    ...overrides,
  });
  // Some inputs are wrong on purpose: the bus refuses them with the contract's messages.
  const register = (input: Record<string, unknown>, clientIp = `10.0.0.${Math.floor(Math.random() * 250)}`) =>
    bus.request(identityRpc.register, { input: input as RegisterInput, clientIp });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: AppError) => error,
    );

  describe('registration', () => {
    it('creates the member with the sign-up grant and a working session', async () => {
      const input = validInput({ firstName: '  Ada ', email: '  Ada.Lovelace+X@Example.COM ' });
      const { user, session } = await register(input);
      expect(user).toMatchObject({
        email: 'ada.lovelace+x@example.com',
        firstName: 'Ada',
        lastName: null,
        profileImageUrl: null,
        tokens: 3,
      });
      const resolved = await bus.request(identityRpc.resolveSession, { sessionToken: session.token });
      expect(resolved.user?.id).toBe(user.id);
      await eventually(() => {
        expect(
          events.some((event) => event.type === 'evt.identity.user.registered' && (event.data as { userId: string }).userId === user.id),
        ).toBe(true);
        expect(events.find((event) => event.type === 'evt.identity.tokens.changed' && event.actorId === user.id)?.data).toMatchObject({
          balance: 3,
          delta: 3,
        });
      });
    });

    it.each([
      [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
      [{ password: 'short', confirmPassword: 'short' }, 'password', 'Password must be at least 8 characters'],
      [{ confirmPassword: 'something else' }, 'confirmPassword', "Passwords don't match"],
      [{ dateOfBirth: '1990-02-30' }, 'dateOfBirth', 'Please enter a valid date of birth'],
    ])('refuses %j with the message on the field', async (overrides, field, message) => {
      const error = await failure(register(validInput(overrides)));
      // The bus validates the typed frame, so the field is named inside its `input` (the gateway names it bare).
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message });
      expect(error?.details?.fieldErrors?.[`input.${field}`]).toBe(message);
    });

    it('refuses members under 18, accepting one who turned 18 today', async () => {
      const underage = await failure(register(validInput({ dateOfBirth: '2008-03-16' })));
      expect(underage).toMatchObject({ code: 'UNDERAGE', message: 'You must be 18 or older to join.' });
      await expect(register(validInput({ dateOfBirth: '2008-03-15' }))).resolves.toBeDefined();
    });

    it('requires accepting the Terms', async () => {
      await expect(register(validInput({ acceptTerms: false }))).rejects.toMatchObject({ code: 'TERMS_NOT_ACCEPTED' });
    });

    it('refuses a second account for the same e-mail, whatever its case', async () => {
      const input = validInput();
      await register(input);
      await expect(register({ ...input, email: input.email.toUpperCase() })).rejects.toMatchObject({ code: 'EMAIL_TAKEN' });
    });

    it('allows 10 sign-ups per address per hour, then answers RATE_LIMITED', async () => {
      for (let i = 0; i < 10; i++) await register(validInput(), '10.9.9.9');
      const blocked = await failure(register(validInput(), '10.9.9.9'));
      expect(blocked).toMatchObject({ code: 'RATE_LIMITED' });
      await expect(register(validInput(), '10.9.9.10')).resolves.toBeDefined();
    });

    it('stores no plaintext password anywhere', async () => {
      const input = validInput({ password: 'plaintext-canary-123', confirmPassword: 'plaintext-canary-123' });
      await register(input);
      const rows = await service.db.query<unknown>(`SELECT * FROM "identity"."users" WHERE "email" = $1`, [input.email]);
      expect(JSON.stringify(rows)).not.toContain('plaintext-canary-123');
      expect(JSON.stringify(rows)).toContain('scrypt$');
    });
  });

  describe('sign-in and sessions', () => {
    it('signs in with the right password, each time with a new session token', async () => {
      const input = validInput();
      const first = await register(input);
      const login = await bus.request(identityRpc.login, { input: { email: input.email, password: input.password }, clientIp: '10.1.0.1' });
      expect(login.user.id).toBe(first.user.id);
      expect(login.session.token).not.toBe(first.session.token);
      expect(login.session.token.length).toBeGreaterThanOrEqual(43);
    });

    it('answers a wrong password and an unknown e-mail the same way', async () => {
      const input = validInput();
      await register(input);
      const wrong = await failure(
        bus.request(identityRpc.login, { input: { email: input.email, password: 'wrong password' }, clientIp: '10.2.0.1' }),
      );
      const unknown = await failure(
        bus.request(identityRpc.login, { input: { email: email(), password: 'wrong password' }, clientIp: '10.2.0.2' }),
      );
      expect(wrong).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' });
      expect(unknown).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'Invalid email or password' });
    });

    it('throttles an account after 5 wrong passwords, even with the right one, until the window passes', async () => {
      const input = validInput();
      await register(input);
      for (let i = 0; i < 5; i++) {
        await failure(bus.request(identityRpc.login, { input: { email: input.email, password: 'nope nope' }, clientIp: `10.3.0.${i}` }));
      }
      const blocked = await failure(
        bus.request(identityRpc.login, { input: { email: input.email, password: input.password }, clientIp: '10.3.1.1' }),
      );
      expect(blocked).toMatchObject({ code: 'RATE_LIMITED' });
      expect(blocked?.details?.retryAfterSeconds).toBeGreaterThan(0);
      now = new Date(now.getTime() + 16 * 60 * 1000);
      await expect(
        bus.request(identityRpc.login, { input: { email: input.email, password: input.password }, clientIp: '10.3.1.1' }),
      ).resolves.toBeDefined();
    });

    it('ends a session at sign-out: the old token no longer resolves', async () => {
      const { session } = await register(validInput());
      await bus.request(identityRpc.logout, { sessionToken: session.token });
      await expect(bus.request(identityRpc.resolveSession, { sessionToken: session.token })).resolves.toEqual({ user: null, scopes: null });
    });

    it('expires a session after 7 idle days and after 30 days in all', async () => {
      const idle = await register(validInput());
      now = new Date(now.getTime() + 7 * DAY + 1000);
      expect((await bus.request(identityRpc.resolveSession, { sessionToken: idle.session.token })).user).toBeNull();

      const active = await register(validInput());
      for (const days of [6, 6, 6, 6, 5]) {
        now = new Date(now.getTime() + days * DAY);
        expect((await bus.request(identityRpc.resolveSession, { sessionToken: active.session.token })).user).not.toBeNull();
      }
      now = new Date(now.getTime() + 2 * DAY);
      expect((await bus.request(identityRpc.resolveSession, { sessionToken: active.session.token })).user).toBeNull();
    });

    it('a check with touch: false (an open WebSocket) does not keep a session from going idle', async () => {
      const watched = await register(validInput());
      for (const days of [3, 3]) {
        now = new Date(now.getTime() + days * DAY);
        const check = { sessionToken: watched.session.token, touch: false };
        expect((await bus.request(identityRpc.resolveSession, check)).user).not.toBeNull();
      }
      now = new Date(now.getTime() + 1 * DAY + 1000);
      expect((await bus.request(identityRpc.resolveSession, { sessionToken: watched.session.token, touch: false })).user).toBeNull();
    });
  });

  describe('token ledger and quotas', () => {
    it('with 3 tokens, exactly 3 of 20 concurrent debits succeed and the rest fail with INSUFFICIENT_TOKENS', async () => {
      const { user } = await register(validInput());
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          bus.request(identityRpc.debitTokens, { userId: user.id, amount: 1, reason: 'chat reply', idempotencyKey: randomUUID() }),
        ),
      );
      const ok = results.filter((result) => result.status === 'fulfilled');
      const failed = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(ok).toHaveLength(3);
      expect(failed.every((result) => (result.reason as AppError).code === 'INSUFFICIENT_TOKENS')).toBe(true);
      expect((await bus.request(identityRpc.getUser, { userId: user.id })).tokens).toBe(0);
      const [{ sum }] = await service.db.query<{ sum: number }>(
        `SELECT sum("delta")::int AS "sum" FROM "identity"."token_ledger" WHERE "user_id" = $1`,
        [user.id],
      );
      expect(sum).toBe(0);
    });

    it('debits once per idempotency key and refunds exactly once', async () => {
      const { user } = await register(validInput());
      const key = randomUUID();
      const debit = { userId: user.id, amount: 1, reason: 'image', idempotencyKey: key, quota: 'image' as const };
      expect((await bus.request(identityRpc.debitTokens, debit)).balance).toBe(2);
      expect((await bus.request(identityRpc.debitTokens, debit)).balance).toBe(2);
      const refunds = await Promise.all(
        [1, 2, 3].map(() => bus.request(identityRpc.refundTokens, { userId: user.id, debitIdempotencyKey: key, reason: 'failed' })),
      );
      expect(refunds.filter((refund) => refund.refunded)).toHaveLength(1);
      expect((await bus.request(identityRpc.getUser, { userId: user.id })).tokens).toBe(3);
      const quotas = await bus.request(identityRpc.getQuotas, { userId: user.id });
      expect(quotas.quotas.find((quota) => quota.kind === 'image')?.used).toBe(0);
    });

    it('remembers a refund that overtook its debit: the late debit is refused and the balance and quota are untouched', async () => {
      const { user } = await register(validInput());
      const key = randomUUID();
      const refunds = await Promise.all(
        [1, 2].map(() => bus.request(identityRpc.refundTokens, { userId: user.id, debitIdempotencyKey: key, reason: 'answer lost' })),
      );
      expect(refunds.map((refund) => refund.refunded)).toEqual([false, false]);
      const late = { userId: user.id, amount: 1, reason: 'image', idempotencyKey: key, quota: 'image' as const };
      await expect(bus.request(identityRpc.debitTokens, late)).rejects.toMatchObject({ code: 'CONFLICT' });
      expect((await bus.request(identityRpc.getUser, { userId: user.id })).tokens).toBe(3);
      const quotas = await bus.request(identityRpc.getQuotas, { userId: user.id });
      expect(quotas.quotas.find((quota) => quota.kind === 'image')?.used).toBe(0);
    });

    it('enforces the free plan (3 images a month) with QUOTA_EXCEEDED and resets next month', async () => {
      const { user } = await register(validInput());
      await bus.request(identityRpc.grantTokens, { email: user.email, amount: 10, reason: 'test', idempotencyKey: randomUUID() });
      for (let i = 0; i < 3; i++) {
        await bus.request(identityRpc.debitTokens, {
          userId: user.id,
          amount: 1,
          reason: 'image',
          idempotencyKey: randomUUID(),
          quota: 'image',
        });
      }
      const over = await failure(
        bus.request(identityRpc.debitTokens, { userId: user.id, amount: 1, reason: 'image', idempotencyKey: randomUUID(), quota: 'image' }),
      );
      expect(over).toMatchObject({ code: 'QUOTA_EXCEEDED' });
      expect((await bus.request(identityRpc.getUser, { userId: user.id })).tokens).toBe(10);
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      now = monthStart;
      const usage = await bus.request(identityRpc.getQuotas, { userId: user.id });
      expect(usage.quotas.find((quota) => quota.kind === 'image')).toMatchObject({
        used: 0,
        limit: 3,
        periodStart: monthStart.toISOString(),
      });
      await expect(
        bus.request(identityRpc.debitTokens, { userId: user.id, amount: 1, reason: 'image', idempotencyKey: randomUUID(), quota: 'image' }),
      ).resolves.toMatchObject({ balance: 9 });
    });

    it('counts character creations (2 a month) without a token cost, once per key', async () => {
      const { user } = await register(validInput());
      const key = randomUUID();
      expect((await bus.request(identityRpc.consumeQuota, { userId: user.id, kind: 'character', idempotencyKey: key })).used).toBe(1);
      expect((await bus.request(identityRpc.consumeQuota, { userId: user.id, kind: 'character', idempotencyKey: key })).used).toBe(1);
      expect((await bus.request(identityRpc.consumeQuota, { userId: user.id, kind: 'character', idempotencyKey: randomUUID() })).used).toBe(
        2,
      );
      await expect(
        bus.request(identityRpc.consumeQuota, { userId: user.id, kind: 'character', idempotencyKey: randomUUID() }),
      ).rejects.toMatchObject({
        code: 'QUOTA_EXCEEDED',
      });
      expect((await bus.request(identityRpc.getUser, { userId: user.id })).tokens).toBe(3);
    });

    it('publishes tokens changed with the new balance for every grant', async () => {
      const { user } = await register(validInput());
      await bus.request(identityRpc.grantTokens, { email: user.email, amount: 5, reason: 'promo', idempotencyKey: randomUUID() });
      await eventually(() =>
        expect(
          events
            .filter((event) => event.type === identityEvents.tokensChanged.type && event.actorId === user.id)
            .map((event) => event.data),
        ).toEqual(expect.arrayContaining([expect.objectContaining({ balance: 8, delta: 5, reason: 'promo' })])),
      );
    });
  });

  describe('retention', () => {
    it('forgets counted event ids once the event stream can no longer redeliver them, and keeps the rest', async () => {
      const [old, recent] = [randomUUID(), randomUUID()];
      await service.db.execute(
        `INSERT INTO "identity"."processed_events" ("event_id", "processed_at") VALUES ($1, now() - interval '4 days'), ($2, now() - interval '1 day')`,
        [old, recent],
      );
      // Events leave the stream after a day: an id is kept that long plus two days, so the 4-day-old one goes at the next start.
      // A second handle keeps an in-memory database alive while the service restarts.
      const keepAlive = await Database.open(infra, { schema: 'identity', entities: [], migrations: [] });
      await service.stop();
      service = await startService(createIdentityService({ clock: () => now }), bus, infra, { EVENTS_MAX_AGE_HOURS: '24' });
      await keepAlive.close();
      await eventually(async () => {
        const kept = await service.db.query<{ event_id: string }>(
          `SELECT "event_id" FROM "identity"."processed_events" WHERE "event_id" = ANY($1::uuid[])`,
          [[old, recent]],
        );
        expect(kept.map((row) => row.event_id)).toEqual([recent]);
      });
    });
  });
});
