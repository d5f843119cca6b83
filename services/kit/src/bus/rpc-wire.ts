import { AppError, ErrorBody, RequestMeta, type RpcDef, validationError } from '@app/schema';
import { z } from 'zod';
import { databaseUnavailableError, isDatabaseUnreachable } from '../db/database-errors';
import { logger } from '../logger';
import { runWithRequestContext } from '../tracing/request-context';
import { traceRpcServe } from '../tracing/spans';
import type { RpcHandler } from './bus';

/** What travels on the wire for a request and its reply (both transports use it, so both behave the same). */
export const RequestFrame = z.object({ payload: z.unknown(), meta: RequestMeta });
export const ReplyFrame = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorBody }),
]);
export type ReplyFrame = z.infer<typeof ReplyFrame>;

/**
 * Validates the payload, runs the handler, validates its answer, and turns every failure into an error frame.
 * It all runs inside the caller's request (its id on every log line) and, with tracing on, a SERVER span.
 */
export async function handleRequestFrame<R extends RpcDef>(rpc: R, handler: RpcHandler<R>, raw: unknown): Promise<ReplyFrame> {
  const frame = RequestFrame.safeParse(raw);
  const meta = frame.success ? frame.data.meta : {};
  return runWithRequestContext({ requestId: meta.requestId, userId: meta.userId }, () =>
    traceRpcServe(rpc.subject, meta, () => answerRequest(rpc, handler, frame, meta), outcomeOf),
  );
}

async function answerRequest<R extends RpcDef>(
  rpc: R,
  handler: RpcHandler<R>,
  frame: ReturnType<typeof RequestFrame.safeParse>,
  meta: RequestMeta,
): Promise<ReplyFrame> {
  const started = performance.now();
  try {
    if (!frame.success) throw new AppError('VALIDATION_FAILED', 'Malformed request');
    assertStorableText(rpc, frame.data.payload);
    const parsed = rpc.request.safeParse(frame.data.payload);
    if (!parsed.success) throw validationError(parsed.error);
    const result = await handler(parsed.data as z.output<R['request']>, meta);
    const data = rpc.response.parse(result);
    // requestId and userId come from the request context (the logger's mixin).
    logger.info({ subject: rpc.subject, latencyMs: ms(started) }, 'rpc');
    return { ok: true, data };
  } catch (error) {
    const log = { subject: rpc.subject, latencyMs: ms(started) };
    if (error instanceof AppError) {
      logger.info({ ...log, code: error.code }, 'rpc failed');
      return { ok: false, error: error.toBody() };
    }
    if (isDatabaseUnreachable(error)) {
      logger.warn({ ...log, err: error }, 'rpc failed: database unreachable');
      return { ok: false, error: databaseUnavailableError().toBody() };
    }
    logger.error({ ...log, err: error }, 'rpc crashed');
    return { ok: false, error: { code: 'INTERNAL', message: 'Internal error' } };
  }
}

const outcomeOf = (reply: ReplyFrame) => (reply.ok ? 'ok' : reply.error.code);

/** Turns a reply frame back into a value or a thrown AppError. */
export function readReplyFrame<R extends RpcDef>(rpc: R, raw: unknown): z.output<R['response']> {
  const frame = ReplyFrame.safeParse(raw);
  if (!frame.success) throw new AppError('INTERNAL', `Malformed reply on ${rpc.subject}`);
  if (!frame.data.ok) throw AppError.fromBody(frame.data.error);
  return rpc.response.parse(frame.data.data) as z.output<R['response']>;
}

export interface UnstorableText {
  /** Where the text sits in the value: object keys and array indexes, outermost first. */
  path: (string | number)[];
  /** What is wrong there, as the end of a sentence: "contains a null character (U+0000), which is not allowed". */
  problem: string;
}

// PostgreSQL cannot store U+0000 in text or jsonb; an unpaired surrogate is not Unicode at all (UTF-8 has no encoding for it).
// eslint-disable-next-line no-control-regex -- U+0000 is the very character looked for
const NOT_STORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** `text` with each character PostgreSQL cannot store replaced by U+FFFD, which keeps its length (offsets stay true). */
export function toStorableText(text: string): string {
  return text.replace(new RegExp(NOT_STORABLE.source, 'g'), '\uFFFD');
}

/** What makes `text` unstorable, or null when it is fine. */
export function describeUnstorableText(text: string): string | null {
  const found = NOT_STORABLE.exec(text);
  if (!found) return null;
  const codePoint = `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
  if (found[0] === '\u0000') return `contains a null character (${codePoint}), which is not allowed`;
  return `contains an unpaired surrogate (${codePoint}), which is not valid Unicode`;
}

interface Visit {
  value: unknown;
  key: string | number | null;
  parent: Visit | null;
}

/**
 * The first string, value or object key, that PostgreSQL cannot store or that is not valid Unicode,
 * in document order. Iterative, so a deeply nested value cannot exhaust the stack.
 */
export function findUnstorableText(value: unknown): UnstorableText | null {
  const pending: Visit[] = [{ value, key: null, parent: null }];
  while (pending.length > 0) {
    const visit = pending.pop()!;
    const problem = typeof visit.value === 'string' ? describeUnstorableText(visit.value) : null;
    if (problem) return { path: pathOf(visit), problem };
    if (!visit.value || typeof visit.value !== 'object') continue;
    const entries = Array.isArray(visit.value) ? visit.value.map((item, index) => [index, item] as const) : Object.entries(visit.value);
    for (const [key] of entries) {
      const keyProblem = typeof key === 'string' ? describeUnstorableText(key) : null;
      if (keyProblem) return { path: pathOf(visit), problem: `has a field name that ${keyProblem}` };
    }
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index]!;
      pending.push({ value: child, key, parent: visit });
    }
  }
  return null;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let current: Visit | null = visit; current && current.key !== null; current = current.parent) path.push(current.key);
  return path.reverse();
}

/** Refuses a payload holding text the database cannot store, naming the field as its service's own validation would. */
function assertStorableText(rpc: RpcDef, payload: unknown): void {
  const found = findUnstorableText(payload);
  if (!found) return;
  const field = clientFieldName(rpc, found.path);
  const message = `${field ?? 'The request'} ${found.problem}.`;
  throw new AppError('VALIDATION_FAILED', message, { fieldErrors: { [field ?? '_']: message } });
}

/**
 * The field's dotted path as the client named it, or null for the payload itself. A payload field the
 * contract leaves `z.unknown()` (`input`, `interest`) is the client's own object, which its service
 * validates with paths inside it, so those paths start inside it too.
 */
function clientFieldName(rpc: RpcDef, path: (string | number)[]): string | null {
  const [first, ...inside] = path;
  const shape: Record<string, unknown> = rpc.request instanceof z.ZodObject ? rpc.request.shape : {};
  const isClientObject = typeof first === 'string' && inside.length > 0 && shape[first] instanceof z.ZodUnknown;
  const segments = isClientObject ? inside : path;
  return segments.length > 0 ? segments.join('.') : null;
}

const ms = (started: number) => Math.round((performance.now() - started) * 10) / 10;
