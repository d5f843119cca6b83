import { Environment, integer } from '@app/kit';

export interface ChatConfig {
  /** A streaming reply whose lease is older than this is presumed orphaned (its process died) and failed with a refund. */
  replyLeaseMs: number;
  /** How often partial reply text is saved, so a reconnecting client and a crash lose at most this much. */
  flushIntervalMs: number;
  /** How often each instance looks for orphaned replies. */
  sweepIntervalMs: number;
  /** Replies (sends and regenerations) a member may start per minute, across all conversations. */
  sendsPerMinute: number;
  /** Conversations a member may start per minute. */
  conversationsPerMinute: number;
  /** Conversations a member may keep; past it, one must be deleted before another starts. */
  conversationsPerMember: number;
  /** Worker threads that read character cards. */
  cardParserThreads: number;
  /** Card files that may wait for a thread; past it, imports are refused until one finishes. */
  cardParserQueue: number;
  /** A card still being read after this long is abandoned (its thread is stopped). */
  cardParseTimeoutMs: number;
  /** Demo responder: delay between streamed words. */
  demoChunkDelayMs: number;
}

const MS = { min: 1 };

/** Everything the chat service reads from its environment, its provider's settings aside (the README's table comes from here). */
export const chatEnvironment = new Environment('chat', {
  CHAT_REPLY_LEASE_MS: integer(15_000, {
    ...MS,
    meaning:
      'A streaming reply whose lease (renewed at every flush) has run out is presumed orphaned by a dead process and is failed and refunded by any chat instance.',
  }),
  CHAT_FLUSH_INTERVAL_MS: integer(250, {
    ...MS,
    meaning:
      'How often the partial text of a reply is saved (renewing its lease): what a reconnecting client reads, and the most a crash loses.',
  }),
  CHAT_SWEEP_INTERVAL_MS: integer(3_000, { ...MS, meaning: 'How often each chat instance looks for orphaned replies.' }),
  CHAT_DEMO_CHUNK_DELAY_MS: integer(35, { min: 0, meaning: 'Demo responder: delay between streamed words.' }),
  CHAT_SENDS_PER_MINUTE: integer(20, {
    min: 1,
    meaning:
      'Replies (sends and regenerations) one member may start per minute, across conversations; past it `RATE_LIMITED` (429, `Retry-After: 60`).',
  }),
  CHAT_CONVERSATIONS_PER_MINUTE: integer(10, {
    min: 1,
    meaning:
      'Conversations one member may start per minute; past it `RATE_LIMITED` (429) with `Retry-After` (seconds until the oldest of them is a minute old).',
  }),
  CHAT_CONVERSATIONS_PER_MEMBER: integer(1_000, {
    min: 1,
    meaning: 'Conversations one member may keep; past it `QUOTA_EXCEEDED` (429) until one is deleted.',
  }),
  CHAT_CARD_PARSER_THREADS: integer(1, {
    min: 1,
    meaning: 'Worker threads that read imported character cards (started on demand, stopped after 30 s idle).',
  }),
  CHAT_CARD_PARSER_QUEUE: integer(4, {
    min: 0,
    meaning: 'Card imports that may wait for a thread; past it, imports answer `UNAVAILABLE` (503, `Retry-After: 5`).',
  }),
  CHAT_CARD_PARSE_TIMEOUT_MS: integer(10_000, {
    ...MS,
    meaning:
      'A card still being read after this long (or after its caller stopped waiting) is abandoned, its thread stopped, and the import answers `TIMEOUT` (504).',
  }),
});

export function readChatConfig(env: NodeJS.ProcessEnv): ChatConfig {
  const vars = chatEnvironment.parse(env);
  return {
    replyLeaseMs: vars.CHAT_REPLY_LEASE_MS,
    flushIntervalMs: vars.CHAT_FLUSH_INTERVAL_MS,
    sweepIntervalMs: vars.CHAT_SWEEP_INTERVAL_MS,
    demoChunkDelayMs: vars.CHAT_DEMO_CHUNK_DELAY_MS,
    sendsPerMinute: vars.CHAT_SENDS_PER_MINUTE,
    conversationsPerMinute: vars.CHAT_CONVERSATIONS_PER_MINUTE,
    conversationsPerMember: vars.CHAT_CONVERSATIONS_PER_MEMBER,
    cardParserThreads: vars.CHAT_CARD_PARSER_THREADS,
    cardParserQueue: vars.CHAT_CARD_PARSER_QUEUE,
    cardParseTimeoutMs: vars.CHAT_CARD_PARSE_TIMEOUT_MS,
  };
}
