import { UpstreamError, UpstreamExchange, type UpstreamWording, describeErrorObject, normaliseApiBaseUrl, withDetail } from '@app/kit';

/**
 * The HTTP side both model adapters share: one JSON POST under kit's UpstreamExchange (time limit, the caller's
 * signal, bounded reads, status mapping, redaction of the key), the base URL rules and the wording of failures.
 */

/** The environment variables named in failure messages (see modelStageEnvironment). */
export const URL_VARIABLE = 'MODERATION_URL';
export const KEY_VARIABLE = 'MODERATION_API_KEY';

/** A moderation or guard answer is tiny; anything bigger than this is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export const MODEL_WORDING: UpstreamWording = {
  provider: 'The moderation model',
  cancelled: 'The moderation check was cancelled',
  totalTimeout: (limit) => `The moderation model did not answer within ${limit}`,
  urlHint: `check ${URL_VARIABLE}`,
};

/**
 * The API root without `/v1`: trailing slashes, a pasted endpoint (`/moderations`, `/chat/completions`) and a
 * trailing `/v1` are dropped, so `http://host:11434`, `http://host:11434/v1/` and `.../v1/moderations` agree.
 * Throws for anything but an http(s) URL.
 */
export function normaliseModelBaseUrl(raw: string): string {
  const message = `The moderation model URL must be an http(s) URL such as https://api.openai.com or http://127.0.0.1:11434/v1`;
  return normaliseApiBaseUrl(raw, /(\/v1)?(\/(moderations|chat\/completions))?$/i, message);
}

export interface PostJsonOptions {
  url: string;
  apiKey: string | null;
  model: string;
  body: unknown;
  signal: AbortSignal;
  timeoutMs: number;
}

/**
 * POSTs `body` and hands the JSON answer to `read`, which throws an UpstreamError for an answer it cannot use.
 * Every failure (time-out, the caller's abort, an HTTP error, a web page or malformed JSON) is an UpstreamError
 * whose message never holds the key.
 */
export async function postJson<T>(
  options: PostJsonOptions,
  read: (payload: Record<string, unknown>, call: UpstreamExchange) => T,
): Promise<T> {
  const { apiKey, timeoutMs } = options;
  const call = new UpstreamExchange({
    wording: MODEL_WORDING,
    connectTimeoutMs: timeoutMs,
    totalTimeoutMs: timeoutMs,
    signal: options.signal,
    secrets: apiKey ? [apiKey] : [],
  });
  try {
    call.start();
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
    const response = await call.fetch(options.url, { method: 'POST', headers, body: JSON.stringify(options.body) });
    if (!response.ok) throw await httpError(call, response, options.model);
    const payload = await call.readJson(response, {
      maxBytes: MAX_ANSWER_BYTES,
      brokenMessage: "The moderation model's answer ended unexpectedly",
    });
    if (payload.error != null || payload.object === 'error') {
      const info = describeErrorObject(payload.error ?? payload);
      throw new UpstreamError('unavailable', withDetail('The moderation model reported an error', call.quote(info.message)), {
        status: response.status,
      });
    }
    return read(payload, call);
  } catch (error) {
    throw call.failure(error);
  } finally {
    call.dispose();
  }
}

/** A non-2xx answer as an UpstreamError; kit maps the statuses, this names the settings to check. */
async function httpError(call: UpstreamExchange, response: Response, model: string): Promise<UpstreamError> {
  const failure = await call.httpFailure(response);
  if (failure.kind === 'auth') {
    return new UpstreamError('auth', `The moderation model refused the credentials (HTTP ${failure.status}); check ${KEY_VARIABLE}`, {
      status: failure.status,
    });
  }
  if (failure.status === 404) {
    const summary = `The moderation model server does not know the model "${call.quote(model)}" or the URL (HTTP 404); check ${URL_VARIABLE}`;
    return new UpstreamError('refused', withDetail(summary, failure.detail), { status: 404, detail: failure.detail });
  }
  return failure;
}

/** An answer that is JSON but not what the protocol promises. */
export function malformed(what: string, status = 200): UpstreamError {
  return new UpstreamError('unavailable', `The moderation model sent a malformed answer (${what})`, { status });
}
