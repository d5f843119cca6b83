import fs from 'node:fs';
import path from 'node:path';
import {
  type EventStreamExtent,
  type EventStreamReader,
  HIGHLY_EFFECTIVE_METHODS,
  HighlyEffectiveMethod,
  type StatsRebuildSummary,
  grantRoleOffline,
  identityService,
  rebuildStats,
  recordAgeCheckOffline,
} from '@app/identity';
import { Database, Infra, NATS_OPERATOR_PASSWORD_VARIABLE, assertValidEnvironment, lockDataDir } from '@app/kit';
import { EVENT_STREAM, Email, type EventEnvelope, Role } from '@app/schema';
import { DeliverPolicy, type JetStreamManager, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { AuthorizationError, type NatsConnection, connect } from '@nats-io/transport-node';
import { PLATFORM_ENVIRONMENTS } from './configuration';

const USAGE = `Usage: npm run admin -- grant-role <email> <member|moderator|admin> [reason]
       npm run admin -- verify-age <email> <method> <reference>
       npm run admin -- rebuild-stats [--replace-all]

grant-role gives a member a role (member takes moderator or admin away).
verify-age records an age check the operator ran outside the product (a provider's dashboard, an ID
seen by support): the member becomes verified. <method> is one Ofcom counts as highly effective:
${HIGHLY_EFFECTIVE_METHODS.join(', ')}; <reference> is the provider's or support's reference for the check.
rebuild-stats replays the whole event stream into fresh dashboard counters and swaps them in at once;
achievements the rebuilt figures reach are added, none is taken away. When retention has dropped the
start of the stream, members who joined before its oldest event keep their counters (--replace-all
rebuilds them too, from what the stream still holds).

All work in both run modes: with DATABASE_URL they write to PostgreSQL while the product runs; on the
embedded defaults, stop the product first (it holds DATA_DIR). Role grants and age checks are recorded
in the moderation audit log as done by the command line.`;

/** What a command does with identity's database (and the event stream), and what it answers on stdout. */
type Command = (db: Database, infra: Infra) => Promise<string>;

/** The command the arguments name, or the message that says what is wrong with them. */
function parse(args: string[]): Command | string {
  const [command, rawEmail, rawValue, ...rest] = args;
  if (command === 'rebuild-stats') {
    const options = args.slice(1);
    if (options.some((option) => option !== '--replace-all')) return USAGE;
    return (db, infra) => rebuildFromStream(db, infra, options.includes('--replace-all'));
  }
  if ((command !== 'grant-role' && command !== 'verify-age') || !rawEmail || !rawValue) return USAGE;
  const email = Email.safeParse(rawEmail);
  if (!email.success) return `Not an e-mail address: ${rawEmail}`;
  if (command === 'grant-role') {
    const role = Role.safeParse(rawValue);
    if (!role.success) return `Not a role: ${rawValue} (member, moderator or admin)`;
    const reason = rest.join(' ').trim() || `granted ${role.data} from the command line`;
    return async (db) => {
      const user = await grantRoleOffline(db, email.data, role.data, reason);
      return `${user.email} is now ${user.role}.`;
    };
  }
  const method = HighlyEffectiveMethod.safeParse(rawValue);
  if (!method.success) return `Not a highly effective method: ${rawValue} (${HIGHLY_EFFECTIVE_METHODS.join(', ')})`;
  const reference = rest.join(' ').trim();
  if (!reference) return 'Name the reference of the check (the provider’s or support’s), so the audit log can point to it.';
  return async (db) => {
    const user = await recordAgeCheckOffline(db, email.data, method.data, reference);
    return `${user.email} is now age-verified (${user.ageAssurance.method}).`;
  };
}

/** A line of the stream as the event log stores it: an object with a string id and type; anything else is skipped. */
function parseEvent(line: string): EventEnvelope | null {
  if (!line.trim()) return null;
  try {
    const value = JSON.parse(line) as Partial<EventEnvelope> | null;
    return typeof value?.id === 'string' && typeof value.type === 'string' ? (value as EventEnvelope) : null;
  } catch {
    return null;
  }
}

const SEGMENT_NAME = /^(\d+)-(\d+)\.jsonl$/;

/**
 * The embedded event log under DATA_DIR/events as the in-process bus leaves it (services/kit/src/bus/event-log.ts):
 * sealed segments oldest first, then the active file. The product is stopped (this process holds DATA_DIR), so it
 * is read once, whole; a second read finds nothing new.
 */
class EventLogFiles implements EventStreamReader {
  private isRead = false;
  private readonly held: EventStreamExtent = { firstSeq: 1, firstEventAt: null, createdAt: null };

  constructor(private readonly dir: string) {}

  async read(handle: (event: EventEnvelope) => void): Promise<void> {
    if (this.isRead) return;
    this.isRead = true;
    const segmentsDir = path.join(this.dir, 'segments');
    const segments = (fs.existsSync(segmentsDir) ? fs.readdirSync(segmentsDir) : [])
      .map((name) => ({ name, firstSeq: Number(SEGMENT_NAME.exec(name)?.[1] ?? Number.NaN) }))
      .filter((segment) => Number.isSafeInteger(segment.firstSeq))
      .sort((a, b) => a.firstSeq - b.firstSeq);
    this.held.firstSeq = segments[0]?.firstSeq ?? this.activeFirstSeq();
    // An events.legacy.jsonl is a log from before segments that the product has not split yet: it comes first.
    const files = [
      path.join(this.dir, 'events.legacy.jsonl'),
      ...segments.map((segment) => path.join(segmentsDir, segment.name)),
      path.join(this.dir, 'events.jsonl'),
    ];
    for (const file of files.filter((candidate) => fs.existsSync(candidate))) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
        const event = parseEvent(line);
        if (!event) continue;
        this.held.firstEventAt ??= event.occurredAt;
        handle(event);
      }
    }
  }

  async extent(): Promise<EventStreamExtent> {
    return this.held;
  }

  /** With no segment left, the checkpoint numbers the active file (every segment may have expired). */
  private activeFirstSeq(): number {
    try {
      const { activeFirstSeq } = JSON.parse(fs.readFileSync(path.join(this.dir, 'checkpoint.json'), 'utf8')) as {
        activeFirstSeq?: unknown;
      };
      return Number.isSafeInteger(activeFirstSeq) ? (activeFirstSeq as number) : 1;
    } catch {
      return 1;
    }
  }
}

