import { AppError, ErrorBody, RequestMeta, type RpcDef, validationError } from '@app/schema';
import { z } from 'zod';
import { logger } from '../logger';
import type { RpcHandler } from './bus';

/** What travels on the wire for a request and its reply (both transports use it, so both behave the same). */
export const RequestFrame = z.object({ payload: z.unknown(), meta: RequestMeta });
export const ReplyFrame = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorBody }),
]);
export type ReplyFrame = z.infer<typeof ReplyFrame>;

/** Validates the payload, runs the handler, validates its answer, and turns every failure into an error frame. */
export async function handleRequestFrame<R extends RpcDef>(rpc: R, handler: RpcHandler<R>, raw: unknown): Promise<ReplyFrame> {
  const started = performance.now();
  const frame = RequestFrame.safeParse(raw);
  const meta = frame.success ? frame.data.meta : {};
  try {
    if (!frame.success) throw new AppError('VALIDATION_FAILED', 'Malformed request');
    const parsed = rpc.request.safeParse(frame.data.payload);
    if (!parsed.success) throw validationError(parsed.error);
    const result = await handler(parsed.data as z.output<R['request']>, meta);
    const data = rpc.response.parse(result);
    logger.info({ subject: rpc.subject, requestId: meta.requestId, userId: meta.userId, latencyMs: ms(started) }, 'rpc');
    return { ok: true, data };
  } catch (error) {
    const appError = error instanceof AppError ? error : null;
    const log = { subject: rpc.subject, requestId: meta.requestId, userId: meta.userId, latencyMs: ms(started) };
    if (appError) {
      logger.info({ ...log, code: appError.code }, 'rpc failed');
      return { ok: false, error: appError.toBody() };
    }
    logger.error({ ...log, err: error }, 'rpc crashed');
    return { ok: false, error: { code: 'INTERNAL', message: 'Internal error' } };
  }
}

/** Turns a reply frame back into a value or a thrown AppError. */
export function readReplyFrame<R extends RpcDef>(rpc: R, raw: unknown): z.output<R['response']> {
  const frame = ReplyFrame.safeParse(raw);
  if (!frame.success) throw new AppError('INTERNAL', `Malformed reply on ${rpc.subject}`);
  if (!frame.data.ok) throw AppError.fromBody(frame.data.error);
  return rpc.response.parse(frame.data.data) as z.output<R['response']>;
}

const ms = (started: number) => Math.round((performance.now() - started) * 10) / 10;
