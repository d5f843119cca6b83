/**
 * A fake AUTOMATIC1111 WebUI API (`--api`) over real HTTP, for tests.
 *
 *   const fake = await startFakeA1111({ image: png, auth: 'user:secret' });
 *   const provider = new A1111Provider({ baseUrl: fake.url, auth: 'user:secret' });
 *   fake.setScenario({ kind: 'image', progress: [0.1, 0.5, 0.9] });
 *   fake.lastTxt2img()?.body;     // what the client sent
 *   fake.interrupts;              // how many `POST /sdapi/v1/interrupt` arrived
 *   await fake.close();
 *
 * Routes: `POST /sdapi/v1/txt2img` plays the scenario after FastAPI-style checks (422 for wrong types,
 * A1111's 404 "Sampler not found") and reports the seed it drew with in `info` (the one sent, or FAKE_A1111_DRAWN_SEED
 * for -1); `GET /sdapi/v1/samplers` lists FAKE_A1111_SAMPLERS; `GET /sdapi/v1/progress` reports the running job; `POST /sdapi/v1/interrupt`
 * ends it (a stalled job then answers, as A1111 does with the interrupted picture). Anything else: 404
 * `{"detail":"Not Found"}`. With `auth`, requests need HTTP basic auth (`--api-auth`). Every request is recorded.
 */
import http from 'node:http';
import { type AddressInfo } from 'node:net';

export interface Txt2ImgBody {
  prompt?: unknown;
  negative_prompt?: unknown;
  width?: unknown;
  height?: unknown;
  steps?: unknown;
  cfg_scale?: unknown;
  sampler_name?: unknown;
  override_settings?: { sd_model_checkpoint?: unknown } | null;
  [field: string]: unknown;
}

/** A finished picture. */
export interface ImageScenario {
  kind: 'image';
  /** Default: the server's image. */
  image?: Buffer;
  /** Replaces `images` in the answer as is (empty list, text that is not an image...). */
  images?: unknown[];
  /** Prefix the base64 with `data:image/png;base64,` (as some forks do). */
  dataUrl?: boolean;
  /** The answer's `info`: default a JSON string with `sd_model_name`; an object, or null for none. */
  info?: string | Record<string, unknown> | null;
  /** Answer after this long (the time the model draws). */
  delayMs?: number;
  /**
   * What `/progress` reports while this job runs, one value per call (the last repeats). The answer then waits
   * for one more progress call, so the client has handled every value before txt2img returns.
   */
  progress?: number[];
}

/** A non-2xx answer: JSON `body` (default A1111's error shape), or a raw text. */
export interface ErrorScenario {
  kind: 'error';
  status: number;
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  delayMs?: number;
  retryAfter?: number;
}

/** Any answer, byte for byte. */
export interface RawScenario {
  kind: 'raw';
  status?: number;
  body: string;
  contentType?: string;
  delayMs?: number;
}

/** Draws forever: answers only after an interrupt (with the picture, as A1111 does), or never. */
export interface StallScenario {
  kind: 'stall';
}

export type FakeA1111Scenario = ImageScenario | ErrorScenario | RawScenario | StallScenario;

/** How `/progress` answers: normally, with a 500, with a body that is not JSON, or not at all. */
export type ProgressMode = 'ok' | 'error' | 'malformed' | 'stall';

export interface RecordedA1111Request {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Txt2ImgBody | null;
  rawBody: string;
  outcome: 'pending' | 'completed' | 'client-closed';
  closed: Promise<'completed' | 'client-closed'>;
}

export interface FakeA1111 {
  /** e.g. 'http://127.0.0.1:41234'. */
  url: string;
  requests: RecordedA1111Request[];
  lastTxt2img(): RecordedA1111Request | undefined;
  /** `/progress` calls answered while a job was running. */
  readonly progressCalls: number;
  readonly interrupts: number;
  setScenario(scenario: FakeA1111Scenario): void;
  setProgressMode(mode: ProgressMode): void;
  close(): Promise<void>;
}

export interface FakeA1111Options {
  image: Buffer;
  /** 'user:password' as given to `--api-auth`. */
  auth?: string;
  /** Reported as `sd_model_name` in `info`. Default 'sd_xl_base_1.0'. */
  modelName?: string;
  scenario?: FakeA1111Scenario;
}

