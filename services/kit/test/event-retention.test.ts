import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVENT_STREAM, type EventEnvelope, defineEvent } from '@app/schema';
import { type StreamConfig, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { z } from 'zod';
import { type Bus, InProcessBus, NatsBus } from '../src/bus';
import { DEFAULT_EVENT_RETENTION, type EventRetention, readEventRetention } from '../src/bus/event-retention';
import { PrivateNatsServer, natsServerBinary } from './nats-server';
import { eventually } from './test-infra';

jest.setTimeout(30_000);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const GIB = 1024 ** 3;
const thing = defineEvent('evt.test.thing.happened', 1, z.object({ n: z.number() }));

describe('EVENTS_MAX_AGE_HOURS and EVENTS_MAX_BYTES', () => {
  it('default to a month and 1 GiB', () => {
    expect(readEventRetention({})).toEqual({ maxAgeMs: 30 * DAY_MS, maxBytes: GIB });
    expect(readEventRetention({ EVENTS_MAX_AGE_HOURS: '', EVENTS_MAX_BYTES: ' ' })).toEqual(DEFAULT_EVENT_RETENTION);
  });

  it('are read as whole hours and bytes', () => {
    expect(readEventRetention({ EVENTS_MAX_AGE_HOURS: '48', EVENTS_MAX_BYTES: '2147483648' })).toEqual({
      maxAgeMs: 48 * HOUR_MS,
      maxBytes: 2 * GIB,
    });
  });

  it.each([
    ['EVENTS_MAX_AGE_HOURS', '1.5'],
    ['EVENTS_MAX_AGE_HOURS', '0'],
    ['EVENTS_MAX_AGE_HOURS', '-3'],
    ['EVENTS_MAX_AGE_HOURS', 'two days'],
    ['EVENTS_MAX_AGE_HOURS', '1e3'],
    ['EVENTS_MAX_BYTES', '10GB'],
    ['EVENTS_MAX_BYTES', '1000'],
  ])('refuse %s=%s, naming the variable', (name, value) => {
    expect(() => readEventRetention({ [name]: value })).toThrow(new RegExp(`^${name} must be a whole number .* got "${value}"$`));
  });
});

describe('the embedded event log', () => {
  /** About 50 events per segment, so a few thousand events make dozens of segments. */
  const SEGMENT_BYTES = 8 * 1024;
  let dir: string;
  const eventsDir = () => path.join(dir, 'events');
  const open = (retention?: EventRetention) =>
    InProcessBus.open({ eventLogFile: path.join(eventsDir(), 'events.jsonl'), segmentMaxBytes: SEGMENT_BYTES, retention });
  const segmentFiles = () =>
    fs
      .readdirSync(path.join(eventsDir(), 'segments'))
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name) => path.join(eventsDir(), 'segments', name));
  const bytesOnDisk = () =>
    [...segmentFiles(), path.join(eventsDir(), 'events.jsonl')].reduce((sum, file) => sum + fs.statSync(file).size, 0);
  /** The sequences a segment file holds, from its name. */
  const rangeOf = (file: string) => path.basename(file, '.jsonl').split('-').map(Number) as [number, number];
  const numbers = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

  const publish = async (bus: Bus, from: number, to: number) => {
    for (const n of numbers(from, to)) await bus.publishEvent(thing, { n }, null);
  };
  /** A durable consumer (deliver all) that collects the numbers it receives. */
  const consume = async (bus: Bus, durableName: string) => {
    const seen: number[] = [];
    const subscription = await bus.consumeEvents({ subjects: [thing.type], durableName, deliver: 'all' }, async (event) => {
      seen.push((event.data as { n: number }).n);
    });
    return { seen, stop: () => subscription.unsubscribe() };
  };
  const envelope = (n: number, occurredAt = new Date()): EventEnvelope => ({
    id: randomUUID(),
    type: thing.type,
    version: 1,
    occurredAt: occurredAt.toISOString(),
    actorId: null,
    data: { n },
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'event-log-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('after a restart reads only what a durable consumer has not acknowledged, and delivers exactly that', async () => {
    const bus = open();
    const stats = await consume(bus, 'stats');
    const audit = await consume(bus, 'audit');
    await publish(bus, 0, 1000);
    await eventually(() => expect(audit.seen).toHaveLength(1000));
    await audit.stop();
    // Published while `audit` is not running: everyone else acknowledges them.
    await publish(bus, 1000, 2000);
    await eventually(() => expect(stats.seen).toEqual(numbers(0, 2000)));
    await bus.close();
    expect(segmentFiles().length).toBeGreaterThan(20);

    const restarted = open();
    const atOpen = restarted.eventLogStats();
    expect(atOpen.bytesReadAtOpen).toBeLessThan(atOpen.bytesOnDisk / 10);
    const statsAgain = await consume(restarted, 'stats');
    const auditAgain = await consume(restarted, 'audit');
    await eventually(() => expect(auditAgain.seen).toEqual(numbers(1000, 2000)));
    expect(statsAgain.seen).toEqual([]);
    // The first half, which both had acknowledged, stayed on disk unread.
    const { bytesRead, bytesOnDisk: total } = restarted.eventLogStats();
    expect(bytesRead).toBeLessThan(total * 0.65);
    await restarted.close();
  });

  it('removes segments past the age limit once every durable consumer has acknowledged them, and keeps the ones it has not', async () => {
    const retention = { maxAgeMs: DAY_MS, maxBytes: GIB };
    const bus = open(retention);
    const stats = await consume(bus, 'stats');
    const audit = await consume(bus, 'audit');
    await publish(bus, 0, 600);
    await eventually(() => expect(audit.seen).toHaveLength(600));
    await audit.stop();
    await publish(bus, 600, 1200);
    await eventually(() => expect(stats.seen).toHaveLength(1200));
    await bus.close();
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
    const sealed = segmentFiles();
    for (const file of sealed) fs.utimesSync(file, twoDaysAgo, twoDaysAgo);

    const restarted = open(retention);
    const kept = segmentFiles();
    expect(kept.length).toBeLessThan(sealed.length);
    // `audit` has acknowledged up to event 600 (sequence 601): the segment holding it is the oldest kept.
    const [first, last] = rangeOf(kept[0]!);
    expect(first).toBeLessThanOrEqual(601);
    expect(last).toBeGreaterThanOrEqual(601);
    const auditAgain = await consume(restarted, 'audit');
    await eventually(() => expect(auditAgain.seen).toEqual(numbers(600, 1200)));

    // Acknowledged by everyone now: the next segment sealed takes the old ones with it.
    await publish(restarted, 1200, 1300);
    await eventually(() => expect(segmentFiles().every((file) => fs.statSync(file).mtimeMs > twoDaysAgo.getTime())).toBe(true));
    const newcomer = await consume(restarted, 'newcomer');
    await eventually(() => expect(newcomer.seen.at(-1)).toBe(1299));
    expect(newcomer.seen[0]).toBeGreaterThanOrEqual(1000);
    await restarted.close();
  });

  it('stays within the byte limit by removing the oldest acknowledged segments', async () => {
    const retention = { maxAgeMs: 30 * DAY_MS, maxBytes: 64 * 1024 };
    const bus = open(retention);
    const stats = await consume(bus, 'stats');
    await publish(bus, 0, 2000);
    await eventually(() => expect(stats.seen).toHaveLength(2000));
    await bus.close();

    const restarted = open(retention);
    expect(bytesOnDisk()).toBeLessThanOrEqual(retention.maxBytes + SEGMENT_BYTES);
    const newcomer = await consume(restarted, 'newcomer');
    await eventually(() => expect(newcomer.seen.at(-1)).toBe(1999));
    // What is kept is the newest part of the stream, without gaps.
    expect(newcomer.seen[0]).toBeGreaterThan(1000);
    expect(newcomer.seen).toEqual(numbers(newcomer.seen[0]!, 2000));
    await restarted.close();
  });

  it('moves the single file of an earlier version into segments once, leaving out events past the age limit and a torn last line', async () => {
    fs.mkdirSync(eventsDir());
    const longAgo = new Date(Date.now() - 40 * DAY_MS);
    const old = numbers(0, 250).map((n) => envelope(n, longAgo));
    const recent = numbers(250, 500).map((n) => envelope(n));
    const lines = [...old, ...recent].map((event) => `${JSON.stringify(event)}\n`).join('');
    fs.writeFileSync(path.join(eventsDir(), 'events.jsonl'), `${lines}{"id":"5d0c`);

    const bus = open();
    expect(segmentFiles().length).toBeGreaterThan(5);
    expect(fs.readdirSync(eventsDir()).sort()).toEqual(['checkpoint.json', 'events.jsonl', 'segments']);
    const stats = await consume(bus, 'stats');
    await eventually(() => expect(stats.seen.at(-1)).toBe(499));
    // Segments are dated by their newest event: the ones entirely older than 30 days did not come along.
    expect(stats.seen[0]).toBeGreaterThan(0);
    expect(stats.seen[0]).toBeLessThanOrEqual(250);
    expect(stats.seen).toEqual(numbers(stats.seen[0]!, 500));
    await bus.publishEvent(thing, { n: 500 }, null);
    await eventually(() => expect(stats.seen.at(-1)).toBe(500));
    await bus.close();

    const restarted = open();
    const statsAgain = await consume(restarted, 'stats');
    await restarted.publishEvent(thing, { n: 501 }, null);
    await eventually(() => expect(statsAgain.seen).toEqual([501]));
    await restarted.close();
  });

  it('skips a torn last line, and the events written after it survive the next restart', async () => {
    const bus = open();
    await publish(bus, 0, 3);
    await bus.close();
    // A write cut short by a crash.
    fs.appendFileSync(path.join(eventsDir(), 'events.jsonl'), '{"id":"0b7c4e2a-');

    const restarted = open();
    await publish(restarted, 3, 4);
    await restarted.close();

    const again = open();
    const stats = await consume(again, 'stats');
    await eventually(() => expect(stats.seen).toEqual([0, 1, 2, 3]));
    await again.close();
  });

  it('stores an envelope republished after a restart only once', async () => {
    const event = envelope(7);
    const bus = open();
    await bus.publishEnvelope(event);
    await bus.close();

    const restarted = open();
    await restarted.publishEnvelope(event);
    await restarted.publishEvent(thing, { n: 8 }, null);
    const stats = await consume(restarted, 'stats');
    await eventually(() => expect(stats.seen).toEqual([7, 8]));
    await restarted.close();
  });
});

