import { AppError, HTTP_STATUS, type ErrorCode, type RequestMeta } from '@app/schema';
import { type Attributes, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { runOutsideRequestContext } from './request-context';

/** Set once the SDK is started: until then every function here is a plain call after one check. */
let tracingOn = false;

export function markTracingStarted(started: boolean): void {
  tracingOn = started;
}

export function isTracingOn(): boolean {
  return tracingOn;
}

const tracer = () => trace.getTracer('app.bus');

/** The active span's ids for a log line, or null when tracing is off or no span is active. */
export function activeTraceIds(): { traceId: string; spanId: string } | null {
  if (!tracingOn) return null;
  const span = trace.getActiveSpan()?.spanContext();
  return span && trace.isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : null;
}

function rpcAttributes(subject: string, meta: RequestMeta): Attributes {
  return { 'rpc.system': 'bus', 'bus.subject': subject, ...(meta.requestId ? { 'request.id': meta.requestId } : {}) };
}

/** `ok`, or the error code; codes that are the platform's fault (5xx) mark the span failed, a caller's mistake does not. */
function recordOutcome(span: Span, outcome: 'ok' | ErrorCode): void {
  span.setAttribute('rpc.outcome', outcome);
  if (outcome === 'ok') return;
  span.setAttribute('error.type', outcome);
  if (HTTP_STATUS[outcome] >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome });
}

/**
 * The caller's side of an RPC: inside a traced request, a CLIENT span `rpc <subject>` whose context travels in
 * `meta.traceparent`; otherwise the call itself.
 */
export function traceRpcRequest<T>(subject: string, meta: RequestMeta, call: (meta: RequestMeta) => Promise<T>): Promise<T> {
  if (!tracingOn || !trace.getActiveSpan()) return call(meta);
  const options = { kind: SpanKind.CLIENT, attributes: rpcAttributes(subject, meta) };
  return tracer().startActiveSpan(`rpc ${subject}`, options, async (span) => {
    const carrier: { traceparent?: string } = {};
    propagation.inject(context.active(), carrier);
    try {
      const result = await call({ ...meta, traceparent: carrier.traceparent });
      recordOutcome(span, 'ok');
      return result;
    } catch (error) {
      recordOutcome(span, error instanceof AppError ? error.code : 'INTERNAL');
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The serving side: the handler runs inside a SERVER span `rpc <subject>`, child of the caller's span when
 * `meta.traceparent` names one. `outcomeOf` reads the reply (handlers answer errors rather than throw them).
 */
export async function traceRpcServe<T>(
  subject: string,
  meta: RequestMeta,
  serve: () => Promise<T>,
  outcomeOf: (result: T) => 'ok' | ErrorCode,
): Promise<T> {
  if (!tracingOn) return serve();
  // From the root, not the active context: a NATS callback runs in whatever context its subscription was made in.
  const parent = meta.traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent: meta.traceparent }) : ROOT_CONTEXT;
  const span = tracer().startSpan(`rpc ${subject}`, { kind: SpanKind.SERVER, attributes: rpcAttributes(subject, meta) }, parent);
  try {
    const result = await context.with(trace.setSpan(parent, span), serve);
    recordOutcome(span, outcomeOf(result));
    return result;
  } catch (error) {
    recordOutcome(span, 'INTERNAL');
    throw error;
  } finally {
    span.end();
  }
}

/** Runs `fn` outside the request and the trace that happened to set it off (in-process event delivery). */
export function runDetached<T>(fn: () => T): T {
  return runOutsideRequestContext(() => (tracingOn ? context.with(ROOT_CONTEXT, fn) : fn()));
}

/**
 * One PGlite query inside a traced operation, as a CLIENT span like those the pg instrumentation makes for
 * PostgreSQL (PGlite is not a driver it knows). Statement text only, never its parameters.
 */
export function traceEmbeddedQuery<T>(sql: string, command: string, run: () => Promise<T>): Promise<T> {
  if (!tracingOn || !trace.getActiveSpan()) return run();
  // The attribute names pg's instrumentation uses (the stable database conventions).
  const attributes = { 'db.system.name': 'postgresql', 'db.operation.name': command, 'db.query.text': sql.slice(0, 2_000) };
  return tracer().startActiveSpan(`pglite.query:${command}`, { kind: SpanKind.CLIENT, attributes }, async (span) => {
    try {
      return await run();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
