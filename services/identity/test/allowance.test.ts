import { randomUUID } from 'node:crypto';
import { type Bus, InProcessBus, NatsBus, type RunningService, startService } from '@app/kit';
import { type AppError, FREE_MONTHLY_TOKEN_ALLOWANCE, type RegisterInput, identityRpc } from '@app/schema';
import { createIdentityService } from '@app/identity';
import { type TestTarget, eventually, testTargets } from '../../kit/test/test-infra';
import { openIdentityStore } from '../src/identity.store';
import { startAllowanceSweep } from '../src/tokens/allowance-sweep';
import { TokensService } from '../src/tokens/tokens.service';

jest.setTimeout(60_000);

/** Decision 036: the Free plan's tokens arrive as a monthly top-up by the ledger, exactly once per member per month. */
describe.each(testTargets().map((target) => [target.name, target] as [string, TestTarget]))(
  'monthly free allowance on %s',
  (_name, target) => {
    let bus: Bus;
    let service: RunningService;
    let cleanup: () => Promise<void>;
    let infra: Awaited<ReturnType<TestTarget['create']>>['infra'];
    let now = new Date('2026-05-20T12:00:00Z');
    const clock = () => now;

    beforeAll(async () => {
      const created = await target.create();
      cleanup = created.cleanup;
      infra = created.infra;
      bus = created.infra.natsUrl ? await NatsBus.connect(created.infra.natsUrl, 'allowance-test') : InProcessBus.open();
      service = await startService(createIdentityService({ clock, signupsPerIpPerHour: 1000 }), bus, infra, {});
    });
    afterAll(async () => {
      await service?.stop();
      await bus?.close();
      await cleanup?.();
    });

    const join = async () =>
      (
        await bus.request(identityRpc.register, {
          input: {
            email: `a${randomUUID().slice(0, 8)}@example.com`,
            password: 'correct horse battery',
            confirmPassword: 'correct horse battery',
            dateOfBirth: '1990-01-01',
            acceptTerms: true,
          } as RegisterInput,
          clientIp: '10.1.0.1',
        })
      ).user;
    const debit = (userId: string, quota?: 'image' | 'chat' | 'story') =>
      bus.request(identityRpc.debitTokens, { userId, amount: 1, reason: 'generation', idempotencyKey: randomUUID(), quota });
    const balance = async (userId: string) => (await bus.request(identityRpc.getUser, { userId })).tokens;
    const spendAll = async (userId: string) => {
      for (let left = await balance(userId); left > 0; left--) await debit(userId);
    };
    const nextMonth = () => {
      now = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 0, 5));
    };

    it('a new member starts with the whole allowance and can use the entire free plan', async () => {
      const user = await join();
      expect(user.tokens).toBe(FREE_MONTHLY_TOKEN_ALLOWANCE);
      for (let i = 0; i < 3; i++) await debit(user.id, 'image');
      for (let i = 0; i < 10; i++) await debit(user.id, 'chat');
      for (let i = 0; i < 2; i++) await debit(user.id, 'story');
      expect(await balance(user.id)).toBe(0);
      const refused = await debit(user.id, 'chat').catch((error: AppError) => error);
      expect(refused).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { quota: 'chat' } });
    });

    it('says when the tokens renew, and tops the balance up once at the next month whatever touches the ledger first', async () => {
      const user = await join();
      await spendAll(user.id);
      const refused = (await debit(user.id).catch((error: AppError) => error)) as AppError;
      const renewsAt = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
      expect(refused).toMatchObject({ code: 'INSUFFICIENT_TOKENS', details: { renewsAt } });
      expect(refused.message).toContain(renewsAt.slice(0, 10));

      nextMonth();
      // Twenty charges race at the month's first moment: the allowance arrives once, so exactly that many succeed.
      const results = await Promise.allSettled(Array.from({ length: 20 }, () => debit(user.id)));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(FREE_MONTHLY_TOKEN_ALLOWANCE);
      expect(await balance(user.id)).toBe(0);
      const [{ grants }] = await service.db.query<{ grants: number }>(
        `SELECT count(*)::int AS "grants" FROM "identity"."token_ledger" WHERE "user_id" = $1 AND "idempotency_key" LIKE 'allowance:%'`,
        [user.id],
      );
      expect(grants).toBe(2);
    });

    it('never takes tokens away and does not top up again later in the month', async () => {
      const user = await join();
      await bus.request(identityRpc.grantTokens, { email: user.email, amount: 25, reason: 'gift', idempotencyKey: randomUUID() });
      nextMonth();
      // Already above the allowance: the month is marked as granted with nothing added.
      await debit(user.id);
      expect(await balance(user.id)).toBe(FREE_MONTHLY_TOKEN_ALLOWANCE + 25 - 1);
      await spendAll(user.id);
      await expect(debit(user.id)).rejects.toMatchObject({ code: 'INSUFFICIENT_TOKENS' });
      expect(await balance(user.id)).toBe(0);
    });

    it('the Plans figures: allowance, balance after the top-up, renewal and quotas', async () => {
      const user = await join();
      await debit(user.id, 'image');
      const plan = await bus.request(identityRpc.getPlan, { userId: user.id });
      expect(plan).toMatchObject({
        plan: 'free',
        monthlyTokenAllowance: FREE_MONTHLY_TOKEN_ALLOWANCE,
        balance: FREE_MONTHLY_TOKEN_ALLOWANCE - 1,
        renewsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      });
      expect(plan.quotas.find((quota) => quota.kind === 'image')).toMatchObject({ used: 1, limit: 3 });
    });

    it("the sweep at the month's start gives every member the new month without waiting for a charge", async () => {
      const members = await Promise.all([join(), join(), join()]);
      for (const user of members) await spendAll(user.id);
      nextMonth();
      // Two sweeps race (two instances at the month's start): each member still gets the allowance once.
      const tokens = new TokensService(openIdentityStore(service.db), clock, bus);
      const sweeps = [startAllowanceSweep(tokens, clock), startAllowanceSweep(tokens, clock)];
      try {
        await eventually(async () => {
          for (const user of members) expect(await balance(user.id)).toBe(FREE_MONTHLY_TOKEN_ALLOWANCE);
        }, 10_000);
      } finally {
        await Promise.all(sweeps.map((sweep) => sweep.unsubscribe()));
      }
      const [{ grants }] = await service.db.query<{ grants: number }>(
        `SELECT count(*)::int AS "grants" FROM "identity"."token_ledger" WHERE "user_id" = ANY($1::uuid[]) AND "idempotency_key" LIKE 'allowance:%'`,
        [members.map((user) => user.id)],
      );
      expect(grants).toBe(members.length * 2);
    });
  },
);
