/**
 * `npm run events -- tail …`: operators' view of the domain events, one envelope a line on stdout. In the embedded
 * mode it reads the event log under DATA_DIR as the in-process bus writes it (services/kit/src/bus/event-log.ts),
 * without writing there or taking the data-directory lock, so it works while the product runs or is stopped. With
 * NATS_URL it reads the JetStream stream EVENTS through an ephemeral ordered consumer, as the `operator` user.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Infra, NATS_OPERATOR_PASSWORD_VARIABLE, type NatsTls, patternCovers } from '@app/kit';
import { EVENT_STREAM, EVENT_SUBJECTS, type EventEnvelope, eventMatches, isSubjectPattern } from '@app/schema';
import { type Consumer, type JsMsg, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { AuthorizationError, type NatsConnection, connect } from '@nats-io/transport-node';

const DEFAULT_SINCE = '10m';
const USAGE_LINE = "Usage: npm run events -- tail [--subject 'evt.chat.>'] [--member <userId>] [--since 10m|2h|<ISO time>] [--follow]";
const USAGE = `${USAGE_LINE}

Prints the domain events that match, one JSON envelope a line, oldest first, then exits; with --follow it
goes on printing new ones until Ctrl-C.
  --subject  event types, with NATS wildcards: * one token, > the rest (default ${EVENT_SUBJECTS})
  --member   events the member acted in (actorId) or that name them (a userId or ownerId in data)
  --since    from how long ago (30s, 10m, 2h, 7d) or from a time (2025-06-01T12:00:00Z); default ${DEFAULT_SINCE}

The embedded mode reads the event log under DATA_DIR, while the product runs or not. With NATS_URL set it
reads the JetStream stream ${EVENT_STREAM}; on a server with users it signs in as the user operator, with the
password in ${NATS_OPERATOR_PASSWORD_VARIABLE} (npm run nats:config -- --operator).`;

/** The user `npm run nats:config -- --operator` adds, with every right: for people's tools, never for a process. */
const OPERATOR_USER = 'operator';
/** How often --follow looks for new events in the embedded log: quick enough to watch, cheap enough to leave running. */
const POLL_INTERVAL_MS = 250;
const DURATION_UNITS_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface TailOptions {
  subject: string;
  member: string | null;
  sinceMs: number;
  follow: boolean;
}

/** The options the arguments give, or the message that says what is wrong with them. */
function parse(args: string[], nowMs: number): TailOptions | string {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        subject: { type: 'string' },
        member: { type: 'string' },
        since: { type: 'string' },
        follow: { type: 'boolean' },
      },
    });
  } catch (error) {
    // parseArgs explains at length how to pass an argument that starts with a dash; the first sentence says what is wrong.
    return `${(error as Error).message.split('. ')[0]}\n${USAGE_LINE}`;
  }
  const { positionals, values } = parsed;
  if (positionals.length !== 1 || positionals[0] !== 'tail') return USAGE;
  const subject = values.subject ?? EVENT_SUBJECTS;
  if (!isSubjectPattern(subject))
    return `Not a subject: ${subject} (dot-separated tokens; * stands for one token, > for the rest)\n${USAGE_LINE}`;
  const member = values.member ?? null;
  if (member !== null && !UUID.test(member)) return `Not a member id: ${member} (a user id, a UUID)\n${USAGE_LINE}`;
  const since = values.since ?? DEFAULT_SINCE;
  const sinceMs = parseSince(since, nowMs);
  if (sinceMs === null)
    return `Not a duration or a time: ${since} (30s, 10m, 2h, 7d, or an ISO time such as 2025-06-01T12:00:00Z)\n${USAGE_LINE}`;
  return { subject, member, sinceMs, follow: values.follow ?? false };
}

function parseSince(text: string, nowMs: number): number | null {
  const duration = /^(\d+)([smhd])$/.exec(text);
  if (duration) return nowMs - Number(duration[1]) * DURATION_UNITS_MS[duration[2]!]!;
  // A date at least, so that a number without its unit is not read as a year.
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : ms;
}

