import type { ImageSettings } from '@app/schema';
import {
  MAX_ERROR_BODY,
  ImageProviderHttpError,
  UpstreamExchange,
  assertImage,
  decodeBase64,
  describeErrorBody,
  genericHttpError,
  isObject,
  normaliseBaseUrl,
  parseJson,
  parseRetryAfter,
  quoteProviderText,
  readPositiveInteger,
  stripUndefined,
  urlText,
  withDetail,
} from './http-provider-util';
import type { ImageProvider, ImageRequest, ImageResult } from './image-provider';

/**
 * OpenAI Images (`POST /images/generations`) for dall-e-3 and the gpt-image models, or any server that
 * speaks the same protocol. It needs nothing but Node's fetch; the API key never appears in an error.
 * OpenAI reports no progress, so onProgress is never called.
 */

export const DEFAULT_OPENAI_IMAGES_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_IMAGES_MODEL = 'dall-e-3';
export const DEFAULT_OPENAI_IMAGES_CONNECT_TIMEOUT_MS = 30_000;
export const DEFAULT_OPENAI_IMAGES_TOTAL_TIMEOUT_MS = 180_000;

/** A JSON answer carries the image as base64 (a 1792x1024 PNG is about 4 MB, 5.5 MB encoded). */
const MAX_JSON_BODY = 64 * 1024 * 1024;
const MAX_DOWNLOAD = 32 * 1024 * 1024;

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

  async generate(request: ImageRequest): Promise<ImageResult> {
    const exchange = new UpstreamExchange(this.config, request.signal);
    try {
      exchange.start();
      const response = await exchange.fetch(this.endpoint, {
        method: 'POST',
        headers: { ...this.authHeaders(), 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(openAiImagesBody(this.config.model, request.prompt, request.settings)),
      });
      if (!response.ok) throw await this.httpError(exchange, response);
      const payload = await this.readPayload(exchange, response);
      const first = Array.isArray(payload.data) && isObject(payload.data[0]) ? payload.data[0] : undefined;
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
      throw exchange.toError(error);
    } finally {
      exchange.dispose();
    }
  }

  private authHeaders(): Record<string, string> {
    return this.config.apiKey ? { Authorization: `Bearer ${this.config.apiKey}` } : {};
  }

  private async readPayload(exchange: UpstreamExchange, response: Response): Promise<Record<string, unknown>> {
    const raw = (await exchange.readBody(response, MAX_JSON_BODY, 'fail')).toString('utf8');
    const payload = parseJson(raw);
    if (isObject(payload)) {
      // Some compatible servers report failures inside a 200 answer.
      if (payload.error != null && !Array.isArray(payload.data)) {
        const info = describeErrorBody(raw, 'application/json');
        throw unavailable(withDetail('The image provider reported an error', this.quote(info.message)), response.status);
      }
      return payload;
    }
    if (/html/i.test(response.headers.get('content-type') ?? '') || /^\s*</.test(raw)) {
      throw unavailable(
        'The image provider answered with a web page instead of an API response; check OPENAI_IMAGES_BASE_URL (it usually ends in /v1)',
        response.status,
      );
    }
    throw unavailable('The image provider sent a malformed response (not JSON)', response.status);
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
    return exchange.readBody(response, MAX_DOWNLOAD, 'fail');
  }

  /** Maps a non-2xx answer to an ImageProviderError, quoting the provider's message where that is safe and useful. */
  private async httpError(exchange: UpstreamExchange, response: Response): Promise<ImageProviderHttpError> {
    const status = response.status;
    let raw = '';
    try {
      raw = (await exchange.readBody(response, MAX_ERROR_BODY, 'truncate')).toString('utf8');
    } catch (error) {
      if (exchange.cause) throw error;
      // The status alone still says what went wrong.
    }
    const info = describeErrorBody(raw, response.headers.get('content-type') ?? '');
    const quoted = this.quote(info.message);
    const codes = `${info.code ?? ''} ${info.type ?? ''}`;
    const retryAfterSeconds = parseRetryAfter(response.headers);
    const make = (code: ImageProviderHttpError['code'], message: string, retryable: boolean) =>
      new ImageProviderHttpError(code, message, status, retryable, retryAfterSeconds);

    if (status === 401 || status === 403) {
      // Never quoted: OpenAI's message echoes part of the key.
      return make('UNAVAILABLE', 'The image provider refused the API key', false);
    }
    if (/insufficient_quota|billing_hard_limit/i.test(codes) && (status === 400 || status === 429)) {
      return make('UNAVAILABLE', withDetail('The image provider account has no quota or credits left', quoted), false);
    }
    if (status === 400 && (/content_policy_violation|moderation_blocked/i.test(codes) || /safety system/i.test(info.message ?? ''))) {
      return make('CONTENT_REJECTED', withDetail('The image provider refused this prompt under its content policy', quoted), false);
    }
    if (status === 402) return make('UNAVAILABLE', withDetail('The image provider account has no quota or credits left', quoted), false);
    if (status === 404) {
      return make(
        'UNAVAILABLE',
        withDetail(`The image provider does not know the model "${this.quote(this.config.model)}" or the URL (HTTP 404)`, quoted),
        false,
      );
    }
    return genericHttpError(status, quoted, retryAfterSeconds);
  }

  private quote(message: string | undefined): string {
    return quoteProviderText(message, this.config.apiKey ? [this.config.apiKey] : []);
  }
}

