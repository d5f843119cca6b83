import type { ChatProviderInfo, ChatProviderKind, ErrorCode, ProviderSource, SamplerSettings } from '@app/schema';

/** One turn of the prompt sent to a model (OpenAI chat-completions roles). */
export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  messages: PromptMessage[];
  /** Overrides the configured maximum reply length (e.g. for summaries). */
  maxTokens?: number;
  temperature?: number;
  /** The character's or conversation's sampler settings; a field left out takes the provider's default. */
  sampling?: SamplerSettings | null;
  /** One of the models `listModels` returned (the caller checks); the configured model when absent. */
  model?: string | null;
  /** Aborting stops the upstream request at once; the stream then ends with a CANCELLED failure. */
  signal?: AbortSignal;
}

/** A piece of streamed reply text, in order. */
export interface CompletionChunk {
  text: string;
  /** When the provider stamped the chunk (ms since the epoch), if it did; the latency benchmark reads it. */
  sentAt?: number;
}

/** What the provider reports once the stream has ended normally. */
export interface CompletionResult {
  text: string;
  promptTokens: number | null;
  completionTokens: number | null;
  finishReason: string | null;
  /** The model that wrote the reply: as the provider named it, else the one requested. */
  model: string;
}

/** A provider failure, mapped to the platform's error codes (timeouts, rate limits, bad keys, dropped streams). */
export class ProviderError extends Error {
  constructor(
    readonly code: ErrorCode | 'CANCELLED',
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * A text-generation backend. `stream` yields chunks as the model produces them and returns the
 * result when done; it throws ProviderError on failure or cancellation.
 */
export interface ChatProvider {
  /** 'openai-compatible' or 'demo'. */
  readonly kind: ChatProviderKind;
  /** The model name shown to members (e.g. 'gpt-4o-mini', or 'demo'). */
  readonly model: string;
  /** True for the offline demo responder, which must never be presented as AI. */
  readonly isDemo: boolean;
  /** Context window in tokens the prompt (plus the reply) must fit in. */
  readonly contextTokens: number;
  /** Upper bound on reply length in tokens. */
  readonly maxReplyTokens: number;
  /** Where the provider came from; absent: the operator configured it (or it is the demo, which says so with `isDemo`). */
  readonly origin?: ProviderOrigin;
  /** The model ids the provider serves, for a per-request `model`; absent where the provider has no choice. */
  listModels?(): Promise<string[]>;
  stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void>;
}

/** Where a real provider came from, as members see it: set by the operator, or found on this computer at start. */
export interface ProviderOrigin {
  source: Exclude<ProviderSource, 'demo'>;
  /** The server product when known ('Ollama', 'LM Studio', 'llama.cpp', 'vLLM'). */
  server: string | null;
}

/** What members are told about the provider: the demo always as the demo, a real one with where it came from. */
export function describeProvider(provider: ChatProvider): ChatProviderInfo {
  const { kind, model, isDemo } = provider;
  if (isDemo) return { kind, model, isDemo, source: 'demo', server: null };
  return { kind, model, isDemo, source: provider.origin?.source ?? 'configured', server: provider.origin?.server ?? null };
}
