import { isJsonObject } from '@app/kit';
import { objectsOf, probeJson, textOf } from './probe-http';

export type ChatServerName = 'Ollama' | 'LM Studio' | 'llama.cpp' | 'vLLM';

/** Where a chat server may listen, and which product usually listens there (the port's default owner). */
export interface ChatServerCandidate {
  baseUrl: string;
  expected: ChatServerName;
}

/** The servers creators run on their own computer, on their default ports (loopback only: nothing leaves the machine). */
export const LOCAL_CHAT_SERVERS: readonly ChatServerCandidate[] = [
  { expected: 'Ollama', baseUrl: 'http://127.0.0.1:11434' },
  { expected: 'LM Studio', baseUrl: 'http://127.0.0.1:1234' },
  { expected: 'llama.cpp', baseUrl: 'http://127.0.0.1:8080' },
  { expected: 'vLLM', baseUrl: 'http://127.0.0.1:8000' },
];

export interface ChatModelEntry {
  id: string;
  /** Already in the server's memory, so the first reply does not wait for a load. */
  isLoaded: boolean;
  /** An embedding model: it cannot write replies. */
  isEmbedding: boolean;
  /** The context window the server runs it with, when it says. */
  contextTokens: number | null;
}

export interface FoundChatServer {
  server: ChatServerName;
  /** The OpenAI-compatible base URL replies are requested from (`…/v1`). */
  apiBaseUrl: string;
  models: ChatModelEntry[];
}

/** Embedding, reranking, speech and safety-classifier models, by the names their publishers give them. */
const NOT_A_CHAT_MODEL = /embed|rerank|minilm|\bbge\b|bge-|whisper|\btts\b|llama-?guard|shieldgemma/i;
/** Names that say the model was tuned to follow instructions or chat (a base model only continues text). */
const CHAT_TUNED = /instruct|chat|[-_.:]it\b|assistant|hermes/i;

/** What answers at `candidate`, if it really speaks the protocol of a chat server (not merely an open port). */
export async function identifyChatServer(candidate: ChatServerCandidate): Promise<FoundChatServer | null> {
  const baseUrl = candidate.baseUrl.replace(/\/+$/, '');
  if (candidate.expected === 'Ollama') return identifyOllama(baseUrl);
  return identifyOpenAiCompatible(baseUrl, candidate.expected);
}

async function identifyOllama(baseUrl: string): Promise<FoundChatServer | null> {
  const [tags, running] = await Promise.all([probeJson(`${baseUrl}/api/tags`), probeJson(`${baseUrl}/api/ps`)]);
  const entries = isJsonObject(tags) ? objectsOf(tags.models) : null;
  if (!entries) return null;
  // Models in memory, with the context window each was loaded with (newer Ollama says so).
  const loaded = new Map(
    (isJsonObject(running) ? (objectsOf(running.models) ?? []) : []).map((model) => [
      textOf(model.name) ?? textOf(model.model),
      positiveInteger(model.context_length),
    ]),
  );
  const models = entries.flatMap((entry): ChatModelEntry[] => {
    const id = textOf(entry.name) ?? textOf(entry.model);
    if (!id) return [];
    const details = isJsonObject(entry.details) ? entry.details : {};
    const families = [details.family, ...(Array.isArray(details.families) ? details.families : [])].filter((f) => typeof f === 'string');
    // Ollama's embedding models are BERT-family encoders (nomic-bert, bert…).
    const isEmbedding = families.some((family) => /bert/i.test(family as string)) || NOT_A_CHAT_MODEL.test(id);
    return [{ id, isLoaded: loaded.has(id), isEmbedding, contextTokens: loaded.get(id) ?? null }];
  });
  return { server: 'Ollama', apiBaseUrl: `${baseUrl}/v1`, models };
}

async function identifyOpenAiCompatible(baseUrl: string, expected: ChatServerName): Promise<FoundChatServer | null> {
  const [list, props] = await Promise.all([probeJson(`${baseUrl}/v1/models`), probeJson(`${baseUrl}/props`)]);
  const entries = isJsonObject(list) ? objectsOf(list.data) : null;
  if (!entries || entries.some((entry) => !textOf(entry.id))) return null;
  const llamaCppProps = isJsonObject(props) && ('default_generation_settings' in props || 'total_slots' in props) ? props : null;
  const server = nameOpenAiServer(entries, llamaCppProps, expected);
  const details = server === 'LM Studio' ? await lmStudioModels(baseUrl) : new Map<string, ChatModelEntry>();
  // llama.cpp runs its one model with the context its slots were given; vLLM says each model's maximum.
  const settings =
    llamaCppProps && isJsonObject(llamaCppProps.default_generation_settings) ? llamaCppProps.default_generation_settings : {};
  const models = entries.map((entry) => {
    const id = textOf(entry.id)!;
    const contextTokens = positiveInteger(entry.max_model_len) ?? positiveInteger(settings.n_ctx);
    return details.get(id) ?? { id, isLoaded: server !== 'LM Studio', isEmbedding: NOT_A_CHAT_MODEL.test(id), contextTokens };
  });
  return { server, apiBaseUrl: `${baseUrl}/v1`, models };
}

/** llama.cpp and vLLM sign their model lists (`owned_by`); llama.cpp also answers `/props`; else the port's usual owner. */
function nameOpenAiServer(entries: Record<string, unknown>[], llamaCppProps: object | null, expected: ChatServerName): ChatServerName {
  const owners = new Set(entries.map((entry) => entry.owned_by));
  if (owners.has('vllm')) return 'vLLM';
  if (owners.has('llamacpp') || llamaCppProps) return 'llama.cpp';
  return expected;
}

const positiveInteger = (value: unknown): number | null => (Number.isInteger(value) && (value as number) > 0 ? (value as number) : null);

/** LM Studio's own REST API says which models are loaded and which are embedding models. */
async function lmStudioModels(baseUrl: string): Promise<Map<string, ChatModelEntry>> {
  const list = await probeJson(`${baseUrl}/api/v0/models`);
  const entries = (isJsonObject(list) ? objectsOf(list.data) : null) ?? [];
  const models = new Map<string, ChatModelEntry>();
  for (const entry of entries) {
    const id = textOf(entry.id);
    if (!id) continue;
    const isEmbedding = entry.type === 'embeddings' || NOT_A_CHAT_MODEL.test(id);
    models.set(id, { id, isLoaded: entry.state === 'loaded', isEmbedding, contextTokens: positiveInteger(entry.loaded_context_length) });
  }
  return models;
}

/**
 * The model replies are asked from: the one named in `preferred` (CHAT_MODEL) when the server has it; else, among the
 * models that can chat, one already loaded (it answers at once), then one whose name says it is chat/instruction-tuned,
 * then the server's own order (Ollama lists the most recently pulled first). Null when the server has no chat model.
 */
export function pickChatModel(models: readonly ChatModelEntry[], preferred: string | null): string | null {
  const usable = models.filter((model) => !model.isEmbedding);
  if (preferred && usable.some((model) => model.id === preferred)) return preferred;
  const score = (model: ChatModelEntry) => (model.isLoaded ? 2 : 0) + (CHAT_TUNED.test(model.id) ? 1 : 0);
  return [...usable].sort((a, b) => score(b) - score(a))[0]?.id ?? null;
}
