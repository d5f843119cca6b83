import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { EmbeddedPlatform } from '@app/embedded';
import { identityService } from '@app/identity';
import type { Bus, Database, ServiceDefinition } from '@app/kit';
import { AppError, EVENT_STREAM, type EventEnvelope, identityRpc } from '@app/schema';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

/** Read-only looks behind a running platform's back: its databases, its outboxes, the event stream. */
export class PlatformProbe {
  constructor(
    private readonly platform: EmbeddedPlatform,
    private readonly natsUrl: string,
  ) {}

  /** Every service's schema is in the one database the platform was given; identity's pool reaches them all and is never stopped here. */
  private get db(): Database {
    return this.platform.services.find((running) => running.name === 'identity')!.db;
  }

  async unrelayed(service: 'identity' | 'chat' | 'media'): Promise<number> {
    const [row] = await this.db.query<{ count: number }>(
      `SELECT count(*)::int AS "count" FROM "${service}"."outbox" WHERE "published_at" IS NULL`,
    );
    return row!.count;
  }

  async replyStatus(replyId: string): Promise<{ status: string; content: string }> {
    const [row] = await this.db.query<{ status: string; content: string }>(
      `SELECT "status", "content" FROM "chat"."messages" WHERE "id" = $1`,
      [replyId],
    );
    return row!;
  }

  async jobStatus(jobId: string): Promise<string> {
    const [row] = await this.db.query<{ status: string }>(`SELECT "status" FROM "media"."generation_jobs" WHERE "id" = $1`, [jobId]);
    return row!.status;
  }

  async imagesOfJob(jobId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(`SELECT "id" FROM "media"."images" WHERE "job_id" = $1`, [jobId]);
    return rows.map((row) => row.id);
  }

  /** The member's ledger keys by kind (grants left out) and the stored balance. */
  async ledger(userId: string): Promise<{ debits: string[]; refunds: string[]; balance: number }> {
    const rows = await this.db.query<{ kind: string; idempotency_key: string }>(
      `SELECT "kind", "idempotency_key" FROM "identity"."token_ledger" WHERE "user_id" = $1 AND "kind" <> 'grant'`,
      [userId],
    );
    const [user] = await this.db.query<{ token_balance: number }>(`SELECT "token_balance" FROM "identity"."users" WHERE "id" = $1`, [
      userId,
    ]);
    const keysOf = (kind: string) =>
      rows
        .filter((row) => row.kind === kind)
        .map((row) => row.idempotency_key)
        .sort();
    return { debits: keysOf('debit'), refunds: keysOf('refund'), balance: user!.token_balance };
  }

  /** How many times the EVENTS stream holds an event of `type` whose data has `field` = `value`, read straight from the server. */
  async streamed(type: string, field: string, value: string): Promise<number> {
    const nc = await connect({ servers: this.natsUrl });
    try {
      const jsm = await jetstreamManager(nc);
      const { state } = await jsm.streams.info(EVENT_STREAM);
      let count = 0;
      for (let seq = state.first_seq; seq <= state.last_seq; seq++) {
        const stored = await jsm.streams.getMessage(EVENT_STREAM, { seq }).catch(() => null);
        const event = stored?.json<EventEnvelope>();
        if (event?.type === type && (event.data as Record<string, unknown>)[field] === value) count++;
      }
      return count;
    } finally {
      await nc.close();
    }
  }
}

/**
 * Identity whose next debit, once armed, commits and then answers an error instead of its result: what its caller
 * sees when the identity process is killed between its COMMIT and its reply, or its connection drops after COMMIT.
 */
export function identityLosingDebitAnswers(lose: { next: boolean }): ServiceDefinition {
  return { ...identityService, start: (context) => identityService.start({ ...context, bus: losingDebitAnswers(context.bus, lose) }) };
}

function losingDebitAnswers(bus: Bus, lose: { next: boolean }): Bus {
  const serve: Bus['serve'] = (rpc, handler) =>
    bus.serve(
      rpc,
      rpc.subject !== identityRpc.debitTokens.subject
        ? handler
        : async (payload, meta) => {
            const answer = await handler(payload, meta);
            if (!lose.next) return answer;
            lose.next = false;
            throw new AppError('UNAVAILABLE', 'The identity service went away after committing the debit');
          },
    );
  return new Proxy(bus, {
    get: (target, property) => {
      if (property === 'serve') return serve;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

export const MEDIA_MAIN = path.join(__dirname, '..', '..', 'services', 'media', 'dist', 'main.js');

/** A media service process of its own (the built one), with its stderr kept to explain an exit. */
export function spawnMediaProcess(env: NodeJS.ProcessEnv): { child: ChildProcess; stderr: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MEDIA_MAIN], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stderr: () => stderr, exited };
}
