/**
 * `npm run bench:event-log`: how long the embedded bus takes to start on a long event log.
 *
 * BENCH_EVENTS (100,000) events the size of `evt.chat.message.created`, all acknowledged by a durable consumer.
 * Before: the single `events.jsonl` of earlier versions, which every start read whole and parsed line by line
 * (the loop `InProcessBus.open` ran, reproduced here). After: the same events in the segmented log, the last
 * ~3.7 MiB of them in the active file (almost a whole segment: the most a start reads), whose start reads the
 * active file, and the newest segment while it is within the duplicate window. Medians of BENCH_RUNS starts each,
 * and the one-time cost of moving an old file into segments.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventEnvelope } from '@app/schema';
import { InProcessBus } from '../services/kit/src/bus/in-process-bus';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** About 3.7 MiB of events: the active file just short of sealing. */
const ACTIVE_EVENTS = Math.min(12_000, Math.floor(EVENTS / 2));
const TYPE = 'evt.chat.message.created';

const messageCreated = (n: number): EventEnvelope => ({
  id: randomUUID(),
  type: TYPE,
  version: 1,
  occurredAt: new Date().toISOString(),
  actorId: randomUUID(),
  data: { conversationId: randomUUID(), messageId: randomUUID(), role: 'user', length: 40 + (n % 400) },
});

function writeSingleFileLog(file: string, events: EventEnvelope[]): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, events.map((event) => `${JSON.stringify(event)}\n`).join(''));
}

/** What a start did before segments: read the file whole, parse every line, index the ids. */
function startFromSingleFile(file: string): number {
  const started = performance.now();
  const events: EventEnvelope[] = [];
  const ids = new Set<string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const event = JSON.parse(line) as EventEnvelope;
    if (ids.has(event.id)) continue;
    ids.add(event.id);
    events.push(event);
  }
  return performance.now() - started;
}

async function startFromSegments(file: string): Promise<{ ms: number; bytesRead: number }> {
  const started = performance.now();
  const bus = InProcessBus.open({ eventLogFile: file });
  const ms = performance.now() - started;
  const { bytesReadAtOpen } = bus.eventLogStats();
  await bus.close();
  return { ms, bytesRead: bytesReadAtOpen };
}

/** The first start after an upgrade moves the old file into segments; newer events go to the active file; a durable consumer acknowledges all. */
async function migrateAndAcknowledge(file: string, newer: EventEnvelope[]): Promise<number> {
  const started = performance.now();
  const bus = InProcessBus.open({ eventLogFile: file });
  const ms = performance.now() - started;
  let received = 0;
  const done = new Promise<void>((resolve) => {
    void bus.consumeEvents({ subjects: ['evt.>'], durableName: 'bench', deliver: 'all' }, async () => {
      if (++received === EVENTS) resolve();
    });
  });
  for (const event of newer) await bus.publishEnvelope(event);
  await done;
  await bus.close();
  return ms;
}

async function startsFrom(file: string): Promise<{ ms: number; bytesRead: number }> {
  const starts: { ms: number; bytesRead: number }[] = [];
  for (let run = 0; run < RUNS; run++) starts.push(await startFromSegments(file));
  return { ms: median(starts.map((start) => start.ms)), bytesRead: starts[0]!.bytesRead };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-event-log-'));
  try {
    const events = Array.from({ length: EVENTS }, (_, n) => messageCreated(n));
    const single = path.join(root, 'single', 'events.jsonl');
    writeSingleFileLog(single, events);
    const size = fs.statSync(single).size;
    const before = median(Array.from({ length: RUNS }, () => startFromSingleFile(single)));

    const segmented = path.join(root, 'segmented', 'events.jsonl');
    writeSingleFileLog(segmented, events.slice(0, EVENTS - ACTIVE_EVENTS));
    const migration = await migrateAndAcknowledge(segmented, events.slice(EVENTS - ACTIVE_EVENTS));
    const soon = await startsFrom(segmented);
    // Past the duplicate window the newest segment is no longer read at start either.
    const segmentFiles = fs
      .readdirSync(path.join(root, 'segmented', 'segments'))
      .map((name) => path.join(root, 'segmented', 'segments', name));
    const later = new Date(Date.now() - 5 * 60_000);
    for (const file of segmentFiles) fs.utimesSync(file, later, later);
    const quiet = await startsFrom(segmented);

    console.log(`event log: ${EVENTS.toLocaleString('en')} events, ${mib(size)}; median of ${RUNS} starts`);
    console.log(`before (single file, read whole):  ${before.toFixed(1)} ms, ${mib(size)} read`);
    console.log(
      `after (${segmentFiles.length} segments), within 2 min of the last write: ${soon.ms.toFixed(1)} ms, ${mib(soon.bytesRead)} read`,
    );
    console.log(
      `after (${segmentFiles.length} segments), later: ${quiet.ms.toFixed(1)} ms, ${mib(quiet.bytesRead)} read (the active file)`,
    );
    console.log(`ratio before/after: ${(before / soon.ms).toFixed(1)}x within 2 min, ${(before / quiet.ms).toFixed(1)}x later`);
    console.log(
      `one-time move of an old file of ${(EVENTS - ACTIVE_EVENTS).toLocaleString('en')} events into segments: ${migration.toFixed(1)} ms`,
    );
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main();