function matches(options: TailOptions, envelope: EventEnvelope): boolean {
  // The event's own time, in both modes: the NATS consumer starts at --since too, but by the time the stream stored it.
  if (Date.parse(envelope.occurredAt) < options.sinceMs) return false;
  return eventMatches({ subject: options.subject, memberId: options.member }, envelope);
}

/** stdout, written at the pace its reader takes; a reader that went away (`| head`) ends the tail quietly. */
class Output {
  isClosed = false;

  constructor(private readonly onClosed: () => void) {
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      this.close();
    });
  }

  async write(envelope: EventEnvelope): Promise<void> {
    if (this.isClosed) return;
    if (process.stdout.write(`${JSON.stringify(envelope)}\n`)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        process.stdout.off('drain', done);
        process.stdout.off('error', done);
        resolve();
      };
      process.stdout.on('drain', done);
      process.stdout.on('error', done);
    });
  }

  private close(): void {
    this.isClosed = true;
    this.onClosed();
  }
}

type Emit = (envelope: EventEnvelope) => Promise<void>;

interface Segment {
  file: string;
  firstSeq: number;
  lastSeq: number;
  /** When its newest event was written (its mtime, which the rename that sealed it keeps). */
  writtenAtMs: number;
}

/** How far the active file has been read: a seal renames it and a new one starts, so its inode and numbering say which file it is. */
interface ActiveCursor {
  inode: number;
  firstSeq: number;
  offset: number;
  events: number;
}

const SEGMENT_NAME = /^(\d+)-(\d+)\.jsonl$/;
const READ_CHUNK_BYTES = 1024 ** 2;

/**
 * Reads the log as EventLog writes it: sealed `segments/<first>-<last>.jsonl`, then the active `events.jsonl`,
 * numbered on from the newest segment (or from `checkpoint.json` once every segment has expired). Events are
 * numbered as EventLog numbers them (readable lines only), so each is printed once, although a seal moves it
 * from the active file to a segment between two reads.
 */
class EventLogReader {
  private nextSeq = 1;
  private cursor: ActiveCursor | null = null;

  constructor(private readonly dir: string) {}

  /** Emits, oldest first, each event written since the last call and not before `sinceMs`. */
  async readNew(sinceMs: number, emit: Emit): Promise<void> {
    const { segments, activeFd, activeFirstSeq } = this.snapshot();
    try {
      for (const segment of segments) {
        if (segment.lastSeq < this.nextSeq) continue;
        // Every event in it was written before its mtime, and so happened before then.
        if (segment.writtenAtMs >= sinceMs) await this.emitSegment(segment, emit);
        this.nextSeq = Math.max(this.nextSeq, segment.lastSeq + 1);
      }
      if (activeFd !== null) await this.emitActive(activeFd, activeFirstSeq, emit);
    } finally {
      if (activeFd !== null) fs.closeSync(activeFd);
    }
  }

  /**
   * The segments and the open active file, taken so that they agree: a seal between the two listings may have
   * renamed the file just opened into a segment, leaving its numbering unknown, so then it looks again.
   */
  private snapshot(): { segments: Segment[]; activeFd: number | null; activeFirstSeq: number } {
    for (;;) {
      const before = listSegments(path.join(this.dir, 'segments'));
      const activeFd = openIfPresent(path.join(this.dir, 'events.jsonl'));
      const segments = listSegments(path.join(this.dir, 'segments'));
      if (before.at(-1)?.lastSeq === segments.at(-1)?.lastSeq) {
        const checkpointFirstSeq = readCheckpointFirstSeq(path.join(this.dir, 'checkpoint.json'));
        return { segments, activeFd, activeFirstSeq: Math.max(checkpointFirstSeq, (segments.at(-1)?.lastSeq ?? 0) + 1) };
      }
      if (activeFd !== null) fs.closeSync(activeFd);
    }
  }

