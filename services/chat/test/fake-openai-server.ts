/**
 * A fake OpenAI-compatible chat-completions server over real HTTP, for tests and benchmarks.
 *
 *   const fake = await startFakeOpenAi({ scenario: { kind: 'stream', reply: 'Hello there!', delayMs: 20 } });
 *   const provider = new OpenAiChatProvider({ baseUrl: fake.url, model: 'fake-model' });
 *   ...
 *   fake.setScenario(fakeErrors.rateLimited(7));   // the next requests get a 429 with Retry-After: 7
 *   fake.requests[0].body.messages;                // what the client sent
 *   await fake.close();
 *
 * Routes (under `/v1`): `POST /v1/chat/completions` plays the current scenario; `GET /v1/models` lists
 * the model. Anything else gets an OpenAI-style 404. Every request is recorded in `requests`.
 * A 'stream' scenario answers a request without `stream: true` with one JSON completion, as real servers do;
 * a 'json' scenario always answers JSON (a server that ignores `stream`).
 *
 * Streamed chunks are shaped like OpenAI's (`chat.completion.chunk`, first delta carries the role, a
 * final chunk with `finish_reason`, then a usage chunk with empty `choices` when the client asked for
 * `stream_options.include_usage`, then `data: [DONE]`). Each chunk object also carries `x_sent_at`, the
 * sender's wall-clock time in ms with sub-ms precision (`performance.timeOrigin + performance.now()`),
 * which real clients ignore and a benchmark can use to measure the platform's added latency.
 */
import http from 'node:http';
import { type AddressInfo } from 'node:net';

/** The JSON body a chat-completions client sends (only the fields the fake reads are typed). */
export interface ChatCompletionRequestBody {
  model?: string;
  messages?: { role: string; content: unknown }[];
  stream?: boolean;
  temperature?: number;
  max_tokens?: number;
  stream_options?: { include_usage?: boolean };
  [field: string]: unknown;
}

/** The reply text, fixed or computed from the request (e.g. an echo). */
export type FakeReply = string | ((body: ChatCompletionRequestBody) => string);

export interface FakeUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** An OpenAI-style error object, as sent in `{ "error": ... }`. */
export interface FakeErrorObject {
  message: string;
  type?: string | null;
  code?: string | number | null;
  param?: string | null;
}