export const FAKE_A1111_SAMPLERS = ['DPM++ 2M', 'DPM++ 2M Karras', 'DPM++ SDE', 'Euler a', 'Euler', 'DDIM', 'UniPC'];
/** The seed the fake "draws" when sent -1. */
export const FAKE_A1111_DRAWN_SEED = 1234567890;

interface RunningJob {
  values: number[];
  calls: number;
  /** Called after each progress call and on interrupt. */
  wake: () => void;
  interrupted: boolean;
}

export async function startFakeA1111(options: FakeA1111Options): Promise<FakeA1111> {
  const modelName = options.modelName ?? 'sd_xl_base_1.0';
  let scenario: FakeA1111Scenario = options.scenario ?? { kind: 'image' };
  let progressMode: ProgressMode = 'ok';
  const requests: RecordedA1111Request[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let job: RunningJob | null = null;
  let progressCalls = 0;
  let interrupts = 0;
  let closing = false;
  const expectedAuth = options.auth ? `Basic ${Buffer.from(options.auth).toString('base64')}` : null;

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
      let body: Txt2ImgBody | null = null;
      try {
        const parsed: unknown = rawBody ? JSON.parse(rawBody) : null;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Txt2ImgBody;
      } catch {
        body = null;
      }
      let resolveClosed!: (outcome: 'completed' | 'client-closed') => void;
      const record: RecordedA1111Request = {
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
        if (!res.headersSent) sendJson(res, 500, { error: 'FakeServerError', detail: '', body: '', errors: String(error) });
        else res.destroy();
      });
    });
  });

  async function route(req: http.IncomingMessage, res: http.ServerResponse, record: RecordedA1111Request): Promise<void> {
    const path = record.path.split('?')[0];
    if (expectedAuth && req.headers.authorization !== expectedAuth) {
      const detail = req.headers.authorization ? 'Incorrect username or password' : 'Not authenticated';
      return sendJson(res, 401, { detail }, { 'WWW-Authenticate': 'Basic' });
    }
    if (req.method === 'GET' && path === '/sdapi/v1/progress') return progress(res);
    if (req.method === 'POST' && path === '/sdapi/v1/interrupt') {
      interrupts++;
      if (job) {
        job.interrupted = true;
        job.wake();
      }
      return sendJson(res, 200, {});
    }
    if (req.method === 'POST' && path === '/sdapi/v1/txt2img') return txt2img(res, record);
    if (req.method === 'GET' && path === '/sdapi/v1/samplers') {
      return sendJson(
        res,
        200,
        FAKE_A1111_SAMPLERS.map((name) => ({ name, aliases: [name.toLowerCase()], options: {} })),
      );
    }
    return sendJson(res, 404, { detail: 'Not Found' });
  }

  function progress(res: http.ServerResponse): void {
    const running = job;
    if (running) {
      progressCalls++;
      running.calls++;
    }
    if (progressMode === 'stall') return;
    if (progressMode === 'error') {
      sendJson(res, 500, { error: 'RuntimeError', detail: '', body: '', errors: 'progress exploded' });
    } else if (progressMode === 'malformed') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"progress": 0.4, "eta_rel');
    } else {
      const value = running && running.values.length ? running.values[Math.min(running.calls, running.values.length) - 1] : 0;
      sendJson(res, 200, {
        progress: value,
        eta_relative: running ? 3.2 * (1 - value) : 0,
        state: {
          skipped: false,
          interrupted: running?.interrupted ?? false,
          job: running ? 'txt2img' : '',
          job_count: running ? 1 : 0,
          job_timestamp: '20250101000000',
          job_no: 0,
          sampling_step: Math.round(value * 24),
          sampling_steps: 24,
        },
        current_image: null,
        textinfo: null,
      });
    }
    running?.wake();
  }

  async function txt2img(res: http.ServerResponse, record: RecordedA1111Request): Promise<void> {
    const body = record.body;
    if (!body) {
      return sendJson(res, 422, { detail: [{ loc: ['body'], msg: 'field required', type: 'value_error.missing' }] });
    }
    const invalid = validate(body);
    if (invalid) return sendJson(res, 422, { detail: [invalid] });
    if (body.sampler_name !== undefined && !FAKE_A1111_SAMPLERS.includes(String(body.sampler_name))) {
      return sendJson(res, 404, { detail: 'Sampler not found' });
    }
    const current = scenario;
    const running: RunningJob = {
      values: current.kind === 'image' ? (current.progress ?? []) : [],
      calls: 0,
      wake: () => {},
      interrupted: false,
    };
    job = running;
    try {
      if (current.kind === 'stall') {
        await new Promise<void>((resolve) => {
          running.wake = () => running.interrupted && resolve();
          res.on('close', () => resolve());
        });
      } else {
        if (current.kind === 'image' && current.progress?.length) {
          const needed = current.progress.length + 1;
          await new Promise<void>((resolve) => {
            running.wake = () => (running.calls >= needed || running.interrupted) && resolve();
            res.on('close', () => resolve());
          });
        }
        await sleep(current.delayMs ?? 0);
      }
    } finally {
      if (job === running) job = null;
    }
    if (res.destroyed || closing) return;
    if (current.kind === 'error') {
      const headers: Record<string, string> = current.retryAfter === undefined ? {} : { 'Retry-After': String(current.retryAfter) };
      if (current.rawBody !== undefined) {
        res.writeHead(current.status, { 'Content-Type': current.contentType ?? 'text/plain', ...headers });
        res.end(current.rawBody);
        return;
      }
      return sendJson(
        res,
        current.status,
        current.body ?? { error: 'RuntimeError', detail: '', body: '', errors: 'fake failure' },
        headers,
      );
    }
    if (current.kind === 'raw') {
      res.writeHead(current.status ?? 200, { 'Content-Type': current.contentType ?? 'application/json' });
      res.end(current.body);
      return;
    }
    const image = current.kind === 'image' ? (current.image ?? options.image) : options.image;
    const encoded = `${current.kind === 'image' && current.dataUrl ? 'data:image/png;base64,' : ''}${image.toString('base64')}`;
    const images = current.kind === 'image' && current.images ? current.images : [encoded];
    const infoObject = {
      prompt: body.prompt,
      all_prompts: [body.prompt],
      negative_prompt: body.negative_prompt ?? '',
      seed: typeof body.seed === 'number' && body.seed >= 0 ? body.seed : FAKE_A1111_DRAWN_SEED,
      width: body.width,
      height: body.height,
      sampler_name: body.sampler_name,
      cfg_scale: body.cfg_scale,
      steps: body.steps,
      sd_model_name: modelName,
      sd_model_hash: '31e35c80fc',
    };
    const info = current.kind === 'image' && current.info !== undefined ? current.info : JSON.stringify(infoObject);
    const answer: Record<string, unknown> = { images, parameters: body };
    if (info !== null) answer.info = info;
    sendJson(res, 200, answer);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    lastTxt2img: () => [...requests].reverse().find((request) => request.path.startsWith('/sdapi/v1/txt2img')),
    get progressCalls() {
      return progressCalls;
    },
    get interrupts() {
      return interrupts;
    },
    setScenario(next) {
      scenario = next;
    },
    setProgressMode(mode) {
      progressMode = mode;
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

/** FastAPI/pydantic's type checks for the fields the client sends. */
function validate(body: Txt2ImgBody): { loc: string[]; msg: string; type: string } | null {
  if (body.prompt !== undefined && typeof body.prompt !== 'string')
    return { loc: ['body', 'prompt'], msg: 'str type expected', type: 'type_error.str' };
  for (const field of ['width', 'height', 'steps', 'batch_size', 'n_iter', 'seed']) {
    if (body[field] !== undefined && !Number.isInteger(body[field])) {
      return { loc: ['body', field], msg: 'value is not a valid integer', type: 'type_error.integer' };
    }
  }
  if (body.cfg_scale !== undefined && typeof body.cfg_scale !== 'number') {
    return { loc: ['body', 'cfg_scale'], msg: 'value is not a valid float', type: 'type_error.float' };
  }
  return null;
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}
