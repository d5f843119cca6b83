import { randomUUID } from 'node:crypto';
import { type EventEnvelope, defineEvent } from '@app/schema';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { z } from 'zod';
import { type Bus, type SqlSession, UnitOfWork, connectBus } from '../src';
import { Database } from '../src/db/database';
import { Outbox, createOutboxTable } from '../src/db/outbox';
import { testTargets } from './test-infra';

jest.setTimeout(30_000);

class NotesTable1700000000001 implements MigrationInterface {
  name = 'NotesTable1700000000001';
  async up(queryRunner: QueryRunner): Promise<void> {
    await createOutboxTable(queryRunner, 'uowtest');
    await queryRunner.query(`CREATE TABLE "uowtest"."notes" ("text" text PRIMARY KEY)`);
  }
  async down(): Promise<void> {}
}

/** A repository as services write them: bound to the session of its unit of work. */
class NotesRepository {
  constructor(private readonly session: SqlSession) {}
  async add(text: string): Promise<void> {
    await this.session.execute(`INSERT INTO "uowtest"."notes" ("text") VALUES ($1)`, [text]);
  }
  async all(): Promise<string[]> {
    return (await this.session.query<{ text: string }>(`SELECT "text" FROM "uowtest"."notes" ORDER BY "text"`)).map((row) => row.text);
  }
}

class Rollback extends Error {}

describe.each(testTargets().map((target) => [target.name, target] as const))('unit of work on %s', (_name, target) => {
  let db: Database;
  let bus: Bus;
  let notes: UnitOfWork<{ notes: NotesRepository }>;
  let relay: { unsubscribe(): Promise<void> };
  let cleanup: () => Promise<void>;
  const noted = defineEvent(`evt.uowtest${randomUUID().slice(0, 8)}.note.added`, 1, z.object({ text: z.string() }));

  beforeAll(async () => {
    const created = await target.create();
    cleanup = created.cleanup;
    db = await Database.open(created.infra, { schema: 'uowtest', entities: [], migrations: [NotesTable1700000000001] });
    bus = await connectBus(created.infra, 'uow-test');
    notes = new UnitOfWork(db, (session) => ({ notes: new NotesRepository(session) }));
    // A relay whose timer runs once a minute: events seen at once came from the commit.
    relay = new Outbox(db, bus, { relayIntervalMs: 60_000 }).start();
  });
  afterAll(async () => {
    await relay?.unsubscribe();
    await bus?.close();
    await db?.close();
    await cleanup?.();
  });
  beforeEach(() => db.execute(`DELETE FROM "uowtest"."notes"`));

  it('runs every call made inside a transaction in that transaction: a rollback takes them all back, and nothing waits on itself', async () => {
    // A repository from an earlier read, kept by a service: the old way to escape (or deadlock on PGlite).
    const kept = await notes.run(async ({ notes: repository }) => repository);
    await expect(
      notes.transaction(async ({ notes: repository }) => {
        await repository.add('through the transaction');
        await db.execute(`INSERT INTO "uowtest"."notes" ("text") VALUES ('through the database')`);
        await db.run((session) => session.execute(`INSERT INTO "uowtest"."notes" ("text") VALUES ('through a read')`));
        await notes.transaction(({ notes: nested }) => nested.add('through a nested transaction'));
        await kept.add('through a kept repository');
        // Inside, every path sees the same uncommitted rows.
        expect(await db.query(`SELECT count(*)::int AS "n" FROM "uowtest"."notes"`)).toEqual([{ n: 5 }]);
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(await notes.run(({ notes: repository }) => repository.all())).toEqual([]);
  });

  it('commits what it did when the work succeeds, and runs after-commit work only then', async () => {
    const ran: string[] = [];
    await notes.transaction(async ({ notes: repository }, tx) => {
      await repository.add('kept');
      tx.afterCommit(() => ran.push('committed'));
    });
    await expect(
      notes.transaction(async ({ notes: repository }, tx) => {
        await repository.add('dropped');
        tx.afterCommit(() => ran.push('rolled back'));
        throw new Rollback();
      }),
    ).rejects.toBeInstanceOf(Rollback);
    expect(ran).toEqual(['committed']);
    expect(await notes.run(({ notes: repository }) => repository.all())).toEqual(['kept']);
  });

  it('refuses a transaction session used after its transaction ended', async () => {
    const leaked = await notes.transaction(async ({ notes: repository }) => repository);
    await expect(leaked.add('late')).rejects.toThrow('This transaction has ended');
    expect(await notes.run(({ notes: repository }) => repository.all())).toEqual([]);
  });

  it('relays the events of a commit at once, and never those of a rollback', async () => {
    const received: EventEnvelope[] = [];
    const subscription = await bus.consumeEvents({ subjects: [noted.type], deliver: 'new' }, async (event) => {
      received.push(event);
    });
    try {
      await expect(
        notes.transaction(async ({ notes: repository }, tx) => {
          await repository.add('rolled back');
          await tx.emit(noted, { text: 'rolled back' }, null);
          throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);
      await notes.transaction(async ({ notes: repository }, tx) => {
        await repository.add('committed');
        await tx.emit(noted, { text: 'committed' }, null);
      });
      const deadline = Date.now() + 1_500;
      while (received.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(received.map((event) => event.data)).toEqual([{ text: 'committed' }]);
    } finally {
      await subscription.unsubscribe();
    }
  });
});
