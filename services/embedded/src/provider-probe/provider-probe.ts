import { chatProviderEnvironment } from '@app/chat';
import { logger as kitLogger } from '@app/kit';
import { type ChatServerCandidate, LOCAL_CHAT_SERVERS, type FoundChatServer, identifyChatServer, pickChatModel } from './chat-servers';
import {
  type FoundImageServer,
  type ImageServerCandidate,
  LOCAL_IMAGE_SERVERS,
  identifyImageServer,
  pickImageModel,
} from './image-servers';

/** Where to look for servers; tests pass servers of their own on ephemeral ports. */
export interface LocalServerCandidates {
  chat: readonly ChatServerCandidate[];
  images: readonly ImageServerCandidate[];
}

export const LOCAL_SERVERS: LocalServerCandidates = { chat: LOCAL_CHAT_SERVERS, images: LOCAL_IMAGE_SERVERS };

type ProbeLogger = Pick<typeof kitLogger, 'info' | 'warn'>;

/** Any of these set means the operator chose the chat provider (or the demo): nothing is probed for chat. */
const CHAT_CHOICES = ['CHAT_PROVIDER', 'CHAT_API_BASE_URL', 'CHAT_API_KEY'];
/** Any of these set means the operator chose the image provider (or the demo): nothing is probed for images. */
const IMAGE_CHOICES = ['IMAGE_PROVIDER', 'A1111_URL', 'COMFYUI_URL', 'OPENAI_IMAGES_API_KEY', 'OPENAI_IMAGES_BASE_URL'];

export const CONNECT_CHAT_HINT =
  'to connect a model: run Ollama on this computer (`ollama pull llama3.2`) and restart, or set CHAT_API_BASE_URL and CHAT_MODEL';
export const CONNECT_IMAGES_HINT =
  'to connect a model: start AUTOMATIC1111/Forge with --api or ComfyUI on this computer and restart, or set A1111_URL or COMFYUI_URL';

/** Ollama loads a model with at least this context unless told otherwise (more on large GPUs), and drops the oldest tokens beyond it. */
const OLLAMA_DEFAULT_CONTEXT_TOKENS = 4096;

const isSet = (env: NodeJS.ProcessEnv, names: string[]) => names.some((name) => Boolean(env[name]?.trim()));

/**
 * First run without a configured provider: looks for the AI servers creators run on this computer and returns the
 * variables that connect the chat and image services to what it found (with `*_PROVIDER_SOURCE=detected` and the
 * server's name, shown to members). A kind the operator configured, `=demo` included, is left alone. One log line
 * per kind says what was found and chosen, or that the offline demo answers and how to connect a model.
 */
export async function detectLocalProviders(
  env: NodeJS.ProcessEnv,
  candidates: LocalServerCandidates = LOCAL_SERVERS,
  log: ProbeLogger = kitLogger,
): Promise<Record<string, string>> {
  const [chat, images] = await Promise.all([
    isSet(env, CHAT_CHOICES) ? null : detectChatServer(env, candidates.chat),
    isSet(env, IMAGE_CHOICES) ? null : detectImageServer(env, candidates.images),
  ]);
  // Logged once both are known, chat first, so the start log reads the same every time.
  for (const detection of [chat, images]) if (detection) log[detection.level](detection.fields, detection.message);
  return { ...chat?.variables, ...images?.variables };
}

/** What was found for one kind: the variables that connect it, and the line that tells the operator. */
interface Detection {
  variables: Record<string, string>;
  level: 'info' | 'warn';
  fields: Record<string, unknown>;
  message: string;
}