  private async emitSegment(segment: Segment, emit: Emit): Promise<void> {
    let text: string;
    try {
      text = fs.readFileSync(segment.file, 'utf8');
    } catch (error) {
      // Removed by retention since the listing: its events are no longer kept.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let seq = segment.firstSeq;
    for (const line of text.split('\n')) {
      const event = parseEvent(line);
      if (!event) continue;
      if (seq >= this.nextSeq) await emit(event);
      seq++;
    }
  }

  private async emitActive(fd: number, firstSeq: number, emit: Emit): Promise<void> {
    const { ino, size } = fs.fstatSync(fd);
    let cursor = this.cursor;
    // A new file after a seal, or one cut back at a restart (a torn last line): read it from the start.
    if (!cursor || cursor.inode !== ino || cursor.firstSeq !== firstSeq || size < cursor.offset) {
      cursor = { inode: ino, firstSeq, offset: 0, events: 0 };
      this.cursor = cursor;
    }
    const chunk = Buffer.alloc(READ_CHUNK_BYTES);
    // The bytes after the last newline read so far: a line still being written, left for the next read.
    let carry = Buffer.alloc(0);
    for (let position = cursor.offset; ; ) {
      const read = fs.readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) return;
      position += read;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      const end = data.lastIndexOf(0x0a);
      const lines = end >= 0 ? data.toString('utf8', 0, end).split('\n') : [];
      carry = Buffer.from(data.subarray(end + 1));
      cursor.offset += end + 1;
      for (const line of lines) {
        const event = parseEvent(line);
        if (!event) continue;
        const seq = cursor.firstSeq + cursor.events++;
        if (seq < this.nextSeq) continue;
        await emit(event);
        this.nextSeq = seq + 1;
      }
    }
  }
}

function listSegments(dir: string): Segment[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const segments: Segment[] = [];
  for (const name of names) {
    const match = SEGMENT_NAME.exec(name);
    if (!match) continue;
    const file = path.join(dir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat) segments.push({ file, firstSeq: Number(match[1]), lastSeq: Number(match[2]), writtenAtMs: stat.mtimeMs });
  }
  return segments.sort((a, b) => a.firstSeq - b.firstSeq);
}

