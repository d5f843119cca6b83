import {
  type CallOutcome,
  CircuitBreaker,
  type CircuitBreakerOptions,
  Environment,
  UpstreamError,
  type UpstreamErrorKind,
  integer,
  logger,
  recordProviderError,
  stripUndefined,
  oneOf,
  text,
  url,
} from '@app/kit';
import { DEFAULT_MAX_CHUNK_CHARS, splitIntoChunks } from './model-stage/chunks';
import { GuardChatAdapter } from './model-stage/guard-chat';
import { KEY_VARIABLE, URL_VARIABLE, normaliseModelBaseUrl } from './model-stage/http';
import { OpenAiModerationAdapter } from './model-stage/openai-moderation';
import type { ChunkVerdict, ModelAdapter, ModelStageKind, ModelStageSettings, ModelVerdict, PolicyCategory } from './model-stage/types';

/**
 * Stage 2 of the content policy: an optional model an operator configures (OpenAI's moderation API, or a guard
 * model such as Llama Guard 3 behind an OpenAI-compatible chat endpoint) asked whether a text crosses one of
 * the platform's hard lines. Long texts are checked in chunks; a model that is down, slow or answers nonsense
 * gives the fail mode's verdict (`unavailable: true`), and after repeated outages a circuit breaker stops
 * calling it for a while. The HTTP exchange is kit's UpstreamExchange, the breaker kit's CircuitBreaker.
 */

export type { ModelVerdict, ModelStageSettings, ModelStageKind, ModelFailMode } from './model-stage/types';
export { GUARD_HAZARDS, type GuardHazard, type GuardAnswer, parseGuardAnswer } from './model-stage/guard-chat';
export { OPENAI_MODERATION_CATEGORIES } from './model-stage/openai-moderation';
export { splitIntoChunks, DEFAULT_MAX_CHUNK_CHARS } from './model-stage/chunks';
export { normaliseModelBaseUrl } from './model-stage/http';

export const DEFAULT_MODEL_TIMEOUT_MS = 5_000;
export const DEFAULT_FAILURE_THRESHOLD = 5;
export const DEFAULT_COOLDOWN_MS = 30_000;
export const DEFAULT_MAX_PARALLEL_CHUNKS = 3;
export const DEFAULT_MAX_CHUNKS = 32;
/** The model's circuit breaker as operators see it in discovery and `provider_circuit_state`. */
export const MODERATION_MODEL_CIRCUIT = 'moderation-model';

/**
 * Failures that say the model server is down or overwhelmed and open the circuit: time-outs, 5xx, unreachable,
 * malformed answers, and 429 (backing off is the answer to it). A refused key, an unknown model or a rejected
 * request still give the fail mode's verdict, but the server is alive, so they do not count.
 */
const OUTAGE_KINDS: ReadonlySet<UpstreamErrorKind> = new Set(['timeout', 'unavailable', 'rate-limited']);

/** When chunks cross different lines, the verdict names the gravest. */
const SEVERITY: readonly PolicyCategory[] = ['minors', 'non_consent', 'real_person'];

export interface ModelStage {
  readonly kind: ModelStageKind;
  readonly model: string;
  /** The circuit breaker's state, for health reports. */
  readonly state: 'closed' | 'open' | 'half-open';
  /**
   * The model's verdict on `text`. Never rejects for a model failure (the fail mode answers, `unavailable: true`);
   * rejects with `signal.reason` when the caller's signal aborts, the request to the model being stopped at once.
   */
  check(text: string, signal?: AbortSignal): Promise<ModelVerdict>;
}

/** The model stage for `settings`; throws an Error for an invalid setting (bad URL, empty model, bad timeout). */
export function createModelStage(settings: ModelStageSettings): ModelStage {
  const model = settings.model?.trim();
  if (!model) throw new Error('The moderation model needs a model name');
  if (!Number.isFinite(settings.timeoutMs) || settings.timeoutMs <= 0) throw new Error('The moderation model time-out must be positive');
  const threshold = settings.minorsScoreThreshold;
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) throw new Error('The minors score threshold must be between 0 and 1');
  const root = normaliseModelBaseUrl(settings.baseUrl);
  const apiKey = settings.apiKey?.trim() || null;
  const adapter: ModelAdapter =
    settings.kind === 'openai-moderation'
      ? new OpenAiModerationAdapter({ root, apiKey, model, minorsScoreThreshold: threshold })
      : settings.kind === 'guard-chat'
        ? new GuardChatAdapter({ root, apiKey, model, categories: settings.guardCategories })
        : unknownKind(settings.kind);
  return new BreakerModelStage(adapter, settings);
}

function unknownKind(kind: never): never {
  throw new Error(`Unknown moderation model kind ${JSON.stringify(kind)}: use openai-moderation or guard-chat`);
}

/** What one chunk's check came to. */
type ChunkOutcome = { verdict: ChunkVerdict } | { failure: UpstreamError };

