import { downloadFileName } from './image-settings';

/** How long the downloaded file's object URL is kept before it is released. */
const REVOKE_AFTER_MS = 30_000;

/**
 * Spec §7: fetches the image itself (same origin, with the session cookie, so private images work)
 * and saves it as "<prompt cut to 50 characters>.png" through a temporary <a download>.
 * Rejects when the image cannot be fetched.
 */
export async function downloadImage(imageUrl: string, prompt: string): Promise<void> {
  const response = await fetch(imageUrl, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = downloadFileName(prompt);
  link.rel = 'noopener';
  link.hidden = true;
  document.body.appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    window.setTimeout(() => URL.revokeObjectURL(objectUrl), REVOKE_AFTER_MS);
  }
}
