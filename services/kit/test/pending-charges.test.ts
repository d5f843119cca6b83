import { randomUUID } from 'node:crypto';
import { AppError, identityRpc } from '@app/schema';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { type Bus, type Subscription, connectBus } from '../src';
import { Database } from '../src/db/database';
import { PendingCharges, createPendingChargesTable } from '../src/db/pending-charges';
import { testTargets } from './test-infra';

jest.setTimeout(30_000);

class PendingChargesTable1700000000002 implements MigrationInterface {
  name = 'PendingChargesTable1700000000002';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createPendingChargesTable(queryRunner, 'chargetest');
    await queryRunner.query(`CREATE TABLE "chargetest"."work" ("debit_key" text PRIMARY KEY)`);
  }
  async down(): Promise<void> {}
}

/** A ledger with identity's refund rules: debits by key, refunds once, and a refund that comes first cancels the debit. */
class FakeLedger {
  readonly debits = new Map<string, { refunded: boolean }>();
  readonly cancelled = new Set<string>();
  /** 'ok', 'refuse' (a definite refusal), 'lose-answer' (commits, then the answer is lost), 'down'. */
  debitMode: 'ok' | 'refuse' | 'lose-answer' | 'down' = 'ok';
  refundDown = false;

  async serve(bus: Bus): Promise<Subscription[]> {
    return [
      await bus.serve(identityRpc.debitTokens, async ({ idempotencyKey }) => {
        if (this.debitMode === 'down') throw new AppError('UNAVAILABLE', 'identity is down');
        if (this.debitMode === 'refuse') throw new AppError('INSUFFICIENT_TOKENS', 'You need 1 token for this; your balance is 0.');
        if (this.cancelled.has(idempotencyKey)) throw new AppError('CONFLICT', 'This charge was already cancelled.');
        this.debits.set(idempotencyKey, { refunded: false });
        if (this.debitMode === 'lose-answer') throw new AppError('UNAVAILABLE', 'the answer was lost');
        return change();
      }),
      await bus.serve(identityRpc.refundTokens, async ({ debitIdempotencyKey }) => {
        if (this.refundDown) throw new AppError('UNAVAILABLE', 'identity is down');
        const debit = this.debits.get(debitIdempotencyKey);
        if (!debit) this.cancelled.add(debitIdempotencyKey);
        const refunded = Boolean(debit && !debit.refunded);
        if (debit) debit.refunded = true;
        return { ...change(), refunded };
      }),
    ];
  }

  charged(): number {
    return [...this.debits.values()].filter((debit) => !debit.refunded).length;
  }
}

const change = () => ({ userId: randomUUID(), balance: 9, delta: 0, reason: 'test', occurredAt: new Date().toISOString() });

