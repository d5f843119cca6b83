import { isJsonObject } from '@app/kit';

/** A local server answers in a few milliseconds; anything slower is not one worth waiting for at start. */
export const PROBE_TIMEOUT_MS = 400;
/** A model list is small; a port that streams more than this is not the server we look for. */
const MAX_PROBE_BODY_CHARS = 4 * 1024 * 1024;

/** The JSON a loopback URL answers with, or undefined for anything else (closed port, HTTP error, HTML, too slow). */
export async function probeJson(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<unknown> {
  try {
    // No redirects: a program on a probed port must not send the start-up probe anywhere else.
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { Accept: 'application/json' },
      redirect: 'manual',
    });
    const declared = Number(response.headers.get('content-length'));
    if (!response.ok || declared > MAX_PROBE_BODY_CHARS) {
      await response.body?.cancel();
      return undefined;
    }
    const body = await response.text();
    return body.length > MAX_PROBE_BODY_CHARS ? undefined : (JSON.parse(body) as unknown);
  } catch {
    return undefined;
  }
}

/** The objects of an array (entries of other types dropped), or null when `value` is not an array. */
export function objectsOf(value: unknown): Record<string, unknown>[] | null {
  return Array.isArray(value) ? value.filter(isJsonObject) : null;
}

/** A non-blank string field, trimmed, or null. */
export function textOf(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}
