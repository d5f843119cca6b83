import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ChatProvider,
  type CompletionChunk,
  type CompletionRequest,
  type CompletionResult,
  ProviderError,
} from '../src/providers/chat-provider';

/** A provider whose replies a test scripts: fixed words, a delay between them, or a failure after some. */
export class ScriptedProvider implements ChatProvider {
  // Stands in for a remote model server.
  readonly kind = 'openai-compatible';
  readonly model = 'scripted-model';
  readonly isDemo = false;
  contextTokens = 4096;
  maxReplyTokens = 256;
  readonly prompts: CompletionRequest['messages'][] = [];
  /** Every request whole: sampler settings and model included. */
  readonly requests: CompletionRequest[] = [];
  /** What GET /v1/models would list; the default model first. */
  models = ['scripted-model', 'scripted-large'];
  words = ['Hello', ' from', ' the', ' scripted', ' model.'];
  delayMs = 5;
  failAfter: number | null = null;
  failCode: ProviderError['code'] = 'UNAVAILABLE';

  async *stream(request: CompletionRequest): AsyncGenerator<CompletionChunk, CompletionResult, void> {
    this.prompts.push(request.messages);
    this.requests.push(request);
    let text = '';
    for (const [i, word] of this.words.entries()) {
      if (this.failAfter !== null && i >= this.failAfter) throw new ProviderError(this.failCode, 'The scripted provider failed');
      await sleep(this.delayMs, undefined, { signal: request.signal }).catch(() => undefined);
      if (request.signal?.aborted) throw new ProviderError('CANCELLED', 'stopped');
      text += word;
      yield { text: word };
    }
    return { text, promptTokens: 10, completionTokens: this.words.length, finishReason: 'stop', model: request.model ?? this.model };
  }

  async listModels(): Promise<string[]> {
    return [...this.models];
  }
}
