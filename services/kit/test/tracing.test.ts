import { randomUUID } from 'node:crypto';
import { AppError, type RequestMeta, defineEvent, defineRpc } from '@app/schema';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace';
import { z } from 'zod';
import { type Bus, InProcessBus, NatsBus } from '../src/bus';
import { createLogger } from '../src/logger';
import { currentRequestContext, runWithRequestContext } from '../src/tracing/request-context';
import { markTracingStarted } from '../src/tracing/spans';
import { eventually, hasNats } from './test-infra';

/** Trace context must cross both transports alike: the embedded bus and NATS. */
const implementations: [string, () => Promise<Bus>][] = [['in-process', async () => InProcessBus.open()]];
if (hasNats()) implementations.push(['NATS', () => NatsBus.connect(process.env.NATS_URL!, 'tracing-test')]);

jest.setTimeout(20_000);

// The SDK as a process with TRACING_EXPORTER set starts it, minus the instrumentations (jest loads modules its own way).
const exporter = new InMemorySpanExporter();
const processor = new SimpleSpanProcessor({ exporter });
const sdk = new NodeSDK({ spanProcessors: [processor], instrumentations: [], metricReaders: [], logRecordProcessors: [] });

beforeAll(() => {
  sdk.start();
  markTracingStarted(true);
});
afterAll(async () => {
  markTracingStarted(false);
  await sdk.shutdown();
});
beforeEach(() => exporter.reset());

/** The spans ended so far (the processor hands them over asynchronously). */
async function finishedSpans() {
  await processor.forceFlush();
  return exporter.getFinishedSpans();
}

const spanNamed = async (name: string, kind: SpanKind) => (await finishedSpans()).find((span) => span.name === name && span.kind === kind);

describe.each(implementations)('tracing over the bus: %s', (_name, open) => {
  let caller: Bus;
  let server: Bus;
  const ns = randomUUID().slice(0, 8);
  const echo = defineRpc(`svc.trace${ns}.echo`, z.object({ text: z.string() }), z.object({ text: z.string() }));
  const subject = echo.subject;

  beforeAll(async () => {
    caller = await open();
    server = caller instanceof NatsBus ? await open() : caller;
  });
  afterAll(async () => {
    if (server !== caller) await server.close();
    await caller.close();
  });

  it("runs the handler in a SERVER span, child of the caller's CLIENT span, inside the caller's request", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    let received: RequestMeta | undefined;
    const sub = await server.serve(echo, async ({ text }, meta) => {
      received = meta;
      expect(currentRequestContext()).toEqual({ requestId: 'req-trace', userId: 'user-1' });
      logger.info('inside the handler');
      return { text };
    });
    await runWithRequestContext({ requestId: 'req-trace' }, () =>
      trace.getTracer('test').startActiveSpan('request', async (span) => {
        await caller.request(echo, { text: 'hi' }, { requestId: 'req-trace', userId: 'user-1' });
        span.end();
      }),
    );
    await sub.unsubscribe();

    const client = (await spanNamed(`rpc ${subject}`, SpanKind.CLIENT))!;
    const served = (await spanNamed(`rpc ${subject}`, SpanKind.SERVER))!;
    expect(client).toBeDefined();
    expect(served).toBeDefined();
    expect(served.spanContext().traceId).toBe(client.spanContext().traceId);
    expect(served.parentSpanContext?.spanId).toBe(client.spanContext().spanId);
    expect(received?.traceparent).toBe(`00-${client.spanContext().traceId}-${client.spanContext().spanId}-01`);
    for (const span of [client, served]) {
      expect(span.attributes).toMatchObject({ 'bus.subject': subject, 'request.id': 'req-trace', 'rpc.outcome': 'ok' });
    }
    expect(lines).toEqual([
      expect.objectContaining({ requestId: 'req-trace', traceId: served.spanContext().traceId, spanId: served.spanContext().spanId }),
    ]);
  });

  it('records the error code: a failure of the platform marks the spans failed, a refusal does not', async () => {
    let failure: AppError = new AppError('UNAVAILABLE', 'down');
    const sub = await server.serve(echo, async () => {
      throw failure;
    });
    const call = () =>
      trace.getTracer('test').startActiveSpan('request', async (span) => {
        await caller.request(echo, { text: 'x' }).catch(() => undefined);
        span.end();
      });
    await call();
    failure = new AppError('NOT_FOUND', 'no such thing');
    await call();
    await sub.unsubscribe();

    const spans = (await finishedSpans()).filter((span) => span.name === `rpc ${subject}`);
    expect(spans.map((span) => [span.attributes['error.type'], span.status.code])).toEqual([
      ['UNAVAILABLE', SpanStatusCode.ERROR],
      ['UNAVAILABLE', SpanStatusCode.ERROR],
      ['NOT_FOUND', SpanStatusCode.UNSET],
      ['NOT_FOUND', SpanStatusCode.UNSET],
    ]);
  });

  it('makes no span and sends no trace context for a call outside any traced operation', async () => {
    let received: RequestMeta | undefined;
    const sub = await server.serve(echo, async ({ text }, meta) => {
      received = meta;
      return { text };
    });
    await caller.request(echo, { text: 'quiet' }, { requestId: 'background' });
    await sub.unsubscribe();
    expect(received?.traceparent).toBeUndefined();
    expect(await spanNamed(`rpc ${subject}`, SpanKind.CLIENT)).toBeUndefined();
  });
});

describe('in-process event delivery', () => {
  it('runs outside the request and the trace whose publish set it off', async () => {
    const bus = InProcessBus.open();
    const happened = defineEvent(`evt.trace${randomUUID().slice(0, 8)}.thing.happened`, 1, z.object({ n: z.number() }));
    const seen: { request: unknown; span: unknown }[] = [];
    await bus.consumeEvents({ subjects: [happened.type], deliver: 'new' }, async () => {
      seen.push({ request: currentRequestContext(), span: trace.getActiveSpan() });
    });
    await runWithRequestContext({ requestId: 'req-publisher' }, () =>
      trace.getTracer('test').startActiveSpan('request', async (span) => {
        await bus.publishEvent(happened, { n: 1 }, null);
        span.end();
      }),
    );
    await eventually(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toEqual({ request: undefined, span: undefined });
    await bus.close();
  });
});