/**
 * The JetStream stream, read from its first message through an ephemeral ordered consumer of this process's own, so
 * the services' durable consumers are untouched. Each read goes on to the stream's last message as of that read.
 */
class JetStreamEvents implements EventStreamReader {
  private nextSeq = 1;

  constructor(
    private readonly nc: NatsConnection,
    private readonly jsm: JetStreamManager,
  ) {}

  async read(handle: (event: EventEnvelope) => void): Promise<void> {
    const { state } = await this.jsm.streams.info(EVENT_STREAM);
    const start = Math.max(this.nextSeq, state.first_seq, 1);
    if (state.messages === 0 || start > state.last_seq) return;
    const consumer = await jetstream(this.nc).consumers.get(EVENT_STREAM, {
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: start,
    });
    try {
      if ((await consumer.info(true)).num_pending === 0) return;
      const messages = await consumer.consume({ max_messages: 256 });
      try {
        for await (const msg of messages) {
          const event = parseEvent(msg.string());
          if (event) handle(event);
          this.nextSeq = msg.seq + 1;
          if (msg.seq >= state.last_seq || msg.info.pending === 0) break;
        }
      } finally {
        await messages.close();
      }
    } finally {
      // Its inactivity threshold would remove it within minutes anyway.
      await consumer.delete().catch(() => undefined);
    }
  }

  async extent(): Promise<EventStreamExtent> {
    const { state, created } = await this.jsm.streams.info(EVENT_STREAM);
    return { firstSeq: state.first_seq, firstEventAt: state.messages > 0 ? state.first_ts : null, createdAt: created };
  }
}

/** The user `npm run nats:config -- --operator` adds, with every right (as `npm run events` signs in). */
const OPERATOR_USER = 'operator';

