import { ApiError } from '../../lib/session-api';

/** SPEC §9: the same limits as the Self-AI upload (JPG or PNG, 10485760 bytes). */
export const PICTURE_MAX_BYTES = 10 * 1024 * 1024;
export const PICTURE_TYPES = ['image/jpeg', 'image/png'] as const;

export const ACCOUNT_EXPORT_PATH = '/api/account/export';
export const LOGOUT_PATH = '/api/logout';

export type PictureProblem = 'wrongType' | 'tooLarge';

/** Why a chosen file cannot be a profile picture, or null when it can. */
export function checkPicture(file: Pick<File, 'type' | 'size'>): PictureProblem | null {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) return 'wrongType';
  if (file.size > PICTURE_MAX_BYTES) return 'tooLarge';
  return null;
}

async function readBody(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

async function sendJson(path: string, method: 'POST' | 'PUT', body?: unknown): Promise<unknown> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    cache: 'no-store',
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

/**
 * The Self-AI upload path (contract: uploads): ask for a one-time target, put the bytes there, then
 * have the server re-encode it into the small public renditions the avatar shows.
 */
export async function uploadProfilePicture(file: File): Promise<void> {
  const target = (await sendJson('/api/objects/upload', 'POST')) as { uploadURL?: unknown } | null;
  const uploadURL = typeof target?.uploadURL === 'string' ? target.uploadURL : null;
  if (!uploadURL) throw new ApiError(502, { message: 'No upload target' });
  const put = await fetch(uploadURL, { method: 'PUT', body: file, headers: { 'content-type': file.type } });
  if (!put.ok) throw new ApiError(put.status, await readBody(put));
  await sendJson('/api/profile/picture', 'PUT', { imageURL: uploadURL });
}

/** Deletes the account after the password check; the server clears the session cookie. */
export async function deleteAccount(password: string): Promise<void> {
  await sendJson('/api/account/delete', 'POST', { password });
}
