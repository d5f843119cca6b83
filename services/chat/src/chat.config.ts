import { readInt } from '@app/kit';

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

/** An integer setting of at least `min`; anything else stops the process with a message naming the variable. */
function readIntAtLeast(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const value = readInt(env, name, fallback);
  if (value < min) throw new Error(`${name} must be an integer of at least ${min}, got "${env[name]}"`);
  return value;
}

export function readChatConfig(env: NodeJS.ProcessEnv): ChatConfig {
  return {
    replyLeaseMs: readInt(env, 'CHAT_REPLY_LEASE_MS', 15_000),
    flushIntervalMs: readInt(env, 'CHAT_FLUSH_INTERVAL_MS', 250),
    sweepIntervalMs: readInt(env, 'CHAT_SWEEP_INTERVAL_MS', 3_000),
    demoChunkDelayMs: readInt(env, 'CHAT_DEMO_CHUNK_DELAY_MS', 35),
    sendsPerMinute: readInt(env, 'CHAT_SENDS_PER_MINUTE', 20),
    conversationsPerMinute: readIntAtLeast(env, 'CHAT_CONVERSATIONS_PER_MINUTE', 10, 1),
    conversationsPerMember: readIntAtLeast(env, 'CHAT_CONVERSATIONS_PER_MEMBER', 1_000, 1),
    cardParserThreads: readIntAtLeast(env, 'CHAT_CARD_PARSER_THREADS', 1, 1),
    cardParserQueue: readIntAtLeast(env, 'CHAT_CARD_PARSER_QUEUE', 4, 0),
    cardParseTimeoutMs: readIntAtLeast(env, 'CHAT_CARD_PARSE_TIMEOUT_MS', 10_000, 1),
  };
}