const INVALID_BASE_URL = 'The OpenAI Images base URL must be an http(s) URL such as https://api.openai.com/v1';

function unavailable(message: string, status?: number): ImageProviderHttpError {
  return new ImageProviderHttpError('UNAVAILABLE', message, status, true);
}

/**
 * Reads the OpenAI Images settings from the environment. Returns null unless IMAGE_PROVIDER is 'openai' or
 * OPENAI_IMAGES_API_KEY / OPENAI_IMAGES_BASE_URL is set; throws an Error naming the variable when a setting is invalid.
 */
export function readOpenAiImagesConfig(env: NodeJS.ProcessEnv): OpenAiImagesConfig | null {
  const ownBaseUrl = env.OPENAI_IMAGES_BASE_URL?.trim();
  const ownKey = env.OPENAI_IMAGES_API_KEY?.trim();
  if (env.IMAGE_PROVIDER?.trim().toLowerCase() !== 'openai' && !ownKey && !ownBaseUrl) return null;
  const baseUrlVariable = ownBaseUrl ? 'OPENAI_IMAGES_BASE_URL' : 'OPENAI_BASE_URL';
  let baseUrl: URL;
  try {
    baseUrl = normaliseBaseUrl(ownBaseUrl || env.OPENAI_BASE_URL?.trim() || DEFAULT_OPENAI_IMAGES_BASE_URL, /\/images\/generations$/i, '');
  } catch {
    throw new Error(`${baseUrlVariable} must be an http(s) URL such as https://api.openai.com/v1`);
  }
  const apiKey = ownKey || env.OPENAI_API_KEY?.trim() || null;
  if (!apiKey && baseUrl.hostname === 'api.openai.com') {
    throw new Error('The OpenAI image provider needs an API key: set OPENAI_IMAGES_API_KEY (or OPENAI_API_KEY)');
  }
  return {
    baseUrl: urlText(baseUrl),
    apiKey,
    model: env.OPENAI_IMAGES_MODEL?.trim() || DEFAULT_OPENAI_IMAGES_MODEL,
    connectTimeoutMs: DEFAULT_OPENAI_IMAGES_CONNECT_TIMEOUT_MS,
    totalTimeoutMs: readPositiveInteger(env, 'OPENAI_IMAGES_TIMEOUT_MS', DEFAULT_OPENAI_IMAGES_TOTAL_TIMEOUT_MS),
  };
}