function openIfPresent(file: string): number | null {
  try {
    return fs.openSync(file, 'r');
  } catch (error) {
    // Between a seal's rename and the new file's creation, or before the first event.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function readCheckpointFirstSeq(file: string): number {
  try {
    const { activeFirstSeq } = JSON.parse(fs.readFileSync(file, 'utf8')) as { activeFirstSeq?: unknown };
    return Number.isSafeInteger(activeFirstSeq) ? (activeFirstSeq as number) : 1;
  } catch {
    // None yet (a log from before segments), or being replaced: the segments' names number the active file.
    return 1;
  }
}

/** A line as EventLog counts it: an object with a string id and type; anything else is not an event. */
function parseEvent(line: string): EventEnvelope | null {
  if (!line.trim()) return null;
  try {
    const value = JSON.parse(line) as Partial<EventEnvelope> | null;
    return typeof value?.id === 'string' && typeof value.type === 'string' ? (value as EventEnvelope) : null;
  } catch {
    return null;
  }
}

async function tailEventLog(infra: Infra, options: TailOptions, output: Output, stop: AbortSignal): Promise<void> {
  const dir = infra.eventLogDir;
  if (!dir) throw new Error(`DATA_DIR is ${infra.settings.dataDir}: its event log lives in the product's memory, not on disk`);
  if (!fs.existsSync(dir)) throw new Error(`No event log in ${dir}: has the product run with DATA_DIR=${infra.settings.dataDir}?`);
  const reader = new EventLogReader(dir);
  const emit: Emit = (envelope) => (matches(options, envelope) ? output.write(envelope) : Promise.resolve());
  for (;;) {
    await reader.readNew(options.sinceMs, emit);
    if (!options.follow || stop.aborted || output.isClosed) return;
    try {
      await sleep(POLL_INTERVAL_MS, undefined, { signal: stop });
    } catch {
      return;
    }
  }
}

async function connectAsOperator(url: string, tls: NatsTls | null, follow: boolean): Promise<NatsConnection> {
  const password = process.env[NATS_OPERATOR_PASSWORD_VARIABLE]?.trim();
  try {
    return await connect({
      servers: url.split(',').map((server) => server.trim()),
      name: 'events-tail',
      // A tail that follows rides out a NATS restart; one that reads what exists should fail rather than wait.
      maxReconnectAttempts: follow ? -1 : 0,
      ...(password ? { user: OPERATOR_USER, pass: password } : {}),
      ...(tls ? { tls: { ...tls } } : {}),
    });
  } catch (error) {
    const refused = error instanceof AuthorizationError || (error instanceof Error && /authorization violation/i.test(error.message));
    if (!refused) throw new Error(`Could not connect to NATS at ${url}: ${(error as Error).message}`);
    if (password)
      throw new Error(
        `NATS refused the credentials of ${OPERATOR_USER} (authorization violation): check ${NATS_OPERATOR_PASSWORD_VARIABLE}`,
      );
    throw new Error(
      `NATS asks for credentials: set ${NATS_OPERATOR_PASSWORD_VARIABLE} to the password of the user ${OPERATOR_USER} ` +
        '(a server configuration generated with npm run nats:config -- --operator)',
    );
  }
}

async function tailStream(infra: Infra, options: TailOptions, output: Output, stop: AbortSignal): Promise<void> {
  const url = infra.natsUrl!;
  const nc = await connectAsOperator(url, infra.nats?.tls ?? null, options.follow);
  try {
    // Without --follow the tail ends at the stream's newest event as of now, however busy the stream is meanwhile.
    const stream = await jetstreamManager(nc)
      .then((jsm) => jsm.streams.info(EVENT_STREAM))
      .catch((error: Error) => {
        if (/stream not found/i.test(error.message))
          throw new Error(`No ${EVENT_STREAM} stream on ${url}: no service has started on it yet`);
        throw error;
      });
    const lastSeq = stream.state.last_seq;
    // The server filters when it can; a pattern reaching beyond the stream's subjects is filtered here.
    const filter = patternCovers(EVENT_SUBJECTS, options.subject) ? options.subject : EVENT_SUBJECTS;
    const consumer = await jetstream(nc).consumers.get(EVENT_STREAM, {
      filter_subjects: filter,
      opt_start_time: new Date(options.sinceMs).toISOString(),
    });
    try {
      const { num_pending: pending } = await consumer.info(true);
      if (pending > 0 || options.follow) await printMessages(consumer, lastSeq, options, output, stop);
    } finally {
      // Its inactivity threshold would remove it within minutes anyway.
      await consumer.delete().catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}

async function printMessages(consumer: Consumer, lastSeq: number, options: TailOptions, output: Output, stop: AbortSignal): Promise<void> {
  const messages = await consumer.consume({ max_messages: 256 });
  const stopMessages = () => void messages.close();
  stop.addEventListener('abort', stopMessages, { once: true });
  try {
    for await (const msg of messages) {
      if (!options.follow && msg.seq > lastSeq) break;
      const envelope = readEnvelope(msg);
      if (envelope && matches(options, envelope)) await output.write(envelope);
      // Pending counts what matches the filter now: none left, or the last one stored at the start, ends the read.
      if ((!options.follow && (msg.info.pending === 0 || msg.seq >= lastSeq)) || output.isClosed) break;
    }
  } finally {
    stop.removeEventListener('abort', stopMessages);
    await messages.close();
  }
}

function readEnvelope(msg: JsMsg): EventEnvelope | null {
  try {
    return parseEvent(msg.string());
  } catch {
    return null;
  }
}

async function main(args: string[]): Promise<number> {
  const options = parse(args, Date.now());
  if (typeof options === 'string') {
    console.error(options);
    return 2;
  }
  const stop = new AbortController();
  const onSignal = () => {
    // A second Ctrl-C leaves at once, should stopping hang (an unreachable server).
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const output = new Output(() => stop.abort());
  try {
    const infra = Infra.fromEnvironment();
    if (infra.natsUrl) await tailStream(infra, options, output, stop.signal);
    else await tailEventLog(infra, options, output, stop.signal);
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

// process.exitCode rather than process.exit: what is still buffered for stdout gets written.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error((error as Error).message);
    process.exitCode = 1;
  },
);
