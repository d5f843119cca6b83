/**
 * The Self-AI photo calls (spec §7, contract "Uploads and photos"), with plain `fetch` and the session
 * cookie: an upload target for the bytes, the registration of an uploaded photo with the member's
 * attestation, the member's photos, and deleting one. Failures throw `ApiError` (the server's
 * `{ message, code }`), like the session calls, with the `Retry-After` of a busy server.
 */
import { ApiError } from '../../lib/session-api';

export const UPLOAD_TARGET_PATH = '/api/objects/upload';
export const REGISTER_SELF_AI_PATH = '/api/upload-self-ai';
export const SELF_AI_PHOTOS_PATH = '/api/self-ai/photos';

export interface UploadTarget {
  uploadURL: string;
  expiresAt: string | null;
}

export interface SelfAiPhoto {
  id: string;
  url: string;
  createdAt: string;
}

/** The member confirms both before uploading; the server stores it with each photo. */
export interface SelfAiAttestation {
  ofSelf: boolean;
  adult: boolean;
}

type FetchLike = typeof fetch;

/** What a 503 without a usable `Retry-After` waits: the server's own default (decision 038). */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** A refused call, with the seconds a busy server (503) asked to wait before sending it again. */
export class SelfAiApiError extends ApiError {
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, body: unknown, retryAfterSeconds: number | undefined) {
    super(status, body);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** `Retry-After` as seconds: a number of seconds, or an HTTP date from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  // An HTTP date names its day and month; Date.parse would read a bare '-3' as a year.
  if (!/^[A-Za-z]{3}, /.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

async function call(path: string, init: RequestInit, fetchImpl: FetchLike): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetchImpl(path, { ...init, credentials: 'same-origin', cache: 'no-store', headers });
  const answer = await readJson(response);
  if (!response.ok) throw new SelfAiApiError(response.status, answer, parseRetryAfter(response.headers.get('retry-after')));
  return answer;
}

function toPhoto(body: unknown): SelfAiPhoto {
  if (!isRecord(body) || typeof body['id'] !== 'string' || typeof body['url'] !== 'string') {
    throw new Error('The server answered without a photo');
  }
  return { id: body['id'], url: body['url'], createdAt: typeof body['createdAt'] === 'string' ? body['createdAt'] : '' };
}

/** `POST /api/objects/upload`: a single-use address the browser PUTs one file's bytes to. */
export async function requestUploadTarget(fetchImpl: FetchLike = fetch): Promise<UploadTarget> {
  const answer = await call(UPLOAD_TARGET_PATH, { method: 'POST' }, fetchImpl);
  if (!isRecord(answer) || typeof answer['uploadURL'] !== 'string' || !answer['uploadURL']) {
    // Spec §5 transport rule: there is nothing to upload to without a URL.
    throw new Error('Cannot upload to an undefined URL');
  }
  return { uploadURL: answer['uploadURL'], expiresAt: typeof answer['expiresAt'] === 'string' ? answer['expiresAt'] : null };
}

/** `PUT /api/upload-self-ai`: the server checks the uploaded file and keeps it as one of the member's photos. */
export async function registerSelfAiPhoto(
  imageURL: string,
  attestation: SelfAiAttestation,
  fetchImpl: FetchLike = fetch,
): Promise<SelfAiPhoto> {
  const body = JSON.stringify({ imageURL, attestation });
  return toPhoto(await call(REGISTER_SELF_AI_PATH, { method: 'PUT', body }, fetchImpl));
}

/** `GET /api/self-ai/photos`: the member's photos, newest first. */
export async function listSelfAiPhotos(fetchImpl: FetchLike = fetch): Promise<SelfAiPhoto[]> {
  const answer = await call(SELF_AI_PHOTOS_PATH, { method: 'GET' }, fetchImpl);
  if (!Array.isArray(answer)) throw new Error('The server answered without a list of photos');
  return answer.map(toPhoto);
}

/** `DELETE /api/self-ai/photos/:id`: removes the photo and everything made from it. */
export async function deleteSelfAiPhoto(id: string, fetchImpl: FetchLike = fetch): Promise<void> {
  await call(`${SELF_AI_PHOTOS_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' }, fetchImpl);
}

/** Why the server refused an uploaded photo, for a message in the member's language (`selfAi.refusals.<reason>`). */
export type UploadRefusal = 'unsupportedType' | 'tooLarge' | 'unreadable' | 'attestationRequired' | 'rateLimited' | 'busy';

/** The server's error codes for refused photos; INVALID_IMAGE is an unreadable file or a pixel flood (decision 038). */
const REFUSALS_BY_CODE: Readonly<Record<string, UploadRefusal>> = {
  INVALID_IMAGE: 'unreadable',
  PAYLOAD_TOO_LARGE: 'tooLarge',
  UNSUPPORTED_MEDIA_TYPE: 'unsupportedType',
  RATE_LIMITED: 'rateLimited',
  UNAVAILABLE: 'busy',
};

/** For answers without a code (a proxy's, or an older server's). */
const REFUSALS_BY_STATUS: Readonly<Record<number, UploadRefusal>> = {
  413: 'tooLarge',
  415: 'unsupportedType',
  422: 'unreadable',
  429: 'rateLimited',
  503: 'busy',
};

/** The server's wording (contract) when the attestation is missing; other 400s are about something else. */
const ATTESTATION_REQUIRED_MESSAGE = 'Confirm that the photos are of you and that you are 18 or older.';

function isAttestationRefusal(error: ApiError): boolean {
  return (
    Object.keys(error.fieldErrors).some((field) => field.startsWith('attestation')) || error.serverMessage === ATTESTATION_REQUIRED_MESSAGE
  );
}

/** The refusal an error stands for; undefined for anything else (network trouble, a server fault, a signed-out session). */
export function uploadRefusalOf(error: unknown): UploadRefusal | undefined {
  if (!ApiError.is(error)) return undefined;
  if (error.status === 400) return isAttestationRefusal(error) ? 'attestationRequired' : undefined;
  // A code decides (CONTENT_REJECTED is a 422 too, and no unreadable file); the status only when there is none.
  return error.code === undefined ? REFUSALS_BY_STATUS[error.status] : REFUSALS_BY_CODE[error.code];
}

/**
 * Seconds to wait before sending a refused registration again, when the server was only busy (503): its photo stays
 * staged, so the same request works later. Undefined for every other failure, which a retry would not change.
 */
export function retryAfterOf(error: unknown): number | undefined {
  if (!ApiError.is(error) || error.status !== 503) return undefined;
  return (error instanceof SelfAiApiError ? error.retryAfterSeconds : undefined) ?? DEFAULT_RETRY_AFTER_SECONDS;
}

/** The member's reason for a refusal: a known one in their language (`translate` reads `selfAi.refusals.<reason>`), else the server's words. */
export function refusalReasonOf(error: unknown, translate: (refusal: UploadRefusal) => string): string | undefined {
  const refusal = uploadRefusalOf(error);
  return refusal ? translate(refusal) : serverReasonOf(error);
}

export function isSignedOutError(error: unknown): boolean {
  return ApiError.is(error) && error.code === 'UNAUTHENTICATED';
}

/** The server's own words for a refusal it has no known reason for (they are in English). */
export function serverReasonOf(error: unknown): string | undefined {
  return ApiError.is(error) ? error.serverMessage : undefined;
}
