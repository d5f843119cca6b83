import { randomUUID } from 'node:crypto';
import { defineRpc } from '@app/schema';
import { z } from 'zod';
import { type Bus, InProcessBus, NatsBus } from '../src/bus';
import { findUnstorableText } from '../src/bus/rpc-wire';
import { hasNats } from './test-infra';

const implementations: [string, () => Promise<Bus>][] = [['in-process', async () => InProcessBus.open()]];
if (hasNats()) implementations.push(['NATS + JetStream', () => NatsBus.connect(process.env.NATS_URL!, 'rpc-wire-test')]);

jest.setTimeout(20_000);

/** What pg, TypeORM and PGlite throw when the database is out of reach (plain objects: Node's own errors may come from another realm). */
const UNREACHABLE_FAILURES: [string, () => unknown][] = [
  ['a refused connection', () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
  [
    'a connection lost mid-query (TypeORM keeps the driver error)',
    () => Object.assign(new Error('Query failed'), { driverError: new Error('Connection terminated unexpectedly') }),
  ],
  [
    'a server shutting down (57P01)',
    () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  ],
  ['a server starting up (57P03)', () => Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
  ['a full pool', () => new Error('timeout exceeded when trying to connect')],
  ['a closed embedded engine', () => new Error('PGlite is closed')],
  ['a reset socket under a cause', () => new Error('query failed', { cause: { code: 'ECONNRESET', message: 'read ECONNRESET' } })],
];

describe.each(implementations)('request frames on %s', (_name, open) => {
  let bus: Bus;
  const ns = randomUUID().slice(0, 8);
  const save = defineRpc(
    `svc.wire${ns}.save`,
    z.object({ userId: z.string(), title: z.string().optional(), input: z.unknown() }),
    z.object({ saved: z.boolean() }),
  );

  beforeAll(async () => {
    bus = await open();
  });
  afterAll(async () => {
    await bus.close();
  });

  async function refusal(payload: Record<string, unknown>) {
    const handler = jest.fn(async () => ({ saved: true }));
    const sub = await bus.serve(save, handler);
    try {
      const error = await bus.request(save, { userId: 'u', input: {}, ...payload }).then(
        () => null,
        (failure: unknown) => failure,
      );
      expect(handler).not.toHaveBeenCalled();
      return error as { code: string; message: string; details?: { fieldErrors?: Record<string, string> } };
    } finally {
      await sub.unsubscribe();
    }
  }

  it('refuses U+0000 before the handler runs, naming the field as the client sent it', async () => {
    const error = await refusal({ title: 'a\u0000b' });
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'title contains a null character (U+0000), which is not allowed.',
      details: { fieldErrors: { title: 'title contains a null character (U+0000), which is not allowed.' } },
    });
    // `input` is the client's own object: paths start inside it, as the service's own validation reports them.
    const nested = await refusal({ input: { persona: { traits: ['Calm', 'x\u0000'] } } });
    expect(nested.details?.fieldErrors).toEqual({
      'persona.traits.1': 'persona.traits.1 contains a null character (U+0000), which is not allowed.',
    });
  });

  it.each([
    ['a high surrogate alone', '\ud800', 'U+D800'],
    ['a low surrogate alone', 'ok \udfff ok', 'U+DFFF'],
    ['a high surrogate at the end', 'trait \udbff', 'U+DBFF'],
    ['two high surrogates', '\ud83d\ud83d\ude00', 'U+D83D'],
  ])('refuses %s, which is not valid Unicode', async (_case, text, codePoint) => {
    const error = await refusal({ input: { traits: [text] } });
    expect(error).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `traits.0 contains an unpaired surrogate (${codePoint}), which is not valid Unicode.`,
    });
  });

  it('refuses a field name holding U+0000, naming the object it sits in', async () => {
    const error = await refusal({ input: { profile: { 'bad\u0000key': 'x' } } });
    expect(error.message).toBe('profile has a field name that contains a null character (U+0000), which is not allowed.');
  });

  it('lets any other text through: paired surrogates, control characters, every script', async () => {
    const handler = jest.fn(async () => ({ saved: true }));
    const sub = await bus.serve(save, handler);
    const text = '😀 emoji, \u0001\u001f controls, \ufeff BOM, 漢字, עברית, \uffff';
    await expect(bus.request(save, { userId: 'u', title: text, input: { [text]: [text] } })).resolves.toEqual({ saved: true });
    expect(handler).toHaveBeenCalledWith({ userId: 'u', title: text, input: { [text]: [text] } }, expect.anything());
    await sub.unsubscribe();
  });

  it.each(UNREACHABLE_FAILURES)('answers %s with UNAVAILABLE and a retry delay', async (_case, failure) => {
    const sub = await bus.serve(save, async () => {
      throw failure();
    });
    await expect(bus.request(save, { userId: 'u', input: {} })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'The service is temporarily unavailable. Please try again in a few seconds.',
      details: { retryAfterSeconds: 5 },
    });
    await sub.unsubscribe();
  });

  it('still answers a query the database refused as INTERNAL (our fault, not an outage)', async () => {
    const sub = await bus.serve(save, async () => {
      throw Object.assign(new Error('syntax error at or near "SELCT"'), { code: '42601' });
    });
    await expect(bus.request(save, { userId: 'u', input: {} })).rejects.toMatchObject({ code: 'INTERNAL', message: 'Internal error' });
    await sub.unsubscribe();
  });
});

describe('findUnstorableText', () => {
  it('walks a value nested far deeper than the call stack allows', () => {
    let deep: unknown = 'bottom\u0000';
    for (let level = 0; level < 200_000; level++) deep = [deep];
    expect(findUnstorableText(deep)).toMatchObject({ problem: 'contains a null character (U+0000), which is not allowed' });
    expect(findUnstorableText(deep)?.path).toHaveLength(200_000);
  });

  it('reports the first bad text in document order', () => {
    expect(findUnstorableText({ a: 'fine', b: ['ok', { c: '\u0000' }], d: '\ud800' })).toEqual({
      path: ['b', 1, 'c'],
      problem: 'contains a null character (U+0000), which is not allowed',
    });
  });
});