async function connectAsOperator(infra: Infra): Promise<NatsConnection> {
  const url = infra.natsUrl!;
  const password = process.env[NATS_OPERATOR_PASSWORD_VARIABLE]?.trim();
  const tls = infra.nats?.tls;
  try {
    return await connect({
      servers: url.split(',').map((server) => server.trim()),
      name: 'admin-rebuild-stats',
      maxReconnectAttempts: 0,
      ...(password ? { user: OPERATOR_USER, pass: password } : {}),
      ...(tls ? { tls: { ...tls } } : {}),
    });
  } catch (error) {
    const refused = error instanceof AuthorizationError || (error instanceof Error && /authorization violation/i.test(error.message));
    if (!refused) throw new Error(`Could not connect to NATS at ${url}: ${(error as Error).message}`);
    throw new Error(
      password
        ? `NATS refused the credentials of ${OPERATOR_USER} (authorization violation): check ${NATS_OPERATOR_PASSWORD_VARIABLE}`
        : `NATS asks for credentials: set ${NATS_OPERATOR_PASSWORD_VARIABLE} to the password of the user ${OPERATOR_USER} ` +
          '(a server configuration generated with npm run nats:config -- --operator)',
    );
  }
}

const COUNTER_NAMES: Record<string, string> = {
  chat_messages: 'chatMessages',
  characters_created: 'charactersCreated',
  images_generated: 'imagesGenerated',
  public_images: 'publicImages',
  total_likes: 'totalLikes',
};
/** Changed counters listed one a line, up to this many; the rest are counted. */
const CHANGES_LISTED = 50;

function describeRebuild(summary: StatsRebuildSummary): string {
  const lines = [
    `Replayed ${summary.eventsReplayed} of ${summary.eventsRead} events on the stream into the counters of ${summary.members} members.`,
  ];
  if (summary.changes.length === 0) lines.push('No counter changed: the live figures match the stream.');
  else {
    lines.push(`${summary.changes.length} counter${summary.changes.length === 1 ? '' : 's'} changed:`);
    for (const change of summary.changes.slice(0, CHANGES_LISTED)) {
      lines.push(`  ${change.userId} ${COUNTER_NAMES[change.counter]}: ${change.from} -> ${change.to}`);
    }
    if (summary.changes.length > CHANGES_LISTED) lines.push(`  … and ${summary.changes.length - CHANGES_LISTED} more`);
  }
  const awarded = summary.achievementsAwarded;
  if (awarded > 0)
    lines.push(`${awarded} achievement${awarded === 1 ? '' : 's'} newly reached ${awarded === 1 ? 'was' : 'were'} recorded and announced.`);
  if (!summary.streamComplete) {
    const start = summary.extent.firstEventAt ?? 'nothing (every event has expired)';
    lines.push(
      `Warning: the event stream no longer holds its oldest events (retention, EVENTS_MAX_AGE_HOURS / EVENTS_MAX_BYTES): it starts at ${start}. ` +
        `Activity before then cannot be replayed. ${summary.membersBeforeStream} member${summary.membersBeforeStream === 1 ? '' : 's'} joined before it: ` +
        (summary.keptMembers > 0
          ? 'their counters were left as they were (--replace-all rebuilds them from what the stream still holds).'
          : 'their counters were rebuilt from what the stream still holds (--replace-all).'),
    );
  }
  return lines.join('\n');
}

/** `rebuild-stats`: the embedded log under DATA_DIR, or the JetStream stream when NATS_URL is set. */
async function rebuildFromStream(db: Database, infra: Infra, replaceAll: boolean): Promise<string> {
  if (infra.natsUrl) {
    const nc = await connectAsOperator(infra);
    try {
      return describeRebuild(await rebuildStats(db, new JetStreamEvents(nc, await jetstreamManager(nc)), { replaceAll }));
    } finally {
      await nc.close();
    }
  }
  const dir = infra.eventLogDir;
  if (!dir)
    throw new Error(`DATA_DIR is ${infra.settings.dataDir}: its event log lived in the product's memory, so there is nothing to replay`);
  if (!fs.existsSync(dir)) throw new Error(`No event log in ${dir}: has the product run with DATA_DIR=${infra.settings.dataDir}?`);
  return describeRebuild(await rebuildStats(db, new EventLogFiles(dir), { replaceAll }));
}

/** Operators' command line: the first admin has to come from somewhere, and it should not be the operator token. */
async function main(args: string[]): Promise<number> {
  const command = parse(args);
  if (typeof command === 'string') {
    console.error(command);
    return 2;
  }
  assertValidEnvironment(process.env, PLATFORM_ENVIRONMENTS);
  const infra = Infra.fromEnvironment();
  const lock = await lockDataDir(infra);
  const db = await Database.open(infra, identityService);
  try {
    // The command's answer, on stdout for scripts.
    process.stdout.write(`${await command(db, infra)}\n`);
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await db.close();
    lock?.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