/**
 * A private nats-server: every suite on the shared server connects with its own settings, which would
 * change the EVENTS limits under this test's feet (and lowering them there would drop other suites' events).
 */
(natsServerBinary() ? describe : describe.skip)('the EVENTS stream limits (private nats-server)', () => {
  let nats: PrivateNatsServer;
  const streamConfig = async (): Promise<StreamConfig> => {
    const nc = await connect({ servers: nats.url() });
    try {
      return (await (await jetstreamManager(nc)).streams.info(EVENT_STREAM)).config;
    } finally {
      await nc.close();
    }
  };
  const limitsOf = (config: StreamConfig) => ({
    maxAgeMs: config.max_age / 1_000_000,
    maxBytes: config.max_bytes,
    discard: config.discard,
  });

  beforeAll(async () => {
    nats = await PrivateNatsServer.start();
  });
  afterAll(async () => {
    await nats?.stop();
  });

  it('creates the stream with the configured limits, dropping the oldest events first, and brings them to new ones at the next start', async () => {
    const first = await NatsBus.connect(nats.url(), 'retention-test', { retention: { maxAgeMs: 48 * HOUR_MS, maxBytes: 256 * 1024 ** 2 } });
    expect(limitsOf(await streamConfig())).toEqual({ maxAgeMs: 48 * HOUR_MS, maxBytes: 256 * 1024 ** 2, discard: 'old' });
    const published = await first.publishEvent(thing, { n: 1 }, null);
    await first.close();

    const second = await NatsBus.connect(nats.url(), 'retention-test', {
      retention: { maxAgeMs: 72 * HOUR_MS, maxBytes: 512 * 1024 ** 2 },
    });
    expect(limitsOf(await streamConfig())).toEqual({ maxAgeMs: 72 * HOUR_MS, maxBytes: 512 * 1024 ** 2, discard: 'old' });
    // Updated in place, not created anew: what it held is still delivered.
    const seen: string[] = [];
    const subscription = await second.consumeEvents(
      { subjects: [thing.type], durableName: 'retention-test', deliver: 'all' },
      async (event) => {
        seen.push(event.id);
      },
    );
    await eventually(() => expect(seen).toEqual([published.id]));
    await subscription.unsubscribe();
    await second.close();
  });

  it('applies the defaults when nothing is configured', async () => {
    const bus = await NatsBus.connect(nats.url(), 'retention-test');
    expect(limitsOf(await streamConfig())).toEqual({ ...DEFAULT_EVENT_RETENTION, discard: 'old' });
    await bus.close();
  });
});
