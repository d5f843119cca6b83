import { randomInt } from 'node:crypto';
import {
  DEFAULT_A1111_NEGATIVE_PROMPT,
  DEFAULT_A1111_SAMPLER,
  DEFAULT_A1111_TOTAL_TIMEOUT_MS,
  imageProviderEnvironment,
} from './image-provider.environment';
import { type ImageSettings, MEDIA_LIMITS } from '@app/schema';
import { UpstreamExchange, isJsonObject, stripUndefined, tryParseJson } from '@app/kit';
import {
  type ImageProviderHttpError,
  asImageProviderError,
  assertImage,
  decodeBase64,
  imageProviderWording,
  normaliseBaseUrl,
  toImageProviderError,
  unavailable,
  urlText,
} from './http-provider-util';
import type { ImageProvider, ImageRequest, ImageResult } from './image-provider';

/**
 * An AUTOMATIC1111-compatible server (A1111 WebUI started with `--api`, Forge, SD.Next): `txt2img` with
 * SDXL-sized pictures, progress from `/sdapi/v1/progress` while it draws, and `/sdapi/v1/interrupt` when
 * the caller gives up. Optional HTTP basic auth (`--api-auth user:pass`) never appears in an error.
 */

export const DEFAULT_A1111_MODEL_NAME = 'stable-diffusion';
export const DEFAULT_A1111_PROGRESS_INTERVAL_MS = 500;
export const DEFAULT_A1111_CONNECT_TIMEOUT_MS = 30_000;

const MAX_JSON_BODY = 64 * 1024 * 1024;
const MAX_PROGRESS_BODY = 256 * 1024;
const MAX_SAMPLERS_BODY = 1024 * 1024;
/** The sampler list changes only when the server's extensions do: asked again after this long. */
const SAMPLERS_CACHE_MS = 5 * 60_000;
/** A failed sampler lookup is not retried for this long, and never waits longer than SAMPLERS_TIMEOUT_MS. */
const SAMPLERS_RETRY_MS = 30_000;
const SAMPLERS_TIMEOUT_MS = 5_000;
/** A cancelled or timed-out caller waits at most this long for the interrupt to be delivered. */
const MAX_INTERRUPT_WAIT_MS = 2_000;
const WORDING = imageProviderWording('check A1111_URL');

export interface A1111Config {
  /** e.g. `http://127.0.0.1:7860`. */
  baseUrl: string;
  /** 'user:password' for `--api-auth`; null when the API is open. */
  auth: string | null;
  /** Checkpoint title sent as `override_settings.sd_model_checkpoint`; null keeps the server's current one. */
  model: string | null;
  negativePrompt: string;
  sampler: string;
  /** How often progress is asked for while a picture is drawn. */
  progressIntervalMs: number;
  /** Time allowed until the request has reached the server. */
  connectTimeoutMs: number;
  /** Time allowed for the whole generation (the answer comes only when the picture is finished). */
  totalTimeoutMs: number;
}

/** What the constructor takes: the base URL, everything else has a default. */
export type A1111Options = Pick<A1111Config, 'baseUrl'> & Partial<Omit<A1111Config, 'baseUrl'>>;

/** SDXL's training buckets closest to the spec's sizes. */
export const A1111_SIZES: Record<ImageSettings['size'], { width: number; height: number }> = {
  '1024x1024': { width: 1024, height: 1024 },
  '1792x1024': { width: 1344, height: 768 },
  '1024x1792': { width: 768, height: 1344 },
};
export const A1111_STEPS: Record<ImageSettings['quality'], number> = { standard: 24, hd: 40 };
export const A1111_CFG_SCALE: Record<ImageSettings['style'], number> = { vivid: 7, natural: 4.5 };

export class A1111Provider implements ImageProvider {
  readonly kind = 'a1111';
  readonly isDemo = false;
  readonly advanced = ['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler'] as const;
  readonly config: Readonly<A1111Config>;
  private readonly baseUrl: string;
  private readonly secrets: string[];
  private samplerList: { names: string[]; until: number } | null = null;
  private samplersInFlight: Promise<string[]> | undefined;

