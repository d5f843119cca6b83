import { randomInt, randomUUID } from 'node:crypto';
import { type AdvancedImageSetting, MEDIA_LIMITS } from '@app/schema';
import { UpstreamError, UpstreamExchange, isJsonObject, stripUndefined, tryParseJson, upstreamErrorForStatus } from '@app/kit';
import { A1111_CFG_SCALE, A1111_SIZES, A1111_STEPS } from './a1111.provider';
import { ComfyUiSocket, ComfyUiSocketError } from './comfyui-socket';
import {
  type ComfyUiGraph,
  type ComfyUiWorkflow,
  DEFAULT_COMFYUI_WORKFLOW_PATH,
  fillComfyUiWorkflow,
  honouredSettings,
  loadComfyUiWorkflow,
} from './comfyui-workflow';
import {
  type ImageProviderHttpError,
  asImageProviderError,
  assertImage,
  imageProviderWording,
  normaliseBaseUrl,
  toImageProviderError,
  unavailable,
  urlText,
} from './http-provider-util';
import type { ImageProvider, ImageProviderError, ImageRequest, ImageResult } from './image-provider';
import {
  DEFAULT_COMFYUI_NEGATIVE_PROMPT,
  DEFAULT_COMFYUI_SAMPLER,
  DEFAULT_COMFYUI_TOTAL_TIMEOUT_MS,
  DEFAULT_COMFYUI_URL,
  imageProviderEnvironment,
} from './image-provider.environment';

/**
 * A ComfyUI server: runs a workflow (the shipped text-to-image one, or the operator's) with the prompt and settings
 * filled in, follows it on ComfyUI's WebSocket for progress and its outcome, then downloads the picture from its
 * history. A cancelled or abandoned prompt is taken off the queue, or interrupted when it is already running.
 */

/** The model named to members until the server has told which checkpoint it uses. */
export const DEFAULT_COMFYUI_MODEL_NAME = 'comfyui';
export const DEFAULT_COMFYUI_CONNECT_TIMEOUT_MS = 30_000;

const MAX_JSON_BODY = 16 * 1024 * 1024;
const MAX_IMAGE_BODY = 64 * 1024 * 1024;
/** A cancelled or timed-out caller waits at most this long for the queue removal and interrupt to be delivered. */
const MAX_STOP_WAIT_MS = 2_000;
/** Asking for the sampler list costs no generation: a short limit, and the answer is kept this long. */
const SAMPLERS_TIMEOUT_MS = 5_000;
const SAMPLERS_CACHE_MS = 60_000;
/** `execution_success` can arrive just before the history is written: ask again a few times. */
const HISTORY_ATTEMPTS = 10;
const HISTORY_RETRY_MS = 100;
const WORDING = imageProviderWording('check COMFYUI_URL');
const OUT_OF_MEMORY = /out ?of ?memory|OutOfMemory|Allocation on device/i;

export interface ComfyUiConfig {
  /** e.g. `http://127.0.0.1:8188`. */
  baseUrl: string;
  workflow: ComfyUiWorkflow;
  /** Checkpoint for `{{model}}`; null asks the server for its first one. */
  model: string | null;
  /** Used for `{{negative_prompt}}` and `{{sampler}}` when the request does not choose. */
  negativePrompt: string;
  sampler: string;
  /** Time allowed until each request has reached the server, and for the WebSocket to open. */
  connectTimeoutMs: number;
  /** Time allowed for the whole generation, time in ComfyUI's queue included. */
  totalTimeoutMs: number;
}

export type ComfyUiOptions = Pick<ComfyUiConfig, 'baseUrl'> & Partial<Omit<ComfyUiConfig, 'baseUrl'>>;

export class ComfyUiProvider implements ImageProvider {
  readonly kind = 'comfyui';
  readonly isDemo = false;
  readonly config: Readonly<ComfyUiConfig>;
  readonly advanced: readonly AdvancedImageSetting[];
  private readonly baseUrl: string;
  private discoveredModel: string | null = null;
  private samplerCache: { names: string[]; until: number } | null = null;

  constructor(options: ComfyUiOptions) {
    const workflow = options.workflow ?? loadComfyUiWorkflow(DEFAULT_COMFYUI_WORKFLOW_PATH);
    this.config = Object.freeze({
      model: null,
      negativePrompt: DEFAULT_COMFYUI_NEGATIVE_PROMPT,
      sampler: DEFAULT_COMFYUI_SAMPLER,
      connectTimeoutMs: DEFAULT_COMFYUI_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: DEFAULT_COMFYUI_TOTAL_TIMEOUT_MS,
      ...stripUndefined(options),
      baseUrl: urlText(normaliseComfyUiUrl(options.baseUrl, INVALID_BASE_URL)),
      workflow,
    });
    this.baseUrl = this.config.baseUrl;
    this.advanced = Object.freeze(honouredSettings(workflow));
  }

