import {
  DEFAULT_OPENAI_IMAGES_MODEL,
  DEFAULT_OPENAI_IMAGES_TOTAL_TIMEOUT_MS,
  imageProviderEnvironment,
} from './image-provider.environment';
import type { ImageSettings } from '@app/schema';
import { UpstreamExchange, describeErrorObject, isJsonObject, stripUndefined, withDetail } from '@app/kit';
import {
  ImageProviderHttpError,
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
 * OpenAI Images (`POST /images/generations`) for dall-e-3 and the gpt-image models, or any server that
 * speaks the same protocol. It needs nothing but Node's fetch; the API key never appears in an error.
 * OpenAI reports no progress, so onProgress is never called.
 */

export const DEFAULT_OPENAI_IMAGES_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_IMAGES_CONNECT_TIMEOUT_MS = 30_000;

/** A JSON answer carries the image as base64 (a 1792x1024 PNG is about 4 MB, 5.5 MB encoded). */
const MAX_JSON_BODY = 64 * 1024 * 1024;
const MAX_DOWNLOAD = 32 * 1024 * 1024;
const WORDING = imageProviderWording('check OPENAI_IMAGES_BASE_URL (it usually ends in /v1)');

export interface OpenAiImagesConfig {
  /** e.g. `https://api.openai.com/v1`, or a compatible local server. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; null for local servers that need none. */
  apiKey: string | null;
  /** 'dall-e-3' (default), 'gpt-image-1' or another model starting with 'gpt-image'. */
  model: string;
  /** Time allowed until the request has reached the server. */
  connectTimeoutMs: number;
  /** Time allowed for the whole generation, the download of an image URL included. */
  totalTimeoutMs: number;
}

/** What the constructor takes: the base URL, everything else has a default. */
export type OpenAiImagesOptions = Pick<OpenAiImagesConfig, 'baseUrl'> & Partial<Omit<OpenAiImagesConfig, 'baseUrl'>>;

/** gpt-image models draw 1536x1024 / 1024x1536 instead of dall-e-3's 1792x1024 / 1024x1792. */
const GPT_IMAGE_SIZES: Record<ImageSettings['size'], string> = {
  '1024x1024': '1024x1024',
  '1792x1024': '1536x1024',
  '1024x1792': '1024x1536',
};
const GPT_IMAGE_QUALITIES: Record<ImageSettings['quality'], string> = { standard: 'medium', hd: 'high' };

export const isGptImageModel = (model: string): boolean => model.toLowerCase().startsWith('gpt-image');

/** The request body for `model`: dall-e-3 takes the options as they are; gpt-image models their own names. */
export function openAiImagesBody(model: string, prompt: string, settings: ImageSettings): Record<string, unknown> {
  if (isGptImageModel(model)) {
    // gpt-image models always answer base64 and refuse `response_format` and `style`.
    return {
      model,
      prompt,
      n: 1,
      size: GPT_IMAGE_SIZES[settings.size],
      quality: GPT_IMAGE_QUALITIES[settings.quality],
      output_format: 'png',
    };
  }
  return {
    model,
    prompt,
    n: 1,
    size: settings.size,
    quality: settings.quality,
    style: settings.style,
    response_format: 'b64_json',
  };
}

export class OpenAiImagesProvider implements ImageProvider {
  readonly kind = 'openai-images';
  readonly isDemo = false;
  /** The Images API takes none of the advanced settings. */
  readonly advanced = [] as const;
  readonly config: Readonly<OpenAiImagesConfig>;
  private readonly endpoint: string;
  private readonly origin: string;

  constructor(options: OpenAiImagesOptions) {
    const baseUrl = normaliseBaseUrl(options.baseUrl, /\/images\/generations$/i, INVALID_BASE_URL);
    this.config = Object.freeze({
      model: DEFAULT_OPENAI_IMAGES_MODEL,
      connectTimeoutMs: DEFAULT_OPENAI_IMAGES_CONNECT_TIMEOUT_MS,
      totalTimeoutMs: DEFAULT_OPENAI_IMAGES_TOTAL_TIMEOUT_MS,
      ...stripUndefined(options),
      baseUrl: urlText(baseUrl),
      apiKey: options.apiKey?.trim() || null,
    });
    if (!this.config.model.trim()) throw new Error('The image provider needs a model name');
    this.endpoint = `${this.config.baseUrl}/images/generations`;
    this.origin = baseUrl.origin;
  }

  get model(): string {
    return this.config.model;
  }

  async samplers(): Promise<string[]> {
    return [];
  }

  async generate(request: ImageRequest): Promise<ImageResult> {
    const { connectTimeoutMs, totalTimeoutMs, apiKey } = this.config;
    const exchange = new UpstreamExchange({
      wording: WORDING,
      connectTimeoutMs,
      // The API answers only when the picture is drawn: the connect limit must not cap the drawing.
      connectLimitEnds: 'request-sent',
      totalTimeoutMs,
      signal: request.signal,
      secrets: apiKey ? [apiKey] : [],
    });
    try {
      exchange.start();
      const response = await exchange.fetch(this.endpoint, {
        method: 'POST',
        headers: { ...this.authHeaders(), 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(openAiImagesBody(this.config.model, request.prompt, request.settings)),
      });
      if (!response.ok) throw await this.httpError(exchange, response);
      const payload = await this.readPayload(exchange, response);
      const first = Array.isArray(payload.data) && isJsonObject(payload.data[0]) ? payload.data[0] : undefined;
      let image: Buffer;
      if (typeof first?.b64_json === 'string' && first.b64_json) {
        const decoded = decodeBase64(first.b64_json);
        if (!decoded) throw unavailable('The image provider sent an image that is not valid base64', response.status);
        image = decoded;
      } else if (typeof first?.url === 'string' && first.url) {
        image = await this.download(exchange, first.url);
      } else {
        throw unavailable('The image provider sent a response without an image', response.status);
      }
      assertImage(image, response.status);
      const model = typeof payload.model === 'string' && payload.model.trim() ? payload.model : this.config.model;
      const revisedPrompt = typeof first.revised_prompt === 'string' && first.revised_prompt.trim() ? first.revised_prompt : undefined;
      return revisedPrompt === undefined ? { image, model } : { image, model, revisedPrompt };
    } catch (error) {
      throw asImageProviderError(error, exchange);
    } finally {
      exchange.dispose();
    }
  }

  private authHeaders(): Record<string, string> {
    return this.config.apiKey ? { Authorization: `Bearer ${this.config.apiKey}` } : {};
  }

  private async readPayload(exchange: UpstreamExchange, response: Response): Promise<Record<string, unknown>> {
    const payload = await exchange.readJson(response, { maxBytes: MAX_JSON_BODY });
    // Some compatible servers report failures inside a 200 answer.
    if (payload.error != null && !Array.isArray(payload.data)) {
      const quoted = exchange.quote(describeErrorObject(payload).message);
      throw unavailable(withDetail('The image provider reported an error', quoted), response.status);
    }
    return payload;
  }

  /** The image behind a `url` answer, read under the same time limits; the key goes only to the API's own origin. */
  private async download(exchange: UpstreamExchange, link: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(link, `${this.config.baseUrl}/`);
    } catch {
      throw unavailable('The image provider sent an invalid image link');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw unavailable('The image provider sent an invalid image link');
    const response = await exchange.fetch(url.toString(), {
      method: 'GET',
      headers: { ...(url.origin === this.origin ? this.authHeaders() : {}), Accept: 'image/*' },
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw unavailable(`The image provider's image link failed (HTTP ${response.status})`, response.status);
    }
    return exchange.readBody(response, { maxBytes: MAX_DOWNLOAD });
  }

  /** Maps a non-2xx answer to an ImageProviderError; kit maps the statuses, this adds what only OpenAI says. */
  private async httpError(exchange: UpstreamExchange, response: Response): Promise<ImageProviderHttpError> {
    const failure = await exchange.httpFailure(response);
    const { status, detail } = failure;
    // Never quoted: OpenAI's message echoes part of the key.
    if (failure.kind === 'auth') return toImageProviderError(failure, 'The image provider refused the API key');
    if (status === 400 && (failure.hasProviderCode(/content_policy_violation|moderation_blocked/i) || /safety system/i.test(detail))) {
      const message = withDetail('The image provider refused this prompt under its content policy', detail);
      return new ImageProviderHttpError('CONTENT_REJECTED', message, status, false, failure.retryAfterSeconds);
    }
    if (status === 404) {
      const summary = `The image provider does not know the model "${exchange.quote(this.config.model)}" or the URL (HTTP 404)`;
      return toImageProviderError(failure, withDetail(summary, detail));
    }
    return toImageProviderError(failure);
  }
}

const INVALID_BASE_URL = 'The OpenAI Images base URL must be an http(s) URL such as https://api.openai.com/v1';

/**
 * Reads the OpenAI Images settings from the environment. Returns null unless IMAGE_PROVIDER is 'openai' or
 * OPENAI_IMAGES_API_KEY / OPENAI_IMAGES_BASE_URL is set; throws an Error naming the variable when a setting is invalid.
 */
export function readOpenAiImagesConfig(env: NodeJS.ProcessEnv): OpenAiImagesConfig | null {
  const vars = imageProviderEnvironment.parse(env);
  const ownBaseUrl = vars.OPENAI_IMAGES_BASE_URL;
  const ownKey = vars.OPENAI_IMAGES_API_KEY;
  if (vars.IMAGE_PROVIDER !== 'openai' && !ownKey && !ownBaseUrl) return null;
  const baseUrlVariable = ownBaseUrl ? 'OPENAI_IMAGES_BASE_URL' : 'OPENAI_BASE_URL';
  let baseUrl: URL;
  try {
    baseUrl = normaliseBaseUrl(ownBaseUrl || vars.OPENAI_BASE_URL || DEFAULT_OPENAI_IMAGES_BASE_URL, /\/images\/generations$/i, '');
  } catch {
    throw new Error(`${baseUrlVariable} must be an http(s) URL such as https://api.openai.com/v1`);
  }
  const apiKey = ownKey || vars.OPENAI_API_KEY;
  if (!apiKey && baseUrl.hostname === 'api.openai.com') {
    throw new Error('The OpenAI image provider needs an API key: set OPENAI_IMAGES_API_KEY (or OPENAI_API_KEY)');
  }
  return {
    baseUrl: urlText(baseUrl),
    apiKey,
    model: vars.OPENAI_IMAGES_MODEL,
    connectTimeoutMs: DEFAULT_OPENAI_IMAGES_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: vars.OPENAI_IMAGES_TIMEOUT_MS,
  };
}
