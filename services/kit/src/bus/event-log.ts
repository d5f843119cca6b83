import fs from 'node:fs';
import path from 'node:path';
import type { EventEnvelope } from '@app/schema';
import { logger } from '../logger';
import { type ConsumeOptions } from './bus';
import { type EventRetention } from './event-retention';

/** A sealed segment's file name: the sequences of its first and last events, zero-padded so a listing sorts. */
const SEGMENT_NAME = /^(\d+)-(\d+)\.jsonl$/;
/** Bounds what a start reads (the active file) and what a consumer catching up holds in memory (one segment). */
export const SEGMENT_MAX_BYTES = 4 * 1024 ** 2;
/** A quiet log still seals daily, so its events can expire; retention therefore keeps an event for at most a day longer than its age limit. */
const SEGMENT_MAX_AGE_MS = 24 * 3_600_000;
/** JetStream's duplicate window on EVENTS: an id republished within it is stored once. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** Positions reach the disk within a second: a crash redelivers at most that much to a durable consumer. */
const CHECKPOINT_DELAY_MS = 1_000;
const READ_CHUNK_BYTES = 1024 ** 2;

interface SealedSegment {
  file: string;
  firstSeq: number;
  lastSeq: number;
  bytes: number;
  /** When its newest event was written (the file's mtime): retention counts from here. */
  sealedAtMs: number;
}

/** A consumer's copy of the sealed segment it is reading through. */
export interface SegmentReader {
  segment: SealedSegment | null;
  events: EventEnvelope[];
}

/** `checkpoint.json`: where the active file's numbering starts, and each durable consumer's next unacknowledged sequence. */
interface Checkpoint {
  activeFirstSeq: number;
  consumers: Record<string, number>;
}

export interface EventLogStats {
  sealedSegments: number;
  bytesOnDisk: number;
  /** Bytes read from disk since the log was opened, opening included. */
  bytesRead: number;
  bytesReadAtOpen: number;
  firstSeq: number;
  nextSeq: number;
}

interface LogFiles {
  active: string;
  legacy: string;
  segments: string;
  checkpoint: string;
}

/**
 * Events numbered from 1 in JSON lines: `events.jsonl` takes new events (so `tail -F` follows the stream) and is
 * sealed into `segments/<first>-<last>.jsonl` at SEGMENT_MAX_BYTES. A start reads the active file (and the newest
 * segment while it is within the duplicate window); consumers read older segments when they reach them. Segments
 * past the retention limits that every durable consumer has acknowledged are deleted.
 */
export class EventLog {
  private sealed: SealedSegment[] = [];
  /** The newest sealed segment, kept while it may hold ids a republish must not store again. */
  private previous: { segment: SealedSegment; events: EventEnvelope[]; ids: Set<string> } | null = null;
  private active: EventEnvelope[] = [];
  private activeIds = new Set<string>();
  private activeFirstSeq = 1;
  private activeBytes = 0;
  private activeSinceMs = 0;
  private fd: number | null = null;
  private readonly acknowledged = new Map<string, number>();
  private checkpointTimer: NodeJS.Timeout | null = null;
  private isClosed = false;
  private bytesRead = 0;
  private bytesReadAtOpen = 0;

  private constructor(
    private readonly files: LogFiles | null,
    private readonly retention: EventRetention,
    private readonly segmentMaxBytes: number,
  ) {}

  static inMemory(retention: EventRetention): EventLog {
    return new EventLog(null, retention, Number.POSITIVE_INFINITY);
  }

  static open(activeFile: string, retention: EventRetention, segmentMaxBytes: number): EventLog {
    const dir = path.dirname(activeFile);
    const files: LogFiles = {
      active: activeFile,
      legacy: path.join(dir, `${path.basename(activeFile, '.jsonl')}.legacy.jsonl`),
      segments: path.join(dir, 'segments'),
      checkpoint: path.join(dir, 'checkpoint.json'),
    };
    const log = new EventLog(files, retention, segmentMaxBytes);
    log.load(files);
    return log;
  }

  get isOnDisk(): boolean {
    return this.files !== null;
  }

  get firstSeq(): number {
    return this.sealed[0]?.firstSeq ?? this.activeFirstSeq;
  }

  get nextSeq(): number {
    return this.activeFirstSeq + this.active.length;
  }

  /** Stores an event unless its id is already in the active file or the previous segment; false for a duplicate. */
  append(envelope: EventEnvelope): boolean {
    if (this.activeIds.has(envelope.id) || this.previous?.ids.has(envelope.id)) return false;
    if (this.fd !== null) {
      const line = `${JSON.stringify(envelope)}\n`;
      fs.appendFileSync(this.fd, line);
      this.activeBytes += Buffer.byteLength(line);
    }
    if (this.active.length === 0) this.activeSinceMs = Date.now();
    this.active.push(envelope);
    this.activeIds.add(envelope.id);
    if (this.isActiveDue()) this.sealQuietly();
    return true;
  }

