import { z } from 'zod';

/** A request/reply operation on subject `svc.<service>.<operation>`. */
export interface RpcDef<Req extends z.ZodType = z.ZodType, Res extends z.ZodType = z.ZodType> {
  readonly subject: string;
  readonly request: Req;
  readonly response: Res;
}

export const defineRpc = <Req extends z.ZodType, Res extends z.ZodType>(
  subject: string,
  request: Req,
  response: Res,
): RpcDef<Req, Res> => ({ subject, request, response });

export type RpcRequest<R extends RpcDef> = z.input<R['request']>;
export type RpcResponse<R extends RpcDef> = z.output<R['response']>;

/** A domain event type on subject `evt.<service>.<entity>.<verb>`, stored in the durable stream. */
export interface EventDef<Data extends z.ZodType = z.ZodType> {
  readonly type: string;
  readonly version: number;
  readonly data: Data;
}

export const defineEvent = <Data extends z.ZodType>(type: string, version: number, data: Data): EventDef<Data> => ({
  type,
  version,
  data,
});

/** Every stored event travels in this envelope; `id` is unique and consumers are idempotent on it. */
export const EventEnvelope = z.object({
  id: z.string().uuid(),
  type: z.string().regex(/^evt\.[a-z]+\.[a-z_]+\.[a-z_]+$/),
  version: z.number().int().positive(),
  occurredAt: z.string().datetime(),
  actorId: z.string().nullable(),
  data: z.unknown(),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: T };

/** Metadata that rides along with a bus request, for logs and tracing. */
export const RequestMeta = z.object({
  requestId: z.string().optional(),
  userId: z.string().optional(),
  /** Epoch ms after which the caller has stopped waiting; handlers skip expensive work past it. */
  deadlineAt: z.number().int().optional(),
  /** W3C trace context of the caller's span (`00-<trace id>-<span id>-<flags>`), present only while tracing is on. */
  traceparent: z.string().max(128).optional(),
});
export type RequestMeta = z.infer<typeof RequestMeta>;

export const EVENT_STREAM = 'EVENTS';
export const EVENT_SUBJECTS = 'evt.>';

/** A text refused by the content policy (evt.<service>.content.refused): what operators alert on. */
export const ContentRefusal = z.object({
  /** Where the text came from: image.prompt, chat.message, chat.title, chat.reply, chat.summary, character, card.import, story, report, image.generated, image.publish. */
  path: z.string().max(40),
  reason: z.enum(['minors', 'non_consent', 'real_person', 'unavailable', 'blocked_hash']),
  stage: z.enum(['lexical', 'model', 'hash']),
  userId: z.string().uuid().nullable(),
  /** Matched entries or model categories; never the member's text. */
  evidence: z.array(z.string().max(200)).max(10),
  /** The refused text, only when the operator keeps it (POLICY_RETAIN_REFUSED_TEXT). */
  text: z.string().max(4000).nullable(),
});
export type ContentRefusal = z.infer<typeof ContentRefusal>;