class BreakerModelStage implements ModelStage {
  private readonly breaker: CircuitBreaker;
  private readonly failureThreshold: number;
  private readonly maxChunkChars: number;
  private readonly maxParallel: number;
  private readonly maxChunks: number;

  constructor(
    private readonly adapter: ModelAdapter,
    private readonly settings: ModelStageSettings,
  ) {
    const breaker: CircuitBreakerOptions = {
      name: MODERATION_MODEL_CIRCUIT,
      failureThreshold: DEFAULT_FAILURE_THRESHOLD,
      cooldownMs: DEFAULT_COOLDOWN_MS,
      ...stripUndefined(settings.circuitBreaker ?? {}),
    };
    this.failureThreshold = breaker.failureThreshold;
    this.breaker = new CircuitBreaker(breaker);
    this.maxChunkChars = positive(settings.maxChunkChars, DEFAULT_MAX_CHUNK_CHARS);
    this.maxParallel = positive(settings.maxParallelChunks, DEFAULT_MAX_PARALLEL_CHUNKS);
    this.maxChunks = positive(settings.maxChunks, DEFAULT_MAX_CHUNKS);
  }

  get kind(): ModelStageKind {
    return this.adapter.kind;
  }
  get model(): string {
    return this.adapter.model;
  }
  get state(): 'closed' | 'open' | 'half-open' {
    return this.breaker.state;
  }

  async check(input: string, signal?: AbortSignal): Promise<ModelVerdict> {
    signal?.throwIfAborted();
    if (!input.trim()) return { allowed: true, category: null, evidence: [] };
    const chunks = splitIntoChunks(input, this.maxChunkChars);
    if (chunks.length > this.maxChunks) {
      return this.failVerdict(
        `text too long for the model check (${chunks.length} chunks of ${this.maxChunkChars} characters, limit ${this.maxChunks})`,
      );
    }
    const admission = this.breaker.admit();
    if (admission === 'refused') {
      return this.failVerdict(`model check skipped: ${this.failureThreshold} failures in a row opened the circuit`);
    }
    let outcomes: ChunkOutcome[];
    try {
      outcomes = await this.checkChunks(chunks, signal);
    } catch (error) {
      // Not a model failure (those are outcomes): still end the admission, so a half-open trial is not stuck.
      this.breaker.record(admission, 'other');
      throw error;
    }
    this.breaker.record(admission, breakerOutcome(outcomes));
    if (signal?.aborted) throw signal.reason;
    return this.combine(outcomes, chunks.length);
  }

  /** Every chunk's outcome, at most maxParallel at a time; a refused chunk stops the others (the answer is known). */
  private async checkChunks(chunks: string[], callerSignal: AbortSignal | undefined): Promise<ChunkOutcome[]> {
    const deadline = Date.now() + this.settings.timeoutMs;
    const refusal = new AbortController();
    const signal = callerSignal ? AbortSignal.any([callerSignal, refusal.signal]) : refusal.signal;
    const outcomes: ChunkOutcome[] = new Array(chunks.length);
    let next = 0;
    const worker = async () => {
      while (next < chunks.length && !signal.aborted) {
        const index = next++;
        // The time limit is the whole check's: the first chunks (started at once) get all of it, later ones what is left.
        const timeoutMs = index < this.maxParallel ? this.settings.timeoutMs : Math.max(1, deadline - Date.now());
        try {
          const verdict = await this.adapter.classify(chunks[index], { signal, timeoutMs });
          outcomes[index] = { verdict };
          if (!verdict.allowed) refusal.abort();
        } catch (error) {
          const failure = error instanceof UpstreamError ? error : new UpstreamError('unavailable', 'The moderation check failed');
          outcomes[index] = { failure };
          recordProviderError(MODERATION_MODEL_CIRCUIT, failure.kind);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.maxParallel, chunks.length) }, worker));
    return outcomes;
  }

  private combine(outcomes: ChunkOutcome[], total: number): ModelVerdict {
    const label = (index: number, line: string) => (total > 1 ? `chunk ${index + 1}/${total}: ${line}` : line);
    const evidence: string[] = [];
    const crossed = new Set<PolicyCategory>();
    let failure: UpstreamError | null = null;
    for (const [index, outcome] of outcomes.entries()) {
      if (!outcome) continue;
      if ('verdict' in outcome) {
        evidence.push(...outcome.verdict.evidence.map((line) => label(index, line)));
        if (outcome.verdict.category) crossed.add(outcome.verdict.category);
      } else if (outcome.failure.kind !== 'cancelled') {
        failure ??= outcome.failure;
        evidence.push(label(index, `model check unavailable: ${outcome.failure.message}`));
      }
    }
    // A refusal is definite even when other chunks went unchecked.
    const category = SEVERITY.find((candidate) => crossed.has(candidate));
    if (category) return { allowed: false, category, evidence };
    if (failure) {
      this.logFailure(failure);
      return this.failVerdict(null, evidence);
    }
    return { allowed: true, category: null, evidence };
  }

  /** The fail mode's verdict for a text the model gave no verdict on. */
  private failVerdict(reason: string | null, evidence: string[] = []): ModelVerdict {
    const lines = reason ? [...evidence, reason] : evidence;
    return { allowed: this.settings.failMode === 'open', category: null, evidence: lines, unavailable: true };
  }

  private logFailure(failure: UpstreamError): void {
    // The message is key-free (kit quotes provider text with the key redacted); the error's cause is not logged.
    logger.warn(
      {
        kind: this.adapter.kind,
        model: this.adapter.model,
        failure: failure.kind,
        status: failure.status,
        failMode: this.settings.failMode,
      },
      `moderation model unavailable: ${failure.message}`,
    );
  }
}

