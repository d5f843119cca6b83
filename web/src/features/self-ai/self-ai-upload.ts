/**
 * The Self-AI upload rules and the glue between Uppy's S3 uploader and the server's upload targets,
 * kept free of Uppy itself so they are unit-tested (components/self-ai/use-self-ai-uppy.ts wires them).
 */
import { requestUploadTarget, retryAfterOf, type UploadTarget } from './self-ai-api';

/** Spec §5/§9: 1 to 5 photos a time, each at most 10 MB, JPG or PNG (the server checks the bytes again). */
export const SELF_AI_MAX_FILES = 5;
export const SELF_AI_MAX_FILE_BYTES = 10_485_760;
export const SELF_AI_ALLOWED_FILE_TYPES = ['image/jpeg', 'image/png', '.jpg', '.jpeg', '.png'];

export const SELF_AI_RESTRICTIONS = {
  maxNumberOfFiles: SELF_AI_MAX_FILES,
  maxFileSize: SELF_AI_MAX_FILE_BYTES,
  allowedFileTypes: SELF_AI_ALLOWED_FILE_TYPES,
};

/** The request @uppy/aws-s3 asks to have signed: a plain PUT of a whole object has no uploadId. */
export interface SignableRequest {
  method: string;
  key: string;
  uploadId?: string;
}

/**
 * Builds Uppy's `signRequest`: each whole-object PUT gets a fresh upload target from the server, and
 * the address the server gave is remembered by object key, so the photo is later registered with
 * exactly that address. Multipart is off on this page (spec §9), so no other request is expected.
 */
export function createUploadSigner(baseURL: string, requestTarget: () => Promise<UploadTarget> = requestUploadTarget) {
  const issued = new Map<string, string>();

  async function signRequest(request: SignableRequest): Promise<{ url: string }> {
    if (request.method !== 'PUT' || request.uploadId !== undefined) {
      throw new Error(`Multipart uploads are turned off here; cannot sign ${request.method} for ${request.key}`);
    }
    const { uploadURL } = await requestTarget();
    issued.set(request.key, uploadURL);
    // Uppy derives the uploaded object's location with `new URL(url)`, which needs an absolute address.
    return { url: new URL(uploadURL, baseURL).href };
  }

  /** The address to register a finished upload with: the one the server issued, else Uppy's location for it. */
  function imageURLFor(key: string | undefined, location: string | undefined): string | undefined {
    const uploadURL = key === undefined ? undefined : issued.get(key);
    return uploadURL ?? location;
  }

  function forget(key: string | undefined): void {
    if (key !== undefined) issued.delete(key);
  }

  return { signRequest, imageURLFor, forget };
}

export type UploadSigner = ReturnType<typeof createUploadSigner>;

/** What Uppy keeps for a finished upload (`file.response`): the S3 uploader's `{ location, key }` body and upload URL. */
export interface FinishedUploadResponse {
  body?: unknown;
  uploadURL?: string;
}

/** The object key and location of a finished upload, read defensively from Uppy's response. */
export function finishedUploadOf(response: FinishedUploadResponse | undefined): { key?: string; location?: string } {
  const body = response?.body && typeof response.body === 'object' ? (response.body as Record<string, unknown>) : {};
  const key = typeof body['key'] === 'string' ? body['key'] : undefined;
  const location = typeof body['location'] === 'string' ? body['location'] : response?.uploadURL;
  return { key, location };
}

/** A busy server's registration is sent again this many times at most, then reported as refused. */
export const SELF_AI_REGISTER_RETRIES = 3;
/** However long a server asks, a member does not wait longer than this per retry. */
export const SELF_AI_MAX_RETRY_WAIT_SECONDS = 30;

export interface RetryOptions {
  retries?: number;
  /** Called before each wait: which retry comes next (1-based) and the seconds until it. */
  onRetry?: (retry: number, seconds: number) => void;
  wait?: (milliseconds: number) => Promise<void>;
}

const sleep = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds));

/**
 * Registers a photo, and while the server answers busy (503, its upload left staged) sends the same registration
 * again after its `Retry-After`, at most `retries` times; any other refusal, or the last busy answer, is thrown.
 */
export async function registerWithRetries<T>(
  register: () => Promise<T>,
  { retries = SELF_AI_REGISTER_RETRIES, onRetry, wait = sleep }: RetryOptions = {},
): Promise<T> {
  for (let retry = 1; ; retry++) {
    try {
      return await register();
    } catch (error) {
      const seconds = retryAfterOf(error);
      if (seconds === undefined || retry > retries) throw error;
      const bounded = Math.min(seconds, SELF_AI_MAX_RETRY_WAIT_SECONDS);
      onRetry?.(retry, bounded);
      await wait(bounded * 1000);
    }
  }
}