async function detectChatServer(env: NodeJS.ProcessEnv, candidates: readonly ChatServerCandidate[]): Promise<Detection> {
  const found = (await Promise.all(candidates.map(identifyChatServer))).filter((server) => server !== null);
  const preferred = env.CHAT_MODEL?.trim() || null;
  // The first server (in the candidates' order) that has a model able to chat; the others are named in the log.
  for (const server of found) {
    const model = pickChatModel(server.models, preferred);
    if (!model) continue;
    return {
      variables: {
        CHAT_API_BASE_URL: server.apiBaseUrl,
        CHAT_MODEL: model,
        ...contextVariable(env, server, model),
        CHAT_PROVIDER_SOURCE: 'detected',
        CHAT_PROVIDER_SERVER: server.server,
      },
      level: 'info',
      fields: {
        server: server.server,
        url: server.apiBaseUrl,
        model,
        contextTokens: server.models.find((entry) => entry.id === model)?.contextTokens ?? null,
        models: server.models.map((entry) => entry.id),
        others: others(found, server),
      },
      message: `chat: found ${server.server} at ${server.apiBaseUrl} with ${server.models.length} model(s); replies come from ${model}`,
    };
  }
  const names = found.map((server) => server.server);
  if (names.length === 0) {
    return {
      variables: {},
      level: 'info',
      fields: {},
      message: `chat: no AI server found on this computer; using the offline demo (not AI); ${CONNECT_CHAT_HINT}`,
    };
  }
  const message = `chat: ${names.join(', ')} answered but serves no chat model; using the offline demo (not AI); ${CONNECT_CHAT_HINT}`;
  return { variables: {}, level: 'warn', fields: { servers: names }, message };
}

async function detectImageServer(env: NodeJS.ProcessEnv, candidates: readonly ImageServerCandidate[]): Promise<Detection> {
  const found = (await Promise.all(candidates.map(identifyImageServer))).filter((server) => server !== null);
  for (const server of found) {
    const preferred = (server.protocol === 'a1111' ? env.A1111_MODEL : env.COMFYUI_MODEL)?.trim() || null;
    const model = pickImageModel(server, preferred);
    // ComfyUI cannot draw without a checkpoint; A1111 always has one loaded.
    if (!model && server.protocol === 'comfyui') continue;
    return {
      variables: { ...imageVariables(server, model), IMAGE_PROVIDER_SOURCE: 'detected', IMAGE_PROVIDER_SERVER: server.server },
      level: 'info',
      fields: { server: server.server, url: server.baseUrl, model, models: server.models, others: others(found, server) },
      message: `images: found ${server.server} at ${server.baseUrl} with ${server.models.length} model(s); pictures come from ${model ?? 'its current model'}`,
    };
  }
  const names = found.map((server) => server.server);
  if (names.length === 0) {
    const message = `images: no AI image server found on this computer; using the offline demo (not AI); ${CONNECT_IMAGES_HINT}`;
    return { variables: {}, level: 'info', fields: {}, message };
  }
  const message = `images: ${names.join(', ')} answered but has no checkpoint; using the offline demo (not AI); ${CONNECT_IMAGES_HINT}`;
  return { variables: {}, level: 'warn', fields: { servers: names }, message };
}

/**
 * The prompt is cut to the context the server runs the model with (unless the operator set CHAT_CONTEXT_TOKENS): a
 * server that silently drops the start of a longer prompt would lose the character. Unknown: the default stays.
 */
function contextVariable(env: NodeJS.ProcessEnv, server: FoundChatServer, model: string): Record<string, string> {
  if (env.CHAT_CONTEXT_TOKENS?.trim()) return {};
  const entry = server.models.find((candidate) => candidate.id === model);
  const contextTokens = entry?.contextTokens ?? (server.server === 'Ollama' ? OLLAMA_DEFAULT_CONTEXT_TOKENS : null);
  const replyTokens = chatProviderEnvironment.parse(env).CHAT_MAX_REPLY_TOKENS;
  // A window that leaves no room for the prompt is not used: the start would refuse it.
  return contextTokens && contextTokens > 2 * replyTokens ? { CHAT_CONTEXT_TOKENS: String(contextTokens) } : {};
}

function imageVariables(server: FoundImageServer, model: string | null): Record<string, string> {
  if (server.protocol === 'comfyui') return { COMFYUI_URL: server.baseUrl, ...(model ? { COMFYUI_MODEL: model } : {}) };
  return { A1111_URL: server.baseUrl, ...(model ? { A1111_MODEL: model } : {}) };
}

function others<T extends FoundChatServer | FoundImageServer>(found: T[], chosen: T): string[] {
  return found.filter((server) => server !== chosen).map((server) => server.server);
}