  get model(): string {
    return this.config.model ?? this.config.workflow.fixedModel ?? this.discoveredModel ?? DEFAULT_COMFYUI_MODEL_NAME;
  }

  async generate(request: ImageRequest): Promise<ImageResult> {
    const exchange = this.openExchange(this.config.totalTimeoutMs, request.signal);
    const clientId = randomUUID();
    let socket: ComfyUiSocket | null = null;
    let promptId: string | null = null;
    let promptEnded = false;
    try {
      exchange.start();
      // The exchange stops its own requests; this stops the waits on the WebSocket between them (created after the
      // exchange's timer, so that one fires first and the exchange words the timeout).
      const stopWaiting = AbortSignal.any([AbortSignal.timeout(this.config.totalTimeoutMs), ...(request.signal ? [request.signal] : [])]);
      socket = await ComfyUiSocket.open(this.socketUrl(clientId), this.config.connectTimeoutMs, stopWaiting);
      const model = await this.modelFor(exchange);
      const seed = request.settings.seed ?? randomInt(0, MEDIA_LIMITS.seedMax + 1);
      promptId = await this.queuePrompt(exchange, this.graphFor(request, model, seed), clientId);
      await socket.waitForPrompt(promptId, stopWaiting, request.onProgress);
      promptEnded = true;
      const image = await this.downloadPicture(exchange, promptId);
      return { image, model, ...(this.config.workflow.placeholders.has('seed') ? { seed } : {}) };
    } catch (error) {
      const failure = this.failure(error, exchange, request.signal);
      // Nobody waits for this picture any more (a retry queues a new prompt): free ComfyUI, which runs one prompt at a time.
      if (promptId && !promptEnded && !endedOnServer(error)) await this.stopPrompt(promptId, socket!.started);
      throw failure;
    } finally {
      socket?.close();
      exchange.dispose();
    }
  }

  /** The server's sampler names (KSampler's `sampler_name` choices), kept a minute; empty when it cannot be asked. */
  async samplers(): Promise<string[]> {
    if (this.samplerCache && this.samplerCache.until > Date.now()) return this.samplerCache.names;
    const exchange = this.openExchange(SAMPLERS_TIMEOUT_MS);
    try {
      exchange.start();
      const names = await this.choices(exchange, 'KSampler', 'sampler_name');
      this.samplerCache = { names, until: Date.now() + SAMPLERS_CACHE_MS };
      return names;
    } catch {
      return [];
    } finally {
      exchange.dispose();
    }
  }

  private openExchange(totalTimeoutMs: number, signal?: AbortSignal): UpstreamExchange {
    return new UpstreamExchange({
      wording: WORDING,
      connectTimeoutMs: Math.min(this.config.connectTimeoutMs, totalTimeoutMs),
      connectLimitEnds: 'request-sent',
      totalTimeoutMs,
      signal,
    });
  }