  constructor(options: A1111Options) {
    const url = normaliseBaseUrl(options.baseUrl, /\/sdapi\/v1(\/[^/]*)?$/i, INVALID_BASE_URL);
    // fetch refuses URLs with credentials: `http://user:pass@host` becomes basic auth.
    const urlAuth = url.username ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : null;
    url.username = '';
    url.password = '';
    this.config = Object.freeze({
      negativePrompt: DEFAULT_A1111_NEGATIVE_PROMPT,
      sampler: DEFAULT_A1111_SAMPLER,
      progressIntervalMs: DEFAULT_A1111_PROGRESS_INTERVAL_MS,
      connectTimeoutMs: DEFAULT_A1111_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: DEFAULT_A1111_TOTAL_TIMEOUT_MS,
      ...stripUndefined(options),
      baseUrl: urlText(url),
      auth: options.auth?.trim() || urlAuth,
      model: options.model?.trim() || null,
    });
    this.baseUrl = this.config.baseUrl;
    const auth = this.config.auth;
    this.secrets = auth ? [auth, Buffer.from(auth).toString('base64'), auth.slice(auth.indexOf(':') + 1)] : [];
  }

  get model(): string {
    return this.config.model ?? DEFAULT_A1111_MODEL_NAME;
  }

  async generate(request: ImageRequest): Promise<ImageResult> {
    // Drawn here rather than by A1111 (seed -1), whose seeds go up to 2^32 - 2, beyond what the API can record.
    const sentSeed = request.settings.seed ?? randomInt(MEDIA_LIMITS.seedMax + 1);
    const exchange = this.openExchange(this.config.connectTimeoutMs, this.config.totalTimeoutMs, request.signal);
    let stopPolling = () => {};
    try {
      exchange.start();
      if (request.onProgress) stopPolling = this.pollProgress(request.onProgress);
      const response = await exchange.fetch(`${this.baseUrl}/sdapi/v1/txt2img`, {
        method: 'POST',
        headers: { ...this.authHeaders(), 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(this.txt2imgBody(request, sentSeed)),
      });
      if (!response.ok) throw await this.httpError(exchange, response);
      const payload = await exchange.readJson(response, { maxBytes: MAX_JSON_BODY });
      const first = Array.isArray(payload.images) ? payload.images[0] : undefined;
      if (typeof first !== 'string' || !first.trim()) {
        throw unavailable('The image provider sent a response without an image', response.status);
      }
      const image = decodeBase64(first);
      if (!image) throw unavailable('The image provider sent an image that is not valid base64', response.status);
      assertImage(image, response.status);
      return { image, model: reportedModel(payload.info) ?? this.model, seed: reportedSeed(payload.info) ?? sentSeed };
    } catch (error) {
      const failure = asImageProviderError(error, exchange);
      stopPolling();
      // The server keeps drawing a picture nobody waits for unless told to stop; a request that never
      // reached it left nothing of ours to stop (and A1111's interrupt would end whatever job runs).
      if (exchange.reachedServer && (exchange.cause === 'cancelled' || exchange.cause === 'total')) await this.interrupt();
      throw failure;
    } finally {
      stopPolling();
      exchange.dispose();
    }
  }

  /** `GET /sdapi/v1/samplers`, cached; an empty list while the server cannot be asked (the generator then offers none). */
  async samplers(): Promise<string[]> {
    if (this.samplerList && Date.now() < this.samplerList.until) return this.samplerList.names;
    // One request at a time however many members open the generator; a hung server costs each of them nothing.
    this.samplersInFlight ??= this.fetchSamplers().finally(() => (this.samplersInFlight = undefined));
    return this.samplersInFlight;
  }

  private async fetchSamplers(): Promise<string[]> {
    const timeoutMs = Math.min(this.config.connectTimeoutMs, SAMPLERS_TIMEOUT_MS);
    const exchange = this.openExchange(timeoutMs, timeoutMs);
    const remember = (names: string[], forMs: number) => {
      this.samplerList = { names, until: Date.now() + forMs };
      return names;
    };
    try {
      exchange.start();
      const response = await exchange.fetch(`${this.baseUrl}/sdapi/v1/samplers`, {
        method: 'GET',
        headers: { ...this.authHeaders(), Accept: 'application/json' },
      });
      if (!response.ok) return remember(this.samplerList?.names ?? [], SAMPLERS_RETRY_MS);
      const text = await exchange.readText(response, { maxBytes: MAX_SAMPLERS_BODY });
      return remember(samplerNames(tryParseJson(text)), SAMPLERS_CACHE_MS);
    } catch {
      return remember(this.samplerList?.names ?? [], SAMPLERS_RETRY_MS);
    } finally {
      exchange.dispose();
    }
  }

  /** One exchange with the server; the connect limit ends once a request has reached it (txt2img answers when done). */
  private openExchange(connectTimeoutMs: number, totalTimeoutMs: number, signal?: AbortSignal): UpstreamExchange {
    return new UpstreamExchange({
      wording: WORDING,
      connectTimeoutMs,
      connectLimitEnds: 'request-sent',
      totalTimeoutMs,
      signal,
      secrets: this.secrets,
    });
  }

  private txt2imgBody(request: ImageRequest, seed: number): Record<string, unknown> {
    const { width, height } = A1111_SIZES[request.settings.size];
    const { settings } = request;
    // The member's advanced settings win; quality and style pick the rest, as for members who set none.
    const body: Record<string, unknown> = {
      prompt: request.prompt,
      negative_prompt: settings.negativePrompt ?? this.config.negativePrompt,
      width,
      height,
      steps: settings.steps ?? A1111_STEPS[settings.quality],
      cfg_scale: settings.cfgScale ?? A1111_CFG_SCALE[settings.style],
      sampler_name: settings.sampler ?? this.config.sampler,
      batch_size: 1,
      n_iter: 1,
      seed,
      send_images: true,
      save_images: false,
    };
    if (this.config.model) body.override_settings = { sd_model_checkpoint: this.config.model };
    return body;
  }

  private authHeaders(): Record<string, string> {
    return this.config.auth ? { Authorization: `Basic ${Buffer.from(this.config.auth).toString('base64')}` } : {};
  }

  /**
   * Asks for progress every interval until the returned function is called, reporting each increase.
   * Failing or malformed answers are skipped: progress is a nicety, the generation goes on without it.
   * (A1111 reports the job it is running, which on a shared server may still be someone else's.)
   */
  private pollProgress(onProgress: (fraction: number) => void): () => void {
    const controller = new AbortController();
    const { signal } = controller;
    let reported = 0;
    const loop = async () => {
      while (!signal.aborted) {
        await sleep(this.config.progressIntervalMs, signal);
        if (signal.aborted) return;
        const fraction = await this.readProgress(signal);
        if (signal.aborted) return;
        if (fraction !== null && fraction > reported) {
          reported = fraction;
          try {
            onProgress(fraction);
          } catch {
            // A listener's failure must not stop the generation.
          }
        }
      }
    };
    void loop();
    return () => controller.abort();
  }

  private async readProgress(stop: AbortSignal): Promise<number | null> {
    const exchange = this.openExchange(this.config.connectTimeoutMs, this.config.connectTimeoutMs, stop);
    try {
      exchange.start();
      const response = await exchange.fetch(`${this.baseUrl}/sdapi/v1/progress?skip_current_image=true`, {
        method: 'GET',
        headers: { ...this.authHeaders(), Accept: 'application/json' },
      });
      if (!response.ok) return null;
      const { progress } = await exchange.readJson(response, { maxBytes: MAX_PROGRESS_BODY });
      if (typeof progress !== 'number' || !Number.isFinite(progress) || progress < 0) return null;
      return Math.min(progress, 1);
    } catch {
      return null;
    } finally {
      exchange.dispose();
    }
  }

  /** Best effort: tells the server to stop the current job, waiting a little for it to hear. */
  private async interrupt(): Promise<void> {
    const waitMs = Math.min(this.config.connectTimeoutMs, MAX_INTERRUPT_WAIT_MS);
    const exchange = this.openExchange(waitMs, waitMs);
    try {
      exchange.start();
      await exchange.fetch(`${this.baseUrl}/sdapi/v1/interrupt`, { method: 'POST', headers: this.authHeaders() });
    } catch {
      // The caller's error matters more than whether the server heard.
    } finally {
      exchange.dispose();
    }
  }

  /** Maps a non-2xx answer to an ImageProviderError; kit maps the statuses, this adds what only A1111 says. */
  private async httpError(exchange: UpstreamExchange, response: Response): Promise<ImageProviderHttpError> {
    const failure = await exchange.httpFailure(response);
    if (failure.kind === 'auth') {
      return toImageProviderError(failure, `The image provider refused the credentials (HTTP ${failure.status}); check A1111_AUTH`);
    }
    // FastAPI's bare "Not Found" means the API is off; anything else is A1111 naming what it lacks (a sampler...).
    if (failure.status === 404 && (!failure.detail || /^not found$/i.test(failure.detail))) {
      return toImageProviderError(
        failure,
        'The image provider has no AUTOMATIC1111 API at this URL (HTTP 404); start it with --api and check A1111_URL',
      );
    }
    return toImageProviderError(failure);
  }
}

const INVALID_BASE_URL = 'The AUTOMATIC1111 URL must be an http(s) URL such as http://127.0.0.1:7860';

/** `sd_model_name` from txt2img's `info` (a JSON string in A1111, an object in some forks). */
function reportedModel(info: unknown): string | undefined {
  const parsed = typeof info === 'string' ? tryParseJson(info) : info;
  if (!isJsonObject(parsed)) return undefined;
  const name = parsed.sd_model_name;
  return typeof name === 'string' && name.trim() ? name.trim() : undefined;
}

/** The seed A1111 drew with, from txt2img's `info` (`seed`, or the first of `all_seeds`). */
function reportedSeed(info: unknown): number | undefined {
  const parsed = typeof info === 'string' ? tryParseJson(info) : info;
  if (!isJsonObject(parsed)) return undefined;
  const seed = parsed.seed ?? (Array.isArray(parsed.all_seeds) ? parsed.all_seeds[0] : undefined);
  return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= MEDIA_LIMITS.seedMax ? seed : undefined;
}

/** The names from `/sdapi/v1/samplers` (`[{ name, aliases, options }]`), in the server's order. */
function samplerNames(payload: unknown): string[] {
  if (!Array.isArray(payload)) return [];
  const names = payload.map((sampler) => (isJsonObject(sampler) && typeof sampler.name === 'string' ? sampler.name.trim() : ''));
  return [...new Set(names.filter((name) => name && name.length <= MEDIA_LIMITS.samplerLength))];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Reads the AUTOMATIC1111 settings from the environment. Returns null when A1111_URL is unset; throws an
 * Error naming the variable when a setting is invalid.
 */
export function readA1111Config(env: NodeJS.ProcessEnv): A1111Config | null {
  const vars = imageProviderEnvironment.parse(env);
  if (!vars.A1111_URL) return null;
  let url: URL;
  try {
    url = normaliseBaseUrl(vars.A1111_URL, /\/sdapi\/v1(\/[^/]*)?$/i, '');
  } catch {
    throw new Error('A1111_URL must be an http(s) URL such as http://127.0.0.1:7860');
  }
  let auth = vars.A1111_AUTH;
  if (!auth && url.username) auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  if (auth && !/^[^:]+:.+$/.test(auth)) throw new Error('A1111_AUTH must be user:password (as given to --api-auth)');
  return {
    baseUrl: urlText(url),
    auth,
    model: vars.A1111_MODEL,
    // An explicitly empty A1111_NEGATIVE_PROMPT means none.
    negativePrompt: vars.A1111_NEGATIVE_PROMPT,
    sampler: vars.A1111_SAMPLER,
    progressIntervalMs: DEFAULT_A1111_PROGRESS_INTERVAL_MS,
    connectTimeoutMs: DEFAULT_A1111_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: vars.A1111_TIMEOUT_MS,
  };
}
