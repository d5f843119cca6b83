/**
 * A fake OpenAI Images server over real HTTP, for tests.
 *
 *   const fake = await startFakeOpenAiImages({ apiKey: 'sk-test', image: png });
 *   const provider = new OpenAiImagesProvider({ baseUrl: fake.url, apiKey: 'sk-test' });
 *   fake.setScenario({ kind: 'error', status: 429, retryAfter: 7 });
 *   fake.lastGeneration()?.body;   // what the client sent
 *   await fake.close();
 *
 * `POST /v1/images/generations` plays the current scenario after checking the body the way OpenAI does:
 * dall-e-3 takes sizes 1024x1024 / 1792x1024 / 1024x1792, qualities standard / hd, styles vivid / natural;
 * gpt-image models take 1024x1024 / 1536x1024 / 1024x1536, low / medium / high, and refuse `style` and
 * `response_format`. `GET /files/<name>` serves the images of 'url' answers. Every request is recorded.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface ImagesRequestBody {
  model?: unknown;
  prompt?: unknown;
  n?: unknown;
  size?: unknown;
  quality?: unknown;
  style?: unknown;
  response_format?: unknown;
  output_format?: unknown;
  [field: string]: unknown;
}

export interface OpenAiErrorObject {
  message: string;
  type?: string | null;
  code?: string | null;
  param?: string | null;
}

interface Timing {
  /** Hold the response headers back this long (the time the model draws). */
  headersDelayMs?: number;
}

/** A picture, as base64 in the JSON (default) or as a link the client must download. */
export interface ImageScenario extends Timing {
  kind: 'image';
  /** Default: the server's image. */
  image?: Buffer;
  as?: 'b64_json' | 'url';
  /** dall-e-3 rewrites prompts; default `An artistic rendering of: <prompt>` for dall-e models, none for gpt-image. */
  revisedPrompt?: string | null;
  /** For 'url': the download's status (default 200) and how long it waits before answering. */
  download?: { status?: number; delayMs?: number };
  /** After the headers, send the first bytes of the body, then wait this long before the rest. */
  bodyStallMs?: number;
}

/** A non-2xx answer in OpenAI's error shape (or a raw body). */
export interface ErrorScenario extends Timing {
  kind: 'error';
  status: number;
  error?: OpenAiErrorObject;
  rawBody?: string;
  contentType?: string;
  retryAfter?: number | string;
}

/** Any answer, byte for byte (malformed JSON, a JSON without an image...). */
export interface RawScenario extends Timing {
  kind: 'raw';
  status?: number;
  body: string;
  contentType?: string;
}

/** Never answers; the connection stays open until the client gives up. */
export interface StallScenario {
  kind: 'stall';
}

export type FakeImagesScenario = ImageScenario | ErrorScenario | RawScenario | StallScenario;

export interface RecordedImagesRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: ImagesRequestBody | null;
  rawBody: string;
  /** 'client-closed' when the client went away before the answer was complete. */
  outcome: 'pending' | 'completed' | 'client-closed';
  closed: Promise<'completed' | 'client-closed'>;
}

export interface FakeOpenAiImages {
  /** Base URL ending in /v1. */
  url: string;
  requests: RecordedImagesRequest[];
  /** The most recent `POST /v1/images/generations`. */
  lastGeneration(): RecordedImagesRequest | undefined;
  setScenario(scenario: FakeImagesScenario): void;
  close(): Promise<void>;
}

export interface FakeOpenAiImagesOptions {
  /** The default image answer's picture. */
  image: Buffer;
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401 that echoes the key they sent. */
  apiKey?: string;
  scenario?: FakeImagesScenario;
}

