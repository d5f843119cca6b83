import { randomUUID } from 'node:crypto';
import { defineEvent } from '@app/schema';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { type Bus, connectBus } from '../src';
import { Database } from '../src/db/database';
import { Outbox, createOutboxTable, readOutboxOptions } from '../src/db/outbox';
import { testTargets } from './test-infra';

jest.setTimeout(30_000);

class OutboxTestTable1700000000000 implements MigrationInterface {
  name = 'OutboxTestTable1700000000000';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxTable(queryRunner, 'outboxtest');
  }
  async down(): Promise<void> {}
}

describe.each(testTargets().map((target) => [target.name, target] as const))('outbox on %s', (_name, target) => {
  let db: Database;
  let bus: Bus;
  let cleanup: () => Promise<void>;
  const happened = defineEvent(`evt.outboxtest${randomUUID().slice(0, 8)}.thing.happened`, 1, z.object({ n: z.number() }));

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    db = await Database.open(created.infra, { schema: 'outboxtest', entities: [], migrations: [OutboxTestTable1700000000000] });
    bus = await connectBus(created.infra, 'outbox-test');
  });
  afterAll(async () => {
    await bus?.close();
    await db?.close();
    await cleanup?.();
  });

  const rows = () =>
    db.query<{ n: string; published: boolean }>(
      `SELECT "envelope"->'data'->>'n' AS "n", "published_at" IS NOT NULL AS "published" FROM "outboxtest"."outbox" ORDER BY "seq"`,
    );

  it('deletes relayed rows past the retention and keeps recent ones and any not yet relayed', async () => {
    const outbox = new Outbox(db, bus, { retentionMs: 60_000 });
    await db.transaction(async (tx) => {
      for (const n of [1, 2, 3]) await tx.emit(happened, { n }, null);
    });
    await outbox.flush();
    expect(await rows()).toEqual([1, 2, 3].map((n) => ({ n: String(n), published: true })));
    // 1 and 2 were relayed two minutes ago; 4 is old but the bus never took it.
    await db.execute(
      `UPDATE "outboxtest"."outbox" SET "published_at" = now() - interval '2 minutes' WHERE ("envelope"->'data'->>'n')::int IN (1, 2)`,
    );
    await db.transaction((tx) => tx.emit(happened, { n: 4 }, null));
    await db.execute(`UPDATE "outboxtest"."outbox" SET "created_at" = now() - interval '1 day' WHERE ("envelope"->'data'->>'n')::int = 4`);

    expect(await outbox.prune()).toBe(2);
    expect(await rows()).toEqual([
      { n: '3', published: true },
      { n: '4', published: false },
    ]);
    expect(await outbox.prune()).toBe(0);
  });

  it('reads the retention from OUTBOX_RETENTION_HOURS (24 by default)', () => {
    expect(readOutboxOptions({})).toEqual({ retentionMs: 24 * 3_600_000 });
    expect(readOutboxOptions({ OUTBOX_RETENTION_HOURS: '2' })).toEqual({ retentionMs: 2 * 3_600_000 });
  });
});