describe.each(testTargets().map((target) => [target.name, target] as const))('pending charges on %s', (_name, target) => {
  let db: Database;
  let bus: Bus;
  let ledger: FakeLedger;
  let served: Subscription[];
  let cleanup: () => Promise<void>;
  const userId = randomUUID();

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    db = await Database.open(created.infra, { schema: 'chargetest', entities: [], migrations: [PendingChargesTable1700000000002] });
    bus = await connectBus(created.infra, 'charge-test');
  });
  afterAll(async () => {
    await bus?.close();
    await db?.close();
    await cleanup?.();
  });
  beforeEach(async () => {
    ledger = new FakeLedger();
    served = await ledger.serve(bus);
    await db.execute(`DELETE FROM "chargetest"."pending_charges"`);
  });
  afterEach(async () => {
    for (const subscription of served) await subscription.unsubscribe();
  });

  const pendingKeys = async () =>
    (await db.query<{ debit_key: string }>(`SELECT "debit_key" FROM "chargetest"."pending_charges"`)).map((row) => row.debit_key);
  const debit = (debitKey: string) => () =>
    bus.request(identityRpc.debitTokens, { userId, amount: 1, reason: 'Work', idempotencyKey: debitKey });

  /** What a service does: charge, then record the work and settle the charge in one transaction. */
  async function chargeAndRecord(charges: PendingCharges, debitKey: string, recordFails = false): Promise<void> {
    await charges.charge({ userId, debitKey, refundReason: 'Work not started' }, debit(debitKey));
    try {
      await db.transaction(async (tx) => {
        await charges.settle(debitKey);
        await tx.execute(`INSERT INTO "chargetest"."work" ("debit_key") VALUES ($1)`, [debitKey]);
        if (recordFails) throw new Error('the work could not be recorded');
      });
    } catch (error) {
      await charges.abandon({ userId, debitKey, refundReason: 'Work not started' });
      throw error;
    }
  }

  it('keeps the charge of work that was recorded, and nothing stays pending', async () => {
    const charges = new PendingCharges(db, bus, { graceMs: 0 });
    await chargeAndRecord(charges, `work:${randomUUID()}`);
    expect(ledger.charged()).toBe(1);
    expect(await pendingKeys()).toEqual([]);
    expect(await charges.sweep()).toBe(0);
    expect(ledger.charged()).toBe(1);
  });

  it('refunds at once a debit whose answer was lost, and the work is not recorded', async () => {
    const charges = new PendingCharges(db, bus, { graceMs: 60_000 });
    ledger.debitMode = 'lose-answer';
    await expect(chargeAndRecord(charges, `work:${randomUUID()}`)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(ledger.debits.size).toBe(1);
    expect(ledger.charged()).toBe(0);
    expect(await pendingKeys()).toEqual([]);
  });

  it('drops the intent of a definite refusal without asking for a refund', async () => {
    const charges = new PendingCharges(db, bus, { graceMs: 0 });
    ledger.debitMode = 'refuse';
    await expect(chargeAndRecord(charges, `work:${randomUUID()}`)).rejects.toMatchObject({ code: 'INSUFFICIENT_TOKENS' });
    expect(await pendingKeys()).toEqual([]);
    expect(ledger.cancelled.size).toBe(0);
  });

  it('refunds when the work cannot be recorded after the charge', async () => {
    const charges = new PendingCharges(db, bus, { graceMs: 60_000 });
    await expect(chargeAndRecord(charges, `work:${randomUUID()}`, true)).rejects.toThrow('could not be recorded');
    expect(ledger.debits.size).toBe(1);
    expect(ledger.charged()).toBe(0);
    expect(await pendingKeys()).toEqual([]);
  });

  it('leaves a lost debit for the sweeper while identity cannot refund, and the sweeper refunds it once identity is back', async () => {
    const charges = new PendingCharges(db, bus, { graceMs: 0 });
    const debitKey = `work:${randomUUID()}`;
    ledger.debitMode = 'lose-answer';
    ledger.refundDown = true;
    await expect(chargeAndRecord(charges, debitKey)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(ledger.charged()).toBe(1);
    expect(await pendingKeys()).toEqual([debitKey]);
    expect(await charges.sweep()).toBe(0);
    ledger.refundDown = false;
    expect(await charges.sweep()).toBe(1);
    expect(ledger.charged()).toBe(0);
    expect(await pendingKeys()).toEqual([]);
  });

  it('does not sweep an intent younger than the grace period (its debit may still be on its way)', async () => {
    const charges = new PendingCharges(db, bus, { graceMs: 60_000 });
    const debitKey = `work:${randomUUID()}`;
    ledger.debitMode = 'down';
    ledger.refundDown = true;
    await expect(chargeAndRecord(charges, debitKey)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    ledger.refundDown = false;
    expect(await charges.sweep()).toBe(0);
    expect(await pendingKeys()).toEqual([debitKey]);
  });

  it('a refund that overtakes its debit cancels it: the late debit is refused and nothing is charged', async () => {
    const charges = new PendingCharges(db, bus, { graceMs: 0 });
    const debitKey = `work:${randomUUID()}`;
    ledger.debitMode = 'down';
    await expect(chargeAndRecord(charges, debitKey)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    ledger.debitMode = 'ok';
    await expect(debit(debitKey)()).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(ledger.charged()).toBe(0);
  });
});
