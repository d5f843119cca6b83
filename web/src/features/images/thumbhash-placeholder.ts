import { thumbHashToDataURL } from 'thumbhash';

const decoded = new Map<string, string | null>();
/** Enough for several pages of images; the oldest entries go first. */
const MAX_ENTRIES = 500;

function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/**
 * The image's ThumbHash (base64, from the API) as a tiny PNG data URL to show while the real image
 * loads; null when there is none or it cannot be decoded. Decoded once per hash.
 */
export function placeholderDataUrl(thumbHash: string | null | undefined): string | null {
  if (!thumbHash) return null;
  const cached = decoded.get(thumbHash);
  if (cached !== undefined) return cached;
  let url: string | null;
  try {
    url = thumbHashToDataURL(base64ToBytes(thumbHash));
  } catch {
    url = null;
  }
  if (decoded.size >= MAX_ENTRIES) decoded.delete(decoded.keys().next().value!);
  decoded.set(thumbHash, url);
  return url;
}
