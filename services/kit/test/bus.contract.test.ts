import { randomUUID } from 'node:crypto';
import { AppError, type EventEnvelope, defineEvent, defineRpc } from '@app/schema';
import { z } from 'zod';
import { type Bus, InProcessBus, NatsBus } from '../src/bus';
import { eventually, hasNats } from './test-infra';

/** One contract, two transports: both buses must behave identically for every service. */
const implementations: [string, () => Promise<Bus>][] = [['in-process', async () => InProcessBus.open()]];
if (hasNats()) implementations.push(['NATS + JetStream', () => NatsBus.connect(process.env.NATS_URL!, 'bus-contract-test')]);

jest.setTimeout(20_000);

describe.each(implementations)('Bus contract: %s', (_name, open) => {
  let bus: Bus;
  let other: Bus;
  const ns = randomUUID().slice(0, 8);
  const echo = defineRpc(`svc.test${ns}.echo`, z.object({ text: z.string().min(1) }), z.object({ text: z.string(), servedBy: z.string() }));
  const thing = defineEvent(`evt.test${ns}.thing.happened`, 1, z.object({ n: z.number() }));

  beforeAll(async () => {
    bus = await open();
    // NATS: a second connection stands for a second process; in-process: the same bus.
    other = bus instanceof NatsBus ? await open() : bus;
  });
  afterAll(async () => {
    if (other !== bus) await other.close();
    await bus.close();
  });

  it('answers a request with the validated reply', async () => {
    const sub = await other.serve(echo, async ({ text }) => ({ text: text.toUpperCase(), servedBy: 'a' }));
    await expect(bus.request(echo, { text: 'hi' })).resolves.toEqual({ text: 'HI', servedBy: 'a' });
    await sub.unsubscribe();
  });

  it('rejects an invalid payload with VALIDATION_FAILED before the handler runs', async () => {
    const handler = jest.fn(async () => ({ text: 'x', servedBy: 'a' }));
    const sub = await other.serve(echo, handler);
    await expect(bus.request(echo, { text: '' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(handler).not.toHaveBeenCalled();
    await sub.unsubscribe();
  });

  it('carries an AppError code and message from the handler to the caller', async () => {
    const sub = await other.serve(echo, async () => {
      throw new AppError('INSUFFICIENT_TOKENS', 'Not enough tokens');
    });
    await expect(bus.request(echo, { text: 'x' })).rejects.toEqual(
      expect.objectContaining({ code: 'INSUFFICIENT_TOKENS', message: 'Not enough tokens' }),
    );
    await sub.unsubscribe();
  });

  it('hides unexpected handler crashes behind INTERNAL', async () => {
    const sub = await other.serve(echo, async () => {
      throw new Error('secret stack detail');
    });
    const error = (await bus.request(echo, { text: 'x' }).catch((e: unknown) => e)) as AppError;
    expect(error.code).toBe('INTERNAL');
    expect(error.message).not.toContain('secret');
    await sub.unsubscribe();
  });

  it('fails fast with UNAVAILABLE when nobody serves the subject', async () => {
    const nobody = defineRpc(`svc.test${ns}.nobody`, z.object({}), z.object({}));
    await expect(bus.request(nobody, {}, {}, 2000)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('times out with TIMEOUT when the handler does not answer in time', async () => {
    const sub = await other.serve(echo, () => new Promise(() => undefined));
    await expect(bus.request(echo, { text: 'x' }, {}, 300)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await sub.unsubscribe();
  });

  it("honours the caller's deadline: the handler sees the earlier one, and a request already past it is never sent", async () => {
    const deadlines: (number | undefined)[] = [];
    const sub = await other.serve(echo, async ({ text }, meta) => (deadlines.push(meta.deadlineAt), { text, servedBy: 'a' }));
    const soon = Date.now() + 2_000;
    await bus.request(echo, { text: 'x' }, { deadlineAt: soon }, 10_000);
    await bus.request(echo, { text: 'y' }, { deadlineAt: Date.now() + 60_000 }, 1_000);
    expect(deadlines[0]).toBe(soon);
    expect(deadlines[1]).toBeLessThanOrEqual(Date.now() + 1_000);
    await expect(bus.request(echo, { text: 'z' }, { deadlineAt: Date.now() - 1 })).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(deadlines).toHaveLength(2);
    const hang = await other.serve(echo, () => new Promise(() => undefined));
    await sub.unsubscribe();
    await expect(bus.request(echo, { text: 'w' }, { deadlineAt: Date.now() + 300 }, 60_000)).rejects.toMatchObject({ code: 'TIMEOUT' });
    await hang.unsubscribe();
  });

  it('shares requests between instances of a service (queue group): each request is handled once', async () => {
    const seen: string[] = [];
    const a = await bus.serve(echo, async ({ text }) => (seen.push(`a:${text}`), { text, servedBy: 'a' }));
    const b = await other.serve(echo, async ({ text }) => (seen.push(`b:${text}`), { text, servedBy: 'b' }));
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => bus.request(echo, { text: `m${i}` })));
    expect(replies).toHaveLength(20);
    expect(seen).toHaveLength(20);
    expect(new Set(seen.map((s) => s.split(':')[1])).size).toBe(20);
    await a.unsubscribe();
    await b.unsubscribe();
  });

  it('delivers published events in an envelope to a durable consumer, from the start of the stream', async () => {
    const published = await bus.publishEvent(thing, { n: 1 }, 'actor-1');
    expect(published).toMatchObject({ type: thing.type, version: 1, actorId: 'actor-1', data: { n: 1 } });
    const received: EventEnvelope[] = [];
    const sub = await other.consumeEvents({ subjects: [thing.type], durableName: `c${ns}a`, deliver: 'all' }, async (event) => {
      received.push(event);
    });
    await eventually(() => expect(received.map((event) => event.id)).toContain(published.id));
    expect(received.find((event) => event.id === published.id)).toEqual(published);
    await sub.unsubscribe();
  });

  it('redelivers an event whose handler failed (at-least-once)', async () => {
    let attempts = 0;
    const handled: number[] = [];
    const sub = await other.consumeEvents({ subjects: [thing.type], durableName: `c${ns}b`, deliver: 'new' }, async (event) => {
      const { n } = event.data as { n: number };
      if (n !== 42) return;
      attempts++;
      if (attempts === 1) throw new Error('transient');
      handled.push(n);
    });
    await bus.publishEvent(thing, { n: 42 }, null);
    await eventually(() => expect(handled).toEqual([42]), 10_000);
    expect(attempts).toBe(2);
    await sub.unsubscribe();
  });

  it('a live tail (deliver: new) sees only events published after it started', async () => {
    await bus.publishEvent(thing, { n: 100 }, null);
    const seen: number[] = [];
    const sub = await other.consumeEvents({ subjects: [thing.type], deliver: 'new' }, async (event) => {
      seen.push((event.data as { n: number }).n);
    });
    await bus.publishEvent(thing, { n: 101 }, null);
    await eventually(() => expect(seen).toContain(101));
    expect(seen).not.toContain(100);
    await sub.unsubscribe();
  });

  it('stores an envelope published twice (outbox retry) only once', async () => {
    const envelope: EventEnvelope = {
      id: randomUUID(),
      type: thing.type,
      version: 1,
      occurredAt: new Date().toISOString(),
      actorId: null,
      data: { n: 7 },
    };
    const seen: string[] = [];
    const sub = await other.consumeEvents({ subjects: [thing.type], deliver: 'new' }, async (event) => {
      seen.push(event.id);
    });
    await bus.publishEnvelope(envelope);
    await bus.publishEnvelope(envelope);
    await bus.publishEvent(thing, { n: 8 }, null);
    await eventually(() => expect(seen.length).toBeGreaterThanOrEqual(2));
    expect(seen.filter((id) => id === envelope.id)).toHaveLength(1);
    await sub.unsubscribe();
  });

  it('fans live messages out to every subscriber whose pattern matches', async () => {
    const a: unknown[] = [];
    const b: unknown[] = [];
    const s1 = await other.subscribeLive(`live.test${ns}.typing.*`, (data) => a.push(data));
    const s2 = await bus.subscribeLive(`live.test${ns}.>`, (data) => b.push(data));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await bus.publishLive(`live.test${ns}.typing.c1`, { isTyping: true });
    await bus.publishLive(`live.test${ns}.other.c1`, { x: 1 });
    await eventually(() => {
      expect(a).toEqual([{ isTyping: true }]);
      expect(b).toEqual([{ isTyping: true }, { x: 1 }]);
    });
    await s1.unsubscribe();
    await s2.unsubscribe();
  });

  it('once closed on purpose, is not ready and says it closed without a failure', async () => {
    const own = await open();
    await own.close();
    expect(await own.isReady()).toBe(false);
    await expect(own.closed()).resolves.toBeNull();
  });
});