/** An outage when any chunk met one; a success when the model answered (stopped siblings of a refused chunk aside). */
function breakerOutcome(outcomes: ChunkOutcome[]): CallOutcome {
  const failures = outcomes.flatMap((outcome) => (outcome && 'failure' in outcome ? [outcome.failure] : []));
  if (failures.some((failure) => OUTAGE_KINDS.has(failure.kind))) return 'outage';
  const answered = outcomes.some((outcome) => outcome && 'verdict' in outcome);
  return answered && failures.every((failure) => failure.kind === 'cancelled') ? 'success' : 'other';
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** The model stage's settings (the README's configuration table can list them). */
export const modelStageEnvironment = new Environment('chat, media', {
  MODERATION_URL: url(null, {
    meaning:
      'Base URL of the optional moderation model (stage 2 of the content policy), e.g. `https://api.openai.com` or `http://127.0.0.1:11434/v1`; a trailing `/v1` is accepted. Unset: only the offline lexical filter runs.',
  }),
  MODERATION_KIND: oneOf(['openai-moderation', 'guard-chat'] as const, 'openai-moderation', {
    meaning:
      '`openai-moderation`: `POST /v1/moderations` (OpenAI and compatible servers); `guard-chat`: a guard model such as Llama Guard 3 behind `POST /v1/chat/completions` (Ollama, vLLM).',
  }),
  MODERATION_MODEL: text(null, {
    defaultText: 'none; required with `MODERATION_URL`',
    meaning: 'Model name sent to the moderation server, e.g. `omni-moderation-latest` or `llama-guard3:8b`.',
  }),
  MODERATION_API_KEY: text(null, {
    secret: true,
    meaning: 'Sent as `Authorization: Bearer`; leave unset for local servers that need none. Never logged or quoted in errors.',
  }),
  MODERATION_TIMEOUT_MS: integer(DEFAULT_MODEL_TIMEOUT_MS, { min: 1, meaning: 'Time allowed for one whole model check.' }),
  MODERATION_FAIL_MODE: oneOf(['closed', 'open'] as const, 'closed', {
    meaning:
      'What a model that is down, slow or answers nonsense means: `closed` refuses the text, `open` lets it through (the lexical filter still applies).',
  }),
  MODERATION_MINORS_THRESHOLD: text(null, {
    defaultText: 'unset (the `sexual/minors` flag decides)',
    meaning: '`openai-moderation` only: refuse when the `sexual/minors` score reaches this number from 0 to 1, whatever the flag says.',
  }),
});

/**
 * The model stage's settings from the environment; null when `MODERATION_URL` is unset. Throws an Error naming
 * the variable when a setting is invalid or missing.
 */
export function readModelStageSettings(env: NodeJS.ProcessEnv): ModelStageSettings | null {
  const vars = modelStageEnvironment.parse(env);
  if (!vars.MODERATION_URL) {
    if (vars.MODERATION_API_KEY)
      throw new Error(`${KEY_VARIABLE} is set but ${URL_VARIABLE} is not: set ${URL_VARIABLE} to enable the model check`);
    return null;
  }
  if (!vars.MODERATION_MODEL) {
    throw new Error('MODERATION_MODEL must be set when MODERATION_URL is set (e.g. omni-moderation-latest or llama-guard3:8b)');
  }
  const thresholdText = vars.MODERATION_MINORS_THRESHOLD;
  const threshold = thresholdText === null ? undefined : Number(thresholdText);
  if (threshold !== undefined && !(Number.isFinite(threshold) && threshold >= 0 && threshold <= 1)) {
    throw new Error(`MODERATION_MINORS_THRESHOLD must be a number between 0 and 1, got ${JSON.stringify(thresholdText)}`);
  }
  return {
    kind: vars.MODERATION_KIND,
    baseUrl: vars.MODERATION_URL,
    apiKey: vars.MODERATION_API_KEY,
    model: vars.MODERATION_MODEL,
    timeoutMs: vars.MODERATION_TIMEOUT_MS,
    failMode: vars.MODERATION_FAIL_MODE,
    ...(threshold === undefined ? {} : { minorsScoreThreshold: threshold }),
  };
}