  /** The event at `seq`, or null when it is no longer kept. */
  read(seq: number, reader: SegmentReader): EventEnvelope | null {
    if (seq >= this.activeFirstSeq) return readFromMemory(this.active, seq - this.activeFirstSeq, reader);
    const previous = this.previous;
    if (previous && seq >= previous.segment.firstSeq) return readFromMemory(previous.events, seq - previous.segment.firstSeq, reader);
    if (!reader.segment || seq < reader.segment.firstSeq || seq > reader.segment.lastSeq) {
      const segment = this.sealed.find((candidate) => candidate.firstSeq <= seq && seq <= candidate.lastSeq);
      if (!segment) return null;
      reader.segment = segment;
      reader.events = this.readSegment(segment);
    }
    return reader.events[seq - reader.segment.firstSeq] ?? null;
  }

  startingPosition(options: ConsumeOptions): number {
    const stoppedAt = options.durableName ? this.acknowledged.get(options.durableName) : undefined;
    const start = stoppedAt ?? (options.deliver === 'all' ? this.firstSeq : this.nextSeq);
    return Math.min(Math.max(start, this.firstSeq), this.nextSeq);
  }

  /** Everything before `next` is acknowledged by the durable consumer `name`; written to the checkpoint shortly. */
  acknowledge(name: string, next: number): void {
    // A handler that finishes after close is delivered again after the restart, rather than overwrite a newer checkpoint.
    if (this.isClosed) return;
    this.acknowledged.set(name, next);
    if (!this.files || this.checkpointTimer) return;
    this.checkpointTimer = setTimeout(() => this.saveCheckpointQuietly(), CHECKPOINT_DELAY_MS).unref();
  }

  housekeep(): void {
    try {
      if (this.isActiveDue()) this.seal();
      else this.dropExpired();
    } catch (error) {
      logger.error({ err: error }, 'event log housekeeping failed; will retry');
    }
  }

  stats(): EventLogStats {
    return {
      sealedSegments: this.sealed.length,
      bytesOnDisk: this.sealedBytes() + this.activeBytes,
      bytesRead: this.bytesRead,
      bytesReadAtOpen: this.bytesReadAtOpen,
      firstSeq: this.firstSeq,
      nextSeq: this.nextSeq,
    };
  }

  close(): void {
    this.isClosed = true;
    if (this.fd === null) return;
    this.saveCheckpoint();
    fs.closeSync(this.fd);
    this.fd = null;
  }

  private load(files: LogFiles): void {
    const started = performance.now();
    fs.mkdirSync(files.segments, { recursive: true });
    // Before segments: one file and no checkpoint. Renamed first, so an interrupted migration is simply done again.
    if (!fs.existsSync(files.checkpoint) && fs.existsSync(files.active) && listSegments(files.segments).length === 0) {
      fs.renameSync(files.active, files.legacy);
    }
    if (fs.existsSync(files.legacy)) this.migrateLegacyLog(files);
    const checkpoint = readCheckpoint(files.checkpoint);
    for (const [name, next] of Object.entries(checkpoint?.consumers ?? {})) this.acknowledged.set(name, next);
    this.sealed = listSegments(files.segments);
    this.activeFirstSeq = Math.max(checkpoint?.activeFirstSeq ?? 1, (this.sealed.at(-1)?.lastSeq ?? 0) + 1);
    this.loadActive(files.active);
    this.loadPreviousIfRecent();
    this.fd = fs.openSync(files.active, 'a');
    // Records where the numbering stands, which the file names alone no longer tell once every segment has expired.
    this.saveCheckpoint();
    this.housekeep();
    this.bytesReadAtOpen = this.bytesRead;
    const { sealedSegments, bytesOnDisk, bytesRead } = this.stats();
    const ms = Math.round(performance.now() - started);
    logger.info({ events: this.nextSeq - this.firstSeq, sealedSegments, bytesOnDisk, bytesRead, ms }, 'event log opened');
  }