  private socketUrl(clientId: string): string {
    const url = new URL(`${this.baseUrl}/ws`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    url.searchParams.set('clientId', clientId);
    return url.toString();
  }

  /** The checkpoint for `{{model}}`: configured, else the server's first, asked once. */
  private async modelFor(exchange: UpstreamExchange): Promise<string> {
    if (!this.config.workflow.placeholders.has('model')) return this.model;
    if (this.config.model) return this.config.model;
    if (this.discoveredModel) return this.discoveredModel;
    const [first] = await this.choices(exchange, 'CheckpointLoaderSimple', 'ckpt_name');
    if (!first) {
      throw toImageProviderError(
        new UpstreamError('refused', 'The image provider has no checkpoint in ComfyUI/models/checkpoints; add one or set COMFYUI_MODEL'),
      );
    }
    this.discoveredModel = first;
    return first;
  }

  private graphFor(request: ImageRequest, model: string, seed: number): ComfyUiGraph {
    const { settings } = request;
    const { width, height } = A1111_SIZES[settings.size];
    return fillComfyUiWorkflow(this.config.workflow, {
      prompt: request.prompt,
      negative_prompt: settings.negativePrompt ?? this.config.negativePrompt,
      width,
      height,
      seed,
      steps: settings.steps ?? A1111_STEPS[settings.quality],
      cfg: settings.cfgScale ?? A1111_CFG_SCALE[settings.style],
      sampler: settings.sampler ?? this.config.sampler,
      model,
    });
  }

  /** `POST /prompt`: ComfyUI checks the graph, queues it and answers with its id. */
  private async queuePrompt(exchange: UpstreamExchange, graph: ComfyUiGraph, clientId: string): Promise<string> {
    const response = await exchange.fetch(`${this.baseUrl}/prompt`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ prompt: graph, client_id: clientId }),
    });
    if (response.status === 400) throw await this.refusedPrompt(exchange, response);
    if (!response.ok) throw toImageProviderError(await exchange.httpFailure(response));
    const { prompt_id: promptId } = await exchange.readJson(response, { maxBytes: MAX_JSON_BODY });
    if (typeof promptId !== 'string' || !promptId) throw unavailable('The image provider queued the workflow without a prompt id', 200);
    return promptId;
  }

  /** ComfyUI's 400 names the failing node inputs in `node_errors` (a checkpoint or sampler it lacks, a bad value). */
  private async refusedPrompt(exchange: UpstreamExchange, response: Response): Promise<ImageProviderHttpError> {
    const raw = await exchange.readText(response, { maxBytes: 64 * 1024, overflow: 'truncate' });
    const body = tryParseJson(raw);
    const detail = isJsonObject(body) ? describeRefusal(body) : raw;
    const failure = upstreamErrorForStatus(400, { provider: WORDING.provider, detail: exchange.quote(detail) });
    return toImageProviderError(
      failure,
      `ComfyUI refused the workflow ${this.config.workflow.source}: ${failure.detail || 'no reason given'}`,
    );
  }

  /** The picture from the prompt's history: a saved output first, else a preview. */
  private async downloadPicture(exchange: UpstreamExchange, promptId: string): Promise<Buffer> {
    const outputs = await this.promptOutputs(exchange, promptId);
    const images = Object.values(outputs).flatMap((output) => (isJsonObject(output) && Array.isArray(output.images) ? output.images : []));
    const picture = images.filter(isJsonObject).sort((a, b) => Number(b.type === 'output') - Number(a.type === 'output'))[0];
    if (!picture || typeof picture.filename !== 'string') {
      throw unavailable(`ComfyUI finished without a picture; the workflow ${this.config.workflow.source} needs a SaveImage node`);
    }
    const query = new URLSearchParams({
      filename: picture.filename,
      subfolder: typeof picture.subfolder === 'string' ? picture.subfolder : '',
      type: typeof picture.type === 'string' ? picture.type : 'output',
    });
    const response = await exchange.fetch(`${this.baseUrl}/view?${query}`, { method: 'GET', headers: { Accept: 'image/*' } });
    if (!response.ok) throw toImageProviderError(await exchange.httpFailure(response));
    return assertImage(await exchange.readBody(response, { maxBytes: MAX_IMAGE_BODY }), response.status);
  }

  private async promptOutputs(exchange: UpstreamExchange, promptId: string): Promise<Record<string, unknown>> {
    for (let attempt = 1; ; attempt++) {
      const response = await exchange.fetch(`${this.baseUrl}/history/${encodeURIComponent(promptId)}`, {
        method: 'GET',
        headers: { Accept: 'application/json' },
      });
      if (!response.ok) throw toImageProviderError(await exchange.httpFailure(response));
      const entry = (await exchange.readJson(response, { maxBytes: MAX_JSON_BODY }))[promptId];
      if (isJsonObject(entry) && isJsonObject(entry.outputs)) return entry.outputs;
      if (attempt >= HISTORY_ATTEMPTS) throw unavailable('ComfyUI finished the prompt but has no history of it', response.status);
      await new Promise((resolve) => setTimeout(resolve, HISTORY_RETRY_MS));
    }
  }

  /** A node's choices for one input from `/object_info/<node>`: `[[names…], {…}]`, or `["COMBO", { options }]` in newer versions. */
  private async choices(exchange: UpstreamExchange, node: string, input: string): Promise<string[]> {
    const response = await exchange.fetch(`${this.baseUrl}/object_info/${node}`, {
      method: 'GET',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw toImageProviderError(await exchange.httpFailure(response));
    const info = (await exchange.readJson(response, { maxBytes: MAX_JSON_BODY }))[node];
    const required = isJsonObject(info) && isJsonObject(info.input) && isJsonObject(info.input.required) ? info.input.required : {};
    const spec = required[input];
    if (!Array.isArray(spec)) throw unavailable(`The image provider does not describe ${node}.${input}; is this ComfyUI?`, response.status);
    const [first, second] = spec as unknown[];
    const names = Array.isArray(first) ? first : isJsonObject(second) && Array.isArray(second.options) ? second.options : [];
    return names.filter((name): name is string => typeof name === 'string');
  }

  /** Best effort: drops the prompt from the queue, and interrupts it when it already runs. */
  private async stopPrompt(promptId: string, started: boolean): Promise<void> {
    const exchange = this.openExchange(Math.min(this.config.connectTimeoutMs, MAX_STOP_WAIT_MS));
    const post = (path: string, body: unknown) =>
      exchange.fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    try {
      exchange.start();
      await post('/queue', { delete: [promptId] });
      // Older ComfyUI interrupts whatever runs, so only when ours does; newer ones also check the prompt id.
      if (started) await post('/interrupt', { prompt_id: promptId });
    } catch {
      // The caller's error matters more than whether the server heard.
    } finally {
      exchange.dispose();
    }
  }

  private failure(error: unknown, exchange: UpstreamExchange, signal: AbortSignal | undefined): ImageProviderError {
    if (!(error instanceof ComfyUiSocketError)) return asImageProviderError(error, exchange);
    switch (error.reason) {
      case 'stopped':
        // The exchange saw the same stop (the caller's signal, or its total limit) and words it.
        if (exchange.cause) return asImageProviderError(error, exchange);
        return toImageProviderError(
          signal?.aborted
            ? new UpstreamError('cancelled', WORDING.cancelled)
            : new UpstreamError('timeout', WORDING.totalTimeout(formatDuration(this.config.totalTimeoutMs))),
        );
      case 'execution-error': {
        const { exceptionType = '', exceptionMessage = '', nodeType = '' } = error.execution ?? {};
        const detail = exchange.quote(`${exceptionType ? `${exceptionType}: ` : ''}${exceptionMessage}`);
        const where = nodeType ? ` in ${nodeType}` : '';
        // Running out of GPU memory may pass once other work is done; any other node failure repeats.
        return toImageProviderError(
          new UpstreamError(OUT_OF_MEMORY.test(detail) ? 'unavailable' : 'refused', `The image provider failed${where}: ${detail}`),
        );
      }
      case 'interrupted':
        return toImageProviderError(
          new UpstreamError('refused', 'The image provider stopped the generation (interrupted on the ComfyUI server)'),
        );
      default:
        return toImageProviderError(new UpstreamError('unavailable', error.message));
    }
  }
}

/** ComfyUI itself ended the prompt (a node failed, or someone interrupted it there): nothing is left to stop. */
function endedOnServer(error: unknown): boolean {
  return error instanceof ComfyUiSocketError && (error.reason === 'execution-error' || error.reason === 'interrupted');
}

const INVALID_BASE_URL = 'The ComfyUI URL must be an http(s) URL such as http://127.0.0.1:8188';

/** An http(s) URL without credentials (ComfyUI has no login), a pasted `/prompt` or `/ws`, or trailing slashes. */
function normaliseComfyUiUrl(raw: string, message: string): URL {
  const url = normaliseBaseUrl(raw, /\/(prompt|ws)$/i, message);
  if (url.username || url.password) throw new Error(message);
  return url;
}

/** What ComfyUI's 400 says: `error.message`, then each failing node input (`CheckpointLoaderSimple: Value not in list…`). */
function describeRefusal(body: Record<string, unknown>): string {
  const error = isJsonObject(body.error) ? body.error : {};
  const parts = [typeof error.message === 'string' ? error.message : typeof body.error === 'string' ? body.error : ''];
  for (const node of Object.values(isJsonObject(body.node_errors) ? body.node_errors : {})) {
    if (!isJsonObject(node) || !Array.isArray(node.errors)) continue;
    for (const nodeError of node.errors.filter(isJsonObject)) {
      const what = [nodeError.message, nodeError.details].filter((text) => typeof text === 'string' && text).join(': ');
      parts.push(typeof node.class_type === 'string' ? `${node.class_type}: ${what}` : what);
    }
  }
  return parts.filter(Boolean).join('; ');
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Reads the ComfyUI settings from the environment. Returns null unless IMAGE_PROVIDER=comfyui or COMFYUI_URL is set;
 * throws an Error naming the variable (or the workflow file) when a setting is invalid.
 */
export function readComfyUiConfig(env: NodeJS.ProcessEnv): ComfyUiConfig | null {
  const vars = imageProviderEnvironment.parse(env);
  if (!vars.COMFYUI_URL && vars.IMAGE_PROVIDER !== 'comfyui') return null;
  let baseUrl: string;
  try {
    baseUrl = urlText(normaliseComfyUiUrl(vars.COMFYUI_URL ?? DEFAULT_COMFYUI_URL, ''));
  } catch {
    throw new Error('COMFYUI_URL must be an http(s) URL without credentials, such as http://127.0.0.1:8188');
  }
  return {
    baseUrl,
    workflow: loadComfyUiWorkflow(vars.COMFYUI_WORKFLOW ?? DEFAULT_COMFYUI_WORKFLOW_PATH),
    model: vars.COMFYUI_MODEL,
    negativePrompt: DEFAULT_COMFYUI_NEGATIVE_PROMPT,
    sampler: DEFAULT_COMFYUI_SAMPLER,
    connectTimeoutMs: DEFAULT_COMFYUI_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: vars.COMFYUI_TIMEOUT_MS,
  };
}