interface CommonScenario {
  /** Hold the response headers back this long (a slow first byte / slow connect). */
  headersDelayMs?: number;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** A normal streamed reply, optionally interrupted. */
export interface StreamScenario extends CommonScenario {
  kind: 'stream';
  /** Default: an echo of the last user message (`Echo: <text>`). */
  reply?: FakeReply;
  /** Explicit content pieces; overrides splitting `reply`. */
  chunks?: string[];
  /** Split the reply into pieces of this many characters (code points). Default: one piece per word (with its trailing space). */
  chunkChars?: number;
  /** Pause before each content chunk (after the first), in ms. Default 0. */
  delayMs?: number;
  /** The `model` field of each chunk; null leaves the field out. Default: the server's model. */
  model?: string | null;
  /** 'auto' (default): a usage chunk when the client asked for it, counts estimated; 'none': never; or fixed counts. */
  usage?: FakeUsage | 'auto' | 'none';
  /** The final chunk's finish_reason; null sends no finish chunk. Default 'stop'. */
  finishReason?: string | null;
  /** Send `data: [DONE]` at the end. Default true. */
  sendDone?: boolean;
  /** Send an SSE comment line (`: keep-alive`, as OpenRouter does) before every event. */
  keepAlive?: boolean;
  /** Sent first as `delta.reasoning_content` chunks (DeepSeek/vLLM/llama.cpp style), which clients must not show. */
  reasoning?: string;
  /** Line ending of the SSE stream. Default '\n'. */
  lineEnding?: '\n' | '\r\n';
  /** Write each event's bytes in slices of this many bytes, each a separate write (splits lines and UTF-8 characters). */
  writeSliceBytes?: number;
  /**
   * Also cut each event's bytes inside every multi-byte UTF-8 character and between every `\r` and `\n`,
   * the hardest places for a client's decoder (few extra writes, unlike `writeSliceBytes: 1`).
   */
  splitAwkwardly?: boolean;
  /** Pause between the pieces of a split event, in ms. Default 0 (the next event-loop turn); 1 or more makes separate TCP reads likely. */
  sliceDelayMs?: number;
  /** Stop the normal stream after `afterChunks` content chunks and instead... */
  interrupt?: {
    afterChunks: number;
    /**
     * 'drop': destroy the socket (no finish_reason, no [DONE]);
     * 'end': end the response cleanly but without finish_reason or [DONE];
     * 'stall': send nothing more and keep the connection open;
     * 'malformed': send a `data:` line that is not JSON, then end;
     * 'error': send a chunk with an `error` object (OpenRouter's mid-stream error shape), then end.
     */
    kind: 'drop' | 'end' | 'stall' | 'malformed' | 'error';
    error?: FakeErrorObject;
  };
}

/** The server ignores `stream: true` and answers one `chat.completion` JSON object. */
export interface JsonScenario extends CommonScenario {
  kind: 'json';
  reply?: FakeReply;
  model?: string | null;
  usage?: FakeUsage | 'auto' | 'none';
  finishReason?: string | null;
}

/** A non-2xx answer. */
export interface ErrorScenario extends CommonScenario {
  kind: 'error';
  status: number;
  /** Sent as `{ "error": ... }`; ignored when `rawBody` is given. */
  error?: FakeErrorObject;
  /** A raw body instead (plain text, HTML, another JSON shape). */
  rawBody?: string;
  /** Default application/json, or text/plain with `rawBody`. */
  contentType?: string;
  /** Sent as the Retry-After header. */
  retryAfter?: number | string;
}

export type FakeScenario = StreamScenario | JsonScenario | ErrorScenario;

/** A scenario, or a function choosing one per request (`index` counts chat-completion requests from 0). */
export type FakeScenarioSelector = FakeScenario | ((body: ChatCompletionRequestBody, index: number) => FakeScenario);

export type FakeRequestOutcome = 'pending' | 'completed' | 'client-closed' | 'server-dropped' | 'server-closed';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. '/v1/chat/completions'. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or null when it was not JSON. */
  body: ChatCompletionRequestBody | null;
  rawBody: string;
  /** Wall-clock ms (timeOrigin + performance.now()) when the body had arrived. */
  receivedAt: number;
  /** Content pieces written so far, with their send times (same clock as `x_sent_at`). */
  sent: { text: string; sentAt: number }[];
  /** How the exchange ended so far. 'client-closed': the client went away before the server finished. */
  outcome: FakeRequestOutcome;
  /** Resolves with the outcome once the connection for this response has closed. */
  closed: Promise<FakeRequestOutcome>;
}

export interface FakeOpenAiOptions {
  /** Default: a word-by-word echo stream. */
  scenario?: FakeScenarioSelector;
  /** The model the server reports. Default 'fake-model'. */
  model?: string;
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  apiKey?: string;
}

export interface FakeOpenAi {
  /** Base URL ending in /v1, e.g. 'http://127.0.0.1:41234/v1'. */
  url: string;
  port: number;
  /** Every request received, oldest first (live array; `clearRequests()` empties it). */
  requests: RecordedRequest[];
  /** The most recent chat-completions request, if any. */
  lastRequest(): RecordedRequest | undefined;
  setScenario(scenario: FakeScenarioSelector): void;
  clearRequests(): void;
  /** Closes every connection (stalled streams included) and the server. */
  close(): Promise<void>;
}

