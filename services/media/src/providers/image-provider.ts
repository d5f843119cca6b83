import type { AdvancedImageSetting, ErrorCode, ImageProviderKind, ImageSettings } from '@app/schema';

export interface ImageRequest {
  /** Trimmed, checked against the content rules. */
  prompt: string;
  settings: ImageSettings;
  /** Aborting stops the upstream request at once; the call then throws ProviderError('CANCELLED'). */
  signal?: AbortSignal;
  /** Called with 0..1 as the provider reports progress (never called by providers that cannot tell). */
  onProgress?: (fraction: number) => void;
}

export interface ImageResult {
  /** The picture as the provider sent it (PNG, or another format sharp reads); re-encoded before storage. */
  image: Buffer;
  /** The model that drew it, as the provider named it. */
  model: string;
  /** The prompt the provider actually used, when it rewrote it (dall-e-3 does). */
  revisedPrompt?: string;
  /** The seed the provider actually drew with (A1111, ComfyUI, the demo), stored so "Use these settings" repeats it. */
  seed?: number;
}

/** A provider failure, mapped to the platform's error codes (timeouts, rate limits, bad keys, refusals). */
export class ImageProviderError extends Error {
  constructor(
    readonly code: ErrorCode | 'CANCELLED',
    message: string,
    readonly status?: number,
    /** Whether another attempt may succeed (timeouts, 5xx, rate limits); refusals and bad requests are final. */
    readonly retryable = false,
  ) {
    super(message);
    this.name = 'ImageProviderError';
  }
}

/** An image backend: OpenAI Images, an AUTOMATIC1111-compatible server, or the offline demo renderer. */
export interface ImageProvider {
  /** 'openai-images', 'a1111' or 'demo'. */
  readonly kind: ImageProviderKind;
  /** The model name shown to members (e.g. 'dall-e-3'; 'demo-renderer' for the demo). */
  readonly model: string;
  /** True for the offline demo renderer, which must never be presented as AI. */
  readonly isDemo: boolean;
  /** The advanced settings it honours; a request with any other one is refused before it is queued. */
  readonly advanced: readonly AdvancedImageSetting[];
  /** The sampler names it offers (empty when it has no choice, or its server cannot be asked right now). */
  samplers(): Promise<string[]>;
  generate(request: ImageRequest): Promise<ImageResult>;
}