  /** Splits the single file of earlier versions into segments, dated by their newest events, then removes it. */
  private migrateLegacyLog(files: LogFiles): void {
    for (const leftover of listSegments(files.segments)) fs.rmSync(leftover.file, { force: true });
    const legacyMtimeMs = fs.statSync(files.legacy).mtimeMs;
    let nextSeq = 1;
    let lines: string[] = [];
    let bytes = 0;
    let newestMs = 0;
    let unreadable = 0;
    const flush = () => {
      if (lines.length === 0) return;
      const file = segmentFile(files.segments, nextSeq - lines.length, nextSeq - 1);
      fs.writeFileSync(file, lines.join(''));
      // occurredAt is the only per-event time the old format has; the file's mtime caps it.
      const sealedAt = new Date(Math.min(newestMs || legacyMtimeMs, legacyMtimeMs));
      fs.utimesSync(file, sealedAt, sealedAt);
      [lines, bytes, newestMs] = [[], 0, 0];
    };
    const addLine = (line: string) => {
      const event = parseEvent(line);
      if (!event) {
        if (line.trim()) unreadable++;
        return;
      }
      lines.push(`${line}\n`);
      bytes += Buffer.byteLength(line) + 1;
      nextSeq++;
      newestMs = Math.max(newestMs, Date.parse(event.occurredAt) || 0);
      if (bytes >= this.segmentMaxBytes) flush();
    };
    const { size, torn } = readLines(files.legacy, addLine);
    addLine(torn.toString('utf8'));
    flush();
    if (unreadable > 0) logger.warn({ lines: unreadable, file: files.legacy }, 'skipped unreadable (torn) lines of the event log');
    this.bytesRead += size;
    writeFileAtomically(files.checkpoint, serializeCheckpoint({ activeFirstSeq: nextSeq, consumers: {} }));
    fs.rmSync(files.legacy);
    logger.info({ events: nextSeq - 1, bytes: size }, 'moved the single-file event log of an earlier version into segments');
  }

  private loadActive(file: string): void {
    if (!fs.existsSync(file)) return;
    let unreadable = 0;
    const { size, torn } = readLines(file, (line) => {
      const event = parseEvent(line);
      if (event) this.active.push(event);
      else if (line.trim()) unreadable++;
    });
    if (unreadable > 0) logger.warn({ lines: unreadable, file }, 'skipping unreadable lines in the event log');
    this.bytesRead += size;
    this.activeBytes = size;
    if (torn.length > 0) this.repairTornLine(file, size, torn);
    for (const event of this.active) this.activeIds.add(event.id);
    const first = this.active[0];
    this.activeSinceMs = first ? Math.min(Date.parse(first.occurredAt) || Date.now(), Date.now()) : 0;
  }

  /** A write cut short by a crash: a whole event that only lacks its newline is kept; anything else is cut off so the next line starts clean. */
  private repairTornLine(file: string, size: number, torn: Buffer): void {
    const event = parseEvent(torn.toString('utf8'));
    if (event) {
      fs.appendFileSync(file, '\n');
      this.active.push(event);
      this.activeBytes += 1;
      return;
    }
    logger.warn({ bytes: torn.length, file }, 'skipping a torn line at the end of the event log');
    fs.truncateSync(file, size - torn.length);
    this.activeBytes -= torn.length;
  }

  private loadPreviousIfRecent(): void {
    const newest = this.sealed.at(-1);
    if (!newest || Date.now() - newest.sealedAtMs > DUPLICATE_WINDOW_MS) return;
    const events = this.readSegment(newest);
    this.previous = { segment: newest, events, ids: new Set(events.map((event) => event.id)) };
  }

