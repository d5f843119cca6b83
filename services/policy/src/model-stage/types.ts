import type { CircuitBreakerOptions } from '@app/kit';
import type { PolicyCategory } from '../lexicons/lexicon';

export type { PolicyCategory };

/** What the model check says of a text. */
export interface ModelVerdict {
  allowed: boolean;
  /** The hard line the text crosses when refused by the model; null when allowed or when the model could not answer. */
  category: PolicyCategory | null;
  /** Short, key-free lines for moderators' logs: what the model flagged, or why it could not answer. */
  evidence: string[];
  /** Set when the model gave no verdict (down, timed out, malformed answer, circuit open): the verdict is the fail mode's. */
  unavailable?: boolean;
}

export type ModelStageKind = 'openai-moderation' | 'guard-chat';

/** What an unavailable model means: 'closed' refuses the text, 'open' lets it through. */
export type ModelFailMode = 'open' | 'closed';

export interface ModelStageSettings {
  /** `openai-moderation`: `POST /v1/moderations`; `guard-chat`: a guard model (Llama Guard 3) behind `POST /v1/chat/completions`. */
  kind: ModelStageKind;
  /** e.g. `https://api.openai.com` or `http://127.0.0.1:11434/v1`; a trailing `/v1` (and a pasted endpoint path) is accepted. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; unset for local servers that need none. Never logged or quoted in errors. */
  apiKey?: string | null;
  /** e.g. `omni-moderation-latest`, `llama-guard3:8b`, `meta-llama/Llama-Guard-3-8B`. */
  model: string;
  /** Time allowed for one whole check (every chunk of a long text included). */
  timeoutMs: number;
  failMode: ModelFailMode;
  /** Consecutive outages that open the circuit, and how long it stays open; defaults 5 and 30 s, like the chat and image providers. */
  circuitBreaker?: Partial<CircuitBreakerOptions>;
  /**
   * `openai-moderation` only: refuse as `minors` when `category_scores['sexual/minors']` reaches this score (0..1),
   * whatever `flagged` says. Unset: the boolean `categories['sexual/minors']` decides.
   */
  minorsScoreThreshold?: number;
  /** `guard-chat` only: overrides of GUARD_HAZARDS' mapping, by code (`{ S5: 'real_person' }`, `{ S12: 'non_consent' }`...). */
  guardCategories?: Readonly<Record<string, PolicyCategory | null>>;
  /** Texts longer than this are checked in chunks split on whitespace; default 8,000 characters. */
  maxChunkChars?: number;
  /** Chunks checked at the same time; default 3. */
  maxParallelChunks?: number;
  /** Texts needing more chunks than this are not sent (the fail mode answers); default 32 (about 256,000 characters). */
  maxChunks?: number;
}

/** What a model said of one chunk. */
export interface ChunkVerdict {
  allowed: boolean;
  category: PolicyCategory | null;
  evidence: string[];
}

/** One model protocol: the verdict for one chunk, or an UpstreamError when the model gave none. */
export interface ModelAdapter {
  readonly kind: ModelStageKind;
  readonly model: string;
  classify(text: string, limits: { signal: AbortSignal; timeoutMs: number }): Promise<ChunkVerdict>;
}
