import type { PolicyPath } from '@app/policy';
import type { MessageStatus, SamplerSettings } from '@app/schema';
import type { PromptMessage } from '../providers/chat-provider';

/** What is being written: a chat reply or a story passage. Also the `generation` label of the metrics. */
export type GenerationKind = 'chat_reply' | 'story_passage';

/** One streamed generation: a turn (a message or a passage) of a subject (a conversation or a story), already charged. */
export interface GenerationRef {
  kind: GenerationKind;
  /** The conversation or story. */
  subjectId: string;
  /** The message or passage whose text is written. */
  turnId: string;
  userId: string;
  /** Which version of the turn is written: a chat reply's swipe; 0 for passages. */
  variant: number;
  /** The ledger key the turn was charged under; a failure refunds it. */
  debitKey: string;
}

/** Older turns that fell out of the prompt: after a completed turn they are folded into the subject's rolling summary. */
export interface SummaryWork {
  previous: string | null;
  basedOnUptoSeq: number | null;
  turns: { seq: number; role: 'user' | 'assistant'; content: string }[];
}

export interface GenerationJob extends GenerationRef {
  prompt: PromptMessage[];
  /** The character's or conversation's sampler settings; the provider's defaults where absent. */
  sampling?: SamplerSettings | null;
  /** A model the provider lists, instead of its default. */
  model?: string | null;
  /** Text the turn already begins with (a continued reply); what the model writes follows it. */
  prefix?: string;
  summarize?: SummaryWork | null;
}

/** How a turn ended. `extras`: what the kind's `finalize` drew from the text (a passage's choices). */
export interface GenerationOutcome {
  content: string;
  status: Exclude<MessageStatus, 'streaming'>;
  errorCode: string | null;
  extras?: Record<string, unknown>;
}

export interface CompletedStats {
  model: string;
  latencyMs: number;
  firstChunkMs: number | null;
  promptTokens: number | null;
  completionTokens: number | null;
  length: number;
}

export interface FailedStats {
  code: string;
  cancelled: boolean;
  refunded: boolean;
  latencyMs: number;
}

export type FinishRecord = { completed: CompletedStats } | { failed: FailedStats };

/** A streaming turn whose lease ran out: its process died or lost its database. */
export interface OrphanedTurn extends GenerationRef {
  content: string;
  startedAt: Date;
}

/**
 * One kind of generated turn as its feature stores, announces and shows it: chat replies (conversations) and story
 * passages (stories) each provide one. The engine knows nothing else of them; unit tests give it fakes.
 */
export interface TurnKind {
  readonly kind: GenerationKind;
  /** Where the content policy counts refusals of this kind's output. */
  readonly policyPath: PolicyPath;
  /** The ledger reason written on a refund. */
  readonly refundReason: string;
  /** What is stored from the final text (a passage splits off its choices); pure. */
  finalize(text: string): { content: string; extras?: Record<string, unknown> };
  /** Saves partial text and renews the lease; false when the turn is no longer streaming (taken over). */
  saveProgress(ref: GenerationRef, text: string, leaseMs: number): Promise<boolean>;
  /**
   * In one transaction: ends the turn if it is still streaming, touches its subject and emits the kind's completed or
   * failed event; then shows the ended turn live. False when the turn had already ended (another process ended it).
   */
  finish(ref: GenerationRef, outcome: GenerationOutcome, record: FinishRecord): Promise<boolean>;
  /** Streaming turns of this kind whose lease ran out, oldest first. */
  orphaned(limit: number): Promise<OrphanedTurn[]>;
  /** Keeps a rolling summary unless the one it extends changed meanwhile; false when not kept. */
  saveSummary(subjectId: string, summary: string, work: SummaryWork): Promise<boolean>;
  publishTyping(subjectId: string, typing: boolean): Promise<void>;
  publishDelta(ref: GenerationRef, offset: number, text: string, sentAt?: number): Promise<void>;
}

/** The ledger as the engine needs it: a failed turn's charge goes back, exactly once. */
export interface RefundPort {
  refund(userId: string, debitKey: string, reason: string): Promise<boolean>;
}

/** What conversations and stories ask of the engine (GenerationEngine); unit tests give them a fake. */
export interface Generations {
  /** Starts writing a turn already recorded as streaming and charged. */
  begin(job: GenerationJob): void;
  /** Whichever instance writes the turn stops it; the text so far is kept. */
  requestStop(turnId: string): Promise<void>;
  /** Ends, failed and refunded, a turn recorded as streaming whose generation could not be started. */
  abandon(ref: GenerationRef, code: string): Promise<void>;
}
