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
  /** Demo responder: delay between streamed words. */
  demoChunkDelayMs: number;
}

export function readChatConfig(env: NodeJS.ProcessEnv): ChatConfig {
  return {
    replyLeaseMs: readInt(env, 'CHAT_REPLY_LEASE_MS', 15_000),
    flushIntervalMs: readInt(env, 'CHAT_FLUSH_INTERVAL_MS', 250),
    sweepIntervalMs: readInt(env, 'CHAT_SWEEP_INTERVAL_MS', 3_000),
    demoChunkDelayMs: readInt(env, 'CHAT_DEMO_CHUNK_DELAY_MS', 35),
    sendsPerMinute: readInt(env, 'CHAT_SENDS_PER_MINUTE', 20),
  };
}