/** Ready-made error scenarios in the shapes OpenAI and friends send. */
export const fakeErrors = {
  unauthorized: (message = 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.') =>
    ({
      kind: 'error',
      status: 401,
      error: { message, type: 'invalid_request_error', code: 'invalid_api_key', param: null },
    }) as ErrorScenario,
  forbidden: () => ({ kind: 'error', status: 403, error: { message: 'Forbidden', type: 'permission_error', code: null } }) as ErrorScenario,
  modelNotFound: (model = 'fake-model') =>
    ({
      kind: 'error',
      status: 404,
      error: {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        code: 'model_not_found',
      },
    }) as ErrorScenario,
  rateLimited: (retryAfterSeconds?: number) =>
    ({
      kind: 'error',
      status: 429,
      retryAfter: retryAfterSeconds,
      error: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
    }) as ErrorScenario,
  insufficientQuota: () =>
    ({
      kind: 'error',
      status: 429,
      error: {
        message: 'You exceeded your current quota, please check your plan and billing details.',
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    }) as ErrorScenario,
  contextLength: (message = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.") =>
    ({
      kind: 'error',
      status: 400,
      error: { message, type: 'invalid_request_error', code: 'context_length_exceeded', param: 'messages' },
    }) as ErrorScenario,
  serverError: (status = 500, message = 'The server had an error while processing your request.') =>
    ({ kind: 'error', status, error: { message, type: 'server_error', code: null } }) as ErrorScenario,
  gatewayTimeout: () => ({ kind: 'error', status: 504, rawBody: 'upstream request timeout', contentType: 'text/plain' }) as ErrorScenario,
} as const;

/** The reply used when a scenario gives none: `Echo: <last user message>`. */
export function echoReply(body: ChatCompletionRequestBody): string {
  const lastUser = [...(body.messages ?? [])].reverse().find((message) => message.role === 'user');
  return `Echo: ${typeof lastUser?.content === 'string' ? lastUser.content : ''}`;
}

/** Sender wall-clock in ms with sub-ms precision; comparable across processes on one machine. */
export const wallClock = (): number => performance.timeOrigin + performance.now();

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  const serverModel = options.model ?? 'fake-model';
  let selector: FakeScenarioSelector = options.scenario ?? { kind: 'stream' };
  let completionIndex = 0;
  let closing = false;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const sleeps = new Set<() => void>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0 || closing) return resolve();
      const done = () => {
        clearTimeout(timer);
        timers.delete(timer);
        sleeps.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timers.add(timer);
      sleeps.add(done);
    });

  const server = http.createServer({ noDelay: true, keepAlive: true }, (req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const rawBody = Buffer.concat(pieces).toString('utf8');
      let body: ChatCompletionRequestBody | null = null;
      try {
        const parsed: unknown = rawBody ? JSON.parse(rawBody) : null;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as ChatCompletionRequestBody;
      } catch {
        body = null;
      }
      let resolveClosed!: (outcome: FakeRequestOutcome) => void;
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        rawBody,
        receivedAt: wallClock(),
        sent: [],
        outcome: 'pending',
        closed: new Promise((resolve) => (resolveClosed = resolve)),
      };
      requests.push(record);
      res.on('close', () => {
        if (record.outcome === 'pending') record.outcome = res.writableFinished ? 'completed' : closing ? 'server-closed' : 'client-closed';
        resolveClosed(record.outcome);
      });
      route(req, res, record).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, { message: `fake server failure: ${String(error)}`, type: 'server_error' });
        else res.destroy();
      });
    });
  });

  async function route(req: http.IncomingMessage, res: http.ServerResponse, record: RecordedRequest): Promise<void> {
    const path = record.path.split('?')[0].replace(/\/+$/, '');
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      sendError(res, 401, fakeErrors.unauthorized().error!);
      return;
    }
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, { object: 'list', data: [{ id: serverModel, object: 'model', created: 0, owned_by: 'fake' }] });
      return;
    }
    if (path !== '/v1/chat/completions' || req.method !== 'POST') {
      sendError(res, 404, {
        message: `Unknown request URL: ${req.method} ${record.path}`,
        type: 'invalid_request_error',
        code: 'unknown_url',
      });
      return;
    }
    if (!record.body) {
      sendError(res, 400, { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' });
      return;
    }
    const body = record.body;
    const scenario = typeof selector === 'function' ? selector(body, completionIndex) : selector;
    completionIndex++;
    await sleep(scenario.headersDelayMs ?? 0);
    if (res.destroyed || closing) return;
    if (scenario.kind === 'error') return playError(res, scenario);
    if (scenario.kind === 'json') return playJson(res, scenario, body);
    // Like real servers, a stream scenario answers a request without `stream: true` in one JSON object.
    if (body.stream !== true) {
      const reply = scenario.chunks ? scenario.chunks.join('') : resolveReply(scenario.reply, body);
      return playJson(
        res,
        {
          kind: 'json',
          reply,
          model: scenario.model,
          usage: scenario.usage,
          finishReason: scenario.finishReason,
          headers: scenario.headers,
        },
        body,
      );
    }
    return playStream(res, scenario, body, record);
  }

  function playError(res: http.ServerResponse, scenario: ErrorScenario): void {
    const headers: Record<string, string> = { ...scenario.headers };
    if (scenario.retryAfter !== undefined) headers['Retry-After'] = String(scenario.retryAfter);
    if (scenario.rawBody !== undefined) {
      res.writeHead(scenario.status, { 'Content-Type': scenario.contentType ?? 'text/plain; charset=utf-8', ...headers });
      res.end(scenario.rawBody);
      return;
    }
    sendError(
      res,
      scenario.status,
      scenario.error ?? { message: http.STATUS_CODES[scenario.status] ?? 'error' },
      headers,
      scenario.contentType,
    );
  }

  function playJson(res: http.ServerResponse, scenario: JsonScenario, body: ChatCompletionRequestBody): void {
    const reply = resolveReply(scenario.reply, body);
    const usage = usageFor(scenario.usage, body, reply, true);
    const completion: Record<string, unknown> = {
      id: `chatcmpl-fake-${completionIndex}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      choices: [
        { index: 0, message: { role: 'assistant', content: reply }, logprobs: null, finish_reason: scenario.finishReason ?? 'stop' },
      ],
      x_sent_at: wallClock(),
    };
    const model = scenario.model === undefined ? serverModel : scenario.model;
    if (model !== null) completion.model = model;
    if (usage) completion.usage = usage;
    sendJson(res, 200, completion, scenario.headers);
  }

  async function playStream(
    res: http.ServerResponse,
    scenario: StreamScenario,
    body: ChatCompletionRequestBody,
    record: RecordedRequest,
  ): Promise<void> {
    const eol = scenario.lineEnding ?? '\n';
    const reply = scenario.chunks ? scenario.chunks.join('') : resolveReply(scenario.reply, body);
    const pieces = scenario.chunks ?? splitReply(reply, scenario.chunkChars);
    const model = scenario.model === undefined ? serverModel : scenario.model;
    const id = `chatcmpl-fake-${completionIndex}`;
    const created = Math.floor(Date.now() / 1000);

    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      ...scenario.headers,
    });
    res.flushHeaders();

    const alive = () => !res.destroyed && !closing;
    const write = async (text: string) => {
      if (!alive()) return;
      const bytes = Buffer.from(text, 'utf8');
      const cuts = cutPoints(bytes, scenario.writeSliceBytes, scenario.splitAwkwardly === true);
      if (cuts.length === 0) {
        res.write(bytes);
        return;
      }
      let start = 0;
      for (const end of [...cuts, bytes.length]) {
        if (!alive()) return;
        res.write(bytes.subarray(start, end));
        start = end;
        if (end === bytes.length) break;
        if (scenario.sliceDelayMs) await sleep(scenario.sliceDelayMs);
        else await new Promise<void>((resolve) => setImmediate(resolve));
      }
    };
    const event = async (data: string) => {
      if (scenario.keepAlive) await write(`: keep-alive${eol}${eol}`);
      await write(`data: ${data}${eol}${eol}`);
    };
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) => {
      const payload: Record<string, unknown> = {
        id,
        object: 'chat.completion.chunk',
        created,
        system_fingerprint: null,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
        ...extra,
        x_sent_at: wallClock(),
      };
      if (model !== null) payload.model = model;
      return JSON.stringify(payload);
    };

    await event(chunk({ role: 'assistant', content: '' }));
    if (scenario.reasoning) {
      for (const piece of splitReply(scenario.reasoning)) await event(chunk({ reasoning_content: piece, content: null }));
    }
    for (let index = 0; index < pieces.length; index++) {
      if (scenario.interrupt && index === scenario.interrupt.afterChunks) return interrupt(res, scenario, write, eol, chunk, record);
      if (index > 0) await sleep(scenario.delayMs ?? 0);
      if (!alive()) return;
      await event(chunk({ content: pieces[index] }));
      record.sent.push({ text: pieces[index], sentAt: wallClock() });
    }
    if (scenario.interrupt && scenario.interrupt.afterChunks >= pieces.length) return interrupt(res, scenario, write, eol, chunk, record);
    if (!alive()) return;
    const finishReason = scenario.finishReason === undefined ? 'stop' : scenario.finishReason;
    if (finishReason !== null) await event(chunk({}, finishReason));
    const usage = usageFor(scenario.usage, body, reply, body.stream_options?.include_usage === true);
    if (usage) {
      const payload: Record<string, unknown> = { id, object: 'chat.completion.chunk', created, choices: [], usage, x_sent_at: wallClock() };
      if (model !== null) payload.model = model;
      await event(JSON.stringify(payload));
    }
    if (scenario.sendDone !== false) await write(`data: [DONE]${eol}${eol}`);
    if (alive()) res.end();
  }

  async function interrupt(
    res: http.ServerResponse,
    scenario: StreamScenario,
    write: (text: string) => Promise<void>,
    eol: string,
    chunk: (delta: Record<string, unknown>, finishReason?: string | null, extra?: Record<string, unknown>) => string,
    record: RecordedRequest,
  ): Promise<void> {
    switch (scenario.interrupt!.kind) {
      case 'drop':
        // Flush what was written, then close the connection mid-body (no final chunk, no [DONE]).
        record.outcome = 'server-dropped';
        res.socket?.destroySoon();
        return;
      case 'end':
        res.end();
        return;
      case 'stall':
        return; // the connection stays open until the client gives up or the server closes
      case 'malformed':
        await write(`data: {"id": "broken", "choices": [{"delta": {"content": "unterminated${eol}${eol}`);
        res.end();
        return;
      case 'error': {
        const error = scenario.interrupt!.error ?? { message: 'Provider returned error', code: 502 };
        await write(`data: ${chunk({ content: '' }, 'error', { error })}${eol}${eol}`);
        res.end();
        return;
      }
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    lastRequest: () => [...requests].reverse().find((request) => request.path.startsWith('/v1/chat/completions')),
    setScenario(scenario) {
      selector = scenario;
    },
    clearRequests() {
      requests.length = 0;
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const wake of [...sleeps]) wake();
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function resolveReply(reply: FakeReply | undefined, body: ChatCompletionRequestBody): string {
  if (reply === undefined) return echoReply(body);
  return typeof reply === 'function' ? reply(body) : reply;
}

/** Sorted offsets (strictly inside `bytes`) at which to cut an event into separate writes. */
function cutPoints(bytes: Buffer, sliceBytes: number | undefined, awkward: boolean): number[] {
  const cuts = new Set<number>();
  if (sliceBytes && sliceBytes > 0) for (let offset = sliceBytes; offset < bytes.length; offset += sliceBytes) cuts.add(offset);
  if (awkward) {
    for (let index = 0; index < bytes.length - 1; index++) {
      if (bytes[index] >= 0xc0) cuts.add(index + 1); // just after the lead byte of a multi-byte character
      if (bytes[index] === 0x0d && bytes[index + 1] === 0x0a) cuts.add(index + 1); // between \r and \n
    }
  }
  return [...cuts].sort((a, b) => a - b);
}

/** Words with their trailing whitespace, or fixed-size pieces of code points. */
function splitReply(reply: string, chunkChars?: number): string[] {
  if (chunkChars && chunkChars > 0) {
    const chars = [...reply];
    const pieces: string[] = [];
    for (let index = 0; index < chars.length; index += chunkChars) pieces.push(chars.slice(index, index + chunkChars).join(''));
    return pieces;
  }
  return reply.match(/\s*\S+\s*/gu) ?? (reply ? [reply] : []);
}

function usageFor(
  usage: FakeUsage | 'auto' | 'none' | undefined,
  body: ChatCompletionRequestBody,
  reply: string,
  wanted: boolean,
): (FakeUsage & { total_tokens: number }) | null {
  if (usage === 'none' || (usage === undefined || usage === 'auto' ? !wanted : false)) return null;
  const counts =
    typeof usage === 'object'
      ? usage
      : {
          prompt_tokens: Math.ceil(JSON.stringify(body.messages ?? []).length / 4),
          completion_tokens: Math.ceil(reply.length / 4),
        };
  return { ...counts, total_tokens: counts.prompt_tokens + counts.completion_tokens };
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
  contentType = 'application/json',
): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendError(
  res: http.ServerResponse,
  status: number,
  error: FakeErrorObject,
  headers: Record<string, string> = {},
  contentType?: string,
): void {
  sendJson(res, status, { error: { type: null, code: null, param: null, ...error } }, headers, contentType);
}