const DALLE3 = { sizes: ['1024x1024', '1792x1024', '1024x1792'], qualities: ['standard', 'hd'], styles: ['vivid', 'natural'] };
const GPT_IMAGE = { sizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'], qualities: ['low', 'medium', 'high', 'auto'] };

/** Ready-made errors in the shapes OpenAI sends. */
export const imageErrors = {
  contentPolicy: (): ErrorScenario => ({
    kind: 'error',
    status: 400,
    error: {
      message:
        'Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.',
      type: 'invalid_request_error',
      code: 'content_policy_violation',
      param: null,
    },
  }),
  moderationBlocked: (): ErrorScenario => ({
    kind: 'error',
    status: 400,
    error: {
      message: 'Your request was rejected by the safety system. If you believe this is an error, contact us.',
      type: 'image_generation_user_error',
      code: 'moderation_blocked',
      param: null,
    },
  }),
  rateLimited: (retryAfter?: number | string): ErrorScenario => ({
    kind: 'error',
    status: 429,
    retryAfter,
    error: {
      message: 'Rate limit exceeded for images per minute in organization org-fake. Limit: 5/1min.',
      type: 'requests',
      code: 'rate_limit_exceeded',
    },
  }),
  billingLimit: (): ErrorScenario => ({
    kind: 'error',
    status: 400,
    error: { message: 'Billing hard limit has been reached', type: 'image_generation_user_error', code: 'billing_hard_limit_reached' },
  }),
  serverError: (status = 500): ErrorScenario => ({
    kind: 'error',
    status,
    error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', code: null },
  }),
} as const;

export async function startFakeOpenAiImages(options: FakeOpenAiImagesOptions): Promise<FakeOpenAiImages> {
  let scenario: FakeImagesScenario = options.scenario ?? { kind: 'image' };
  const requests: RecordedImagesRequest[] = [];
  const files = new Map<string, { image: Buffer; status: number; delayMs: number }>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;
  let fileCounter = 0;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const server = http.createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const rawBody = Buffer.concat(pieces).toString('utf8');
      let body: ImagesRequestBody | null = null;
      try {
        const parsed: unknown = rawBody ? JSON.parse(rawBody) : null;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as ImagesRequestBody;
      } catch {
        body = null;
      }
      let resolveClosed!: (outcome: 'completed' | 'client-closed') => void;
      const record: RecordedImagesRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        rawBody,
        outcome: 'pending',
        closed: new Promise((resolve) => (resolveClosed = resolve)),
      };
      requests.push(record);
      res.on('close', () => {
        record.outcome = res.writableFinished ? 'completed' : 'client-closed';
        resolveClosed(record.outcome);
      });
      route(req, res, record).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, 500, { message: `fake server failure: ${String(error)}`, type: 'server_error' });
        else res.destroy();
      });
    });
  });

  async function route(req: http.IncomingMessage, res: http.ServerResponse, record: RecordedImagesRequest): Promise<void> {
    const path = record.path.split('?')[0];
    if (req.method === 'GET' && path.startsWith('/files/')) {
      const file = files.get(path.slice('/files/'.length));
      if (!file) return sendError(res, 404, { message: 'No such file', type: 'invalid_request_error' });
      await sleep(file.delayMs);
      if (file.status !== 200) return sendError(res, file.status, { message: 'Download failed', type: 'server_error' });
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': file.image.length });
      res.end(file.image);
      return;
    }
    if (path !== '/v1/images/generations' || req.method !== 'POST') {
      return sendError(res, 404, { message: `Invalid URL (${req.method} ${path})`, type: 'invalid_request_error' });
    }
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      const sent = (req.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      // OpenAI echoes (part of) the wrong key; this fake echoes all of it so leaks are easy to catch.
      return sendError(res, 401, {
        message: `Incorrect API key provided: ${sent}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      });
    }
    const body = record.body;
    if (!body) return sendError(res, 400, { message: 'We could not parse the JSON body of your request.', type: 'invalid_request_error' });
    const invalid = validate(body);
    if (invalid) return sendError(res, 400, invalid);

    const current = scenario;
    if (current.kind === 'stall') return; // the connection stays open
    await sleep(current.headersDelayMs ?? 0);
    if (res.destroyed || closing) return;
    if (current.kind === 'error') {
      const headers: Record<string, string> = {};
      if (current.retryAfter !== undefined) headers['Retry-After'] = String(current.retryAfter);
      if (current.rawBody !== undefined) {
        res.writeHead(current.status, { 'Content-Type': current.contentType ?? 'text/plain', ...headers });
        res.end(current.rawBody);
        return;
      }
      return sendError(res, current.status, current.error ?? { message: http.STATUS_CODES[current.status] ?? 'error' }, headers);
    }
    if (current.kind === 'raw') {
      res.writeHead(current.status ?? 200, { 'Content-Type': current.contentType ?? 'application/json' });
      res.end(current.body);
      return;
    }
    const image = current.image ?? options.image;
    const gptImage = String(body.model).startsWith('gpt-image');
    const item: Record<string, unknown> = {};
    if (current.as === 'url') {
      const name = `img-${++fileCounter}.png`;
      files.set(name, { image, status: current.download?.status ?? 200, delayMs: current.download?.delayMs ?? 0 });
      const { port } = server.address() as AddressInfo;
      item.url = `http://127.0.0.1:${port}/files/${name}`;
    } else {
      item.b64_json = image.toString('base64');
    }
    const revised =
      current.revisedPrompt === undefined ? (gptImage ? null : `An artistic rendering of: ${String(body.prompt)}`) : current.revisedPrompt;
    if (revised !== null) item.revised_prompt = revised;
    const answer: Record<string, unknown> = { created: Math.floor(Date.now() / 1000), data: [item] };
    if (gptImage) {
      Object.assign(answer, { background: 'opaque', output_format: body.output_format ?? 'png', quality: body.quality, size: body.size });
      answer.usage = { input_tokens: 12, output_tokens: 4160, total_tokens: 4172 };
    }
    const text = JSON.stringify(answer);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    if (current.bodyStallMs) {
      res.write(text.slice(0, 20));
      await sleep(current.bodyStallMs);
      if (res.destroyed || closing) return;
      res.end(text.slice(20));
      return;
    }
    res.end(text);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    lastGeneration: () => [...requests].reverse().find((request) => request.path.startsWith('/v1/images/generations')),
    setScenario(next) {
      scenario = next;
    },
    async close() {
      closing = true;
      for (const timer of timers) clearTimeout(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** OpenAI's own checks, in its error shapes. */
function validate(body: ImagesRequestBody): OpenAiErrorObject | null {
  const invalidValue = (param: string, value: unknown, allowed: string[]): OpenAiErrorObject => ({
    message: `Invalid value: '${String(value)}'. Supported values are: ${allowed.map((entry) => `'${entry}'`).join(', ')}.`,
    type: 'invalid_request_error',
    code: 'invalid_value',
    param,
  });
  if (typeof body.prompt !== 'string' || !body.prompt) {
    return {
      message: "Missing required parameter: 'prompt'.",
      type: 'invalid_request_error',
      code: 'missing_required_parameter',
      param: 'prompt',
    };
  }
  if (body.n !== undefined && body.n !== 1) return invalidValue('n', body.n, ['1']);
  const model = String(body.model ?? 'dall-e-2');
  if (model.startsWith('gpt-image')) {
    for (const param of ['response_format', 'style']) {
      if (body[param] !== undefined) {
        return { message: `Unknown parameter: '${param}'.`, type: 'invalid_request_error', code: 'unknown_parameter', param };
      }
    }
    if (body.size !== undefined && !GPT_IMAGE.sizes.includes(String(body.size))) return invalidValue('size', body.size, GPT_IMAGE.sizes);
    if (body.quality !== undefined && !GPT_IMAGE.qualities.includes(String(body.quality))) {
      return invalidValue('quality', body.quality, GPT_IMAGE.qualities);
    }
    return null;
  }
  if (model === 'dall-e-3') {
    if (body.size !== undefined && !DALLE3.sizes.includes(String(body.size))) return invalidValue('size', body.size, DALLE3.sizes);
    if (body.quality !== undefined && !DALLE3.qualities.includes(String(body.quality))) {
      return invalidValue('quality', body.quality, DALLE3.qualities);
    }
    if (body.style !== undefined && !DALLE3.styles.includes(String(body.style))) return invalidValue('style', body.style, DALLE3.styles);
    if (body.response_format !== undefined && !['url', 'b64_json'].includes(String(body.response_format))) {
      return invalidValue('response_format', body.response_format, ['url', 'b64_json']);
    }
  }
  return null;
}

function sendError(res: http.ServerResponse, status: number, error: OpenAiErrorObject, headers: Record<string, string> = {}): void {
  const text = JSON.stringify({ error: { type: null, code: null, param: null, ...error } });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * A TCP server that accepts connections and never says a word: an `https://` URL to it never gets
 * through the TLS handshake, which is how a provider that cannot be reached looks to the client.
 */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