  private readSegment(segment: SealedSegment): EventEnvelope[] {
    const events: EventEnvelope[] = [];
    try {
      const { size } = readLines(segment.file, (line) => {
        const event = parseEvent(line);
        if (event) events.push(event);
      });
      this.bytesRead += size;
    } catch (error) {
      // Removed underneath (by retention, or by hand): its events are no longer kept.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return events;
  }

  private isActiveDue(): boolean {
    if (!this.files || this.active.length === 0) return false;
    return this.activeBytes >= this.segmentMaxBytes || Date.now() - this.activeSinceMs >= SEGMENT_MAX_AGE_MS;
  }

  /** The event is stored either way; a seal that failed is tried again with the next event. */
  private sealQuietly(): void {
    try {
      this.seal();
    } catch (error) {
      logger.error({ err: error }, 'could not seal the event log segment; will retry');
    }
  }

  private seal(): void {
    const files = this.files!;
    const lastSeq = this.nextSeq - 1;
    const segment: SealedSegment = {
      file: segmentFile(files.segments, this.activeFirstSeq, lastSeq),
      firstSeq: this.activeFirstSeq,
      lastSeq,
      bytes: this.activeBytes,
      sealedAtMs: Date.now(),
    };
    // Closed before the rename, which Windows refuses for an open file.
    fs.closeSync(this.fd!);
    try {
      fs.renameSync(files.active, segment.file);
    } finally {
      this.fd = fs.openSync(files.active, 'a');
    }
    this.sealed.push(segment);
    this.previous = { segment, events: this.active, ids: this.activeIds };
    this.activeFirstSeq = lastSeq + 1;
    this.active = [];
    this.activeIds = new Set();
    this.activeBytes = 0;
    this.saveCheckpoint();
    this.dropExpired();
  }

  /** Oldest first, a segment goes once every durable consumer has acknowledged it and it is past the age or size limit. */
  private dropExpired(): void {
    const oldestUnacknowledged = Math.min(...this.acknowledged.values());
    const cutoffMs = Date.now() - this.retention.maxAgeMs;
    let bytes = this.sealedBytes() + this.activeBytes;
    let removed = 0;
    for (let oldest = this.sealed[0]; oldest; oldest = this.sealed[0]) {
      if (oldest.lastSeq >= oldestUnacknowledged) break;
      if (oldest.sealedAtMs >= cutoffMs && bytes <= this.retention.maxBytes) break;
      fs.rmSync(oldest.file, { force: true });
      this.sealed.shift();
      bytes -= oldest.bytes;
      removed++;
      if (this.previous?.segment === oldest) this.previous = null;
    }
    if (removed > 0) logger.info({ segments: removed, firstSeq: this.firstSeq }, 'removed event log segments past retention');
  }

  private sealedBytes(): number {
    return this.sealed.reduce((sum, segment) => sum + segment.bytes, 0);
  }

  private saveCheckpoint(): void {
    if (this.checkpointTimer) clearTimeout(this.checkpointTimer);
    this.checkpointTimer = null;
    const checkpoint: Checkpoint = { activeFirstSeq: this.activeFirstSeq, consumers: Object.fromEntries(this.acknowledged) };
    writeFileAtomically(this.files!.checkpoint, serializeCheckpoint(checkpoint));
  }

  private saveCheckpointQuietly(): void {
    try {
      this.saveCheckpoint();
    } catch (error) {
      logger.error({ err: error }, 'could not write the event log checkpoint; consumers may get events again after a restart');
    }
  }
}

/** Caught up with what is in memory: the consumer's copy of a segment can go. */
function readFromMemory(events: EventEnvelope[], index: number, reader: SegmentReader): EventEnvelope | null {
  reader.segment = null;
  reader.events = [];
  return events[index] ?? null;
}

function listSegments(dir: string): SealedSegment[] {
  const segments: SealedSegment[] = [];
  for (const name of fs.readdirSync(dir)) {
    const match = SEGMENT_NAME.exec(name);
    if (!match) continue;
    const file = path.join(dir, name);
    const { size, mtimeMs } = fs.statSync(file);
    segments.push({ file, firstSeq: Number(match[1]), lastSeq: Number(match[2]), bytes: size, sealedAtMs: mtimeMs });
  }
  return segments.sort((a, b) => a.firstSeq - b.firstSeq);
}

const segmentFile = (dir: string, firstSeq: number, lastSeq: number) =>
  path.join(dir, `${String(firstSeq).padStart(12, '0')}-${String(lastSeq).padStart(12, '0')}.jsonl`);

/** Calls `onLine` for each whole line, reading in chunks (an old single-file log may exceed the longest string); returns the size and the bytes after the last newline. */
function readLines(file: string, onLine: (line: string) => void): { size: number; torn: Buffer } {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(READ_CHUNK_BYTES);
    let carry = Buffer.alloc(0);
    let size = 0;
    for (let read = fs.readSync(fd, chunk); read > 0; read = fs.readSync(fd, chunk)) {
      size += read;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      const end = data.lastIndexOf(0x0a);
      if (end >= 0) for (const line of data.toString('utf8', 0, end).split('\n')) onLine(line);
      carry = Buffer.from(data.subarray(end + 1));
    }
    return { size, torn: carry };
  } finally {
    fs.closeSync(fd);
  }
}

function parseEvent(line: string): EventEnvelope | null {
  if (!line.trim()) return null;
  try {
    const value = JSON.parse(line) as Partial<EventEnvelope> | null;
    return typeof value?.id === 'string' && typeof value.type === 'string' ? (value as EventEnvelope) : null;
  } catch {
    return null;
  }
}

function readCheckpoint(file: string): Checkpoint | null {
  if (!fs.existsSync(file)) return null;
  try {
    const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Checkpoint>;
    const consumers = Object.entries(value.consumers ?? {}).filter(([, next]) => Number.isSafeInteger(next) && next > 0);
    const activeFirstSeq = Number.isSafeInteger(value.activeFirstSeq) ? value.activeFirstSeq! : 1;
    return { activeFirstSeq, consumers: Object.fromEntries(consumers) };
  } catch (error) {
    // Consumers then start over from the oldest event kept: delivery is at-least-once.
    logger.warn({ file, err: error }, 'the event log checkpoint is unreadable; durable consumers start from the oldest event kept');
    return null;
  }
}

const serializeCheckpoint = (checkpoint: Checkpoint) => `${JSON.stringify(checkpoint, null, 2)}\n`;

function writeFileAtomically(file: string, text: string): void {
  const temporary = `${file}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}
