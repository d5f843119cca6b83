import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { logger } from '@app/kit';
import {
  type ModelStageSettings,
  type ModelVerdict,
  createModelStage,
  normaliseModelBaseUrl,
  parseGuardAnswer,
  readModelStageSettings,
  splitIntoChunks,
} from './model-stage';

const KEY = 'sk-test-SECRET-0123456789abcdef';

interface SeenRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

type Handler = (req: SeenRequest, res: http.ServerResponse) => void;

/** A local moderation server speaking both protocols; each test sets how it answers and reads what it was sent. */
let handler: Handler = (_req, res) => res.end();
let seen: SeenRequest[] = [];
let inFlight = 0;
let maxInFlight = 0;
let clientHungUp: Promise<boolean> = Promise.resolve(false);
let requestArrived: () => void = () => undefined;

const server = http.createServer((req, res) => {
  let raw = '';
  req.setEncoding('utf8');
  req.on('data', (piece: string) => (raw += piece));
  req.on('end', () => {
    const request: SeenRequest = {
      method: req.method ?? '',
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
    };
    seen.push(request);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    clientHungUp = new Promise((resolve) =>
      res.on('close', () => {
        inFlight--;
        resolve(!res.writableFinished);
      }),
    );
    requestArrived();
    handler(request, res);
  });
});
const sockets = new Set<Socket>();
server.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

let baseUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  inFlight = 0;
  maxInFlight = 0;
  handler = (_req, res) => res.end();
});

function json(res: http.ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** An OpenAI moderation answer flagging the given categories (score 0.9 each, 0.01 for the others). */
function moderationAnswer(flagged: string[], scores: Record<string, number> = {}) {
  const names = ['sexual', 'sexual/minors', 'harassment', 'harassment/threatening', 'violence', 'violence/graphic', 'self-harm'];
  return {
    id: 'modr-1',
    model: 'omni-moderation-latest',
    results: [
      {
        flagged: flagged.length > 0,
        categories: Object.fromEntries(names.map((name) => [name, flagged.includes(name)])),
        category_scores: Object.fromEntries(names.map((name) => [name, scores[name] ?? (flagged.includes(name) ? 0.9 : 0.01)])),
      },
    ],
  };
}

/** A chat-completions answer whose reply is `content`, as Ollama and vLLM send it. */
function chatAnswer(content: string) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    model: 'llama-guard3:8b',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  };
}

const moderation = (overrides: Partial<ModelStageSettings> = {}) =>
  createModelStage({
    kind: 'openai-moderation',
    baseUrl,
    apiKey: KEY,
    model: 'omni-moderation-latest',
    timeoutMs: 2_000,
    failMode: 'closed',
    ...overrides,
  });

const guard = (overrides: Partial<ModelStageSettings> = {}) =>
  createModelStage({
    kind: 'guard-chat',
    baseUrl: `${baseUrl}/v1`,
    apiKey: KEY,
    model: 'llama-guard3:8b',
    timeoutMs: 2_000,
    failMode: 'closed',
    ...overrides,
  });

const REFUSED_UNAVAILABLE = { allowed: false, category: null, unavailable: true };
const ALLOWED_UNAVAILABLE = { allowed: true, category: null, unavailable: true };

describe('the OpenAI moderation adapter', () => {
  it('refuses sexual/minors as minors', async () => {
    handler = (_req, res) => json(res, moderationAnswer(['sexual', 'sexual/minors']));
    const verdict = await moderation().check('a text the model flags');
    expect(verdict).toMatchObject({ allowed: false, category: 'minors' });
    expect(verdict.unavailable).toBeUndefined();
    expect(verdict.evidence).toEqual(
      expect.arrayContaining(['moderation flagged sexual/minors (score 0.900)', expect.stringMatching(/flagged sexual .*allowed/)]),
    );
  });

  it('allows plain sexual content and other flagged categories, recording them', async () => {
    handler = (_req, res) => json(res, moderationAnswer(['sexual', 'violence']));
    const verdict = await moderation().check('adult content');
    expect(verdict).toEqual({
      allowed: true,
      category: null,
      evidence: [
        'moderation flagged sexual (score 0.900), allowed on this platform',
        'moderation flagged violence (score 0.900), allowed on this platform',
      ],
    });
    handler = (_req, res) => json(res, moderationAnswer([]));
    expect(await moderation().check('hello')).toEqual({ allowed: true, category: null, evidence: [] });
  });

  it('posts { model, input } with the key to /v1/moderations, with or without /v1 in the base URL', async () => {
    handler = (_req, res) => json(res, moderationAnswer([]));
    for (const url of [baseUrl, `${baseUrl}/`, `${baseUrl}/v1`, `${baseUrl}/v1/`, `${baseUrl}/v1/moderations`]) {
      await moderation({ baseUrl: url, model: 'text-moderation-stable' }).check('some text');
    }
    expect(seen).toHaveLength(5);
    for (const request of seen) {
      expect(request).toEqual({
        method: 'POST',
        path: '/v1/moderations',
        authorization: `Bearer ${KEY}`,
        body: { model: 'text-moderation-stable', input: 'some text' },
      });
    }
  });

  it('sends no Authorization header without a key', async () => {
    handler = (_req, res) => json(res, moderationAnswer([]));
    await moderation({ apiKey: undefined }).check('some text');
    await moderation({ apiKey: '  ' }).check('some text');
    expect(seen.map((request) => request.authorization)).toEqual([undefined, undefined]);
  });

  it('lets a score threshold decide instead of the flag when one is set', async () => {
    handler = (_req, res) => json(res, moderationAnswer([], { 'sexual/minors': 0.6 }));
    expect(await moderation({ minorsScoreThreshold: 0.5 }).check('x')).toMatchObject({ allowed: false, category: 'minors' });
    handler = (_req, res) => json(res, moderationAnswer(['sexual/minors'], { 'sexual/minors': 0.6 }));
    expect(await moderation({ minorsScoreThreshold: 0.8 }).check('x')).toMatchObject({ allowed: true, category: null });
    expect(await moderation().check('x')).toMatchObject({ allowed: false, category: 'minors' });
  });

  it('treats an answer without the sexual/minors category as malformed', async () => {
    handler = (_req, res) => json(res, { results: [{ flagged: false, categories: { sexual: false } }] });
    const verdict = await moderation().check('x');
    expect(verdict).toMatchObject(REFUSED_UNAVAILABLE);
    expect(verdict.evidence.join(' ')).toMatch(/malformed answer \(no sexual\/minors category\)/);
  });
});

describe('the guard-chat adapter (Llama Guard 3)', () => {
  it.each<[string, Pick<ModelVerdict, 'allowed' | 'category'>]>([
    ['unsafe\nS4', { allowed: false, category: 'minors' }],
    ['unsafe\nS3', { allowed: false, category: 'non_consent' }],
    ['unsafe\nS12', { allowed: true, category: null }],
    ['safe', { allowed: true, category: null }],
    ['\n\nSAFE ', { allowed: true, category: null }],
    ['  Unsafe \n s12, s3 ', { allowed: false, category: 'non_consent' }],
    ['unsafe\nS3,S4', { allowed: false, category: 'minors' }],
    ['unsafe\nS1', { allowed: true, category: null }],
    ['unsafe S4<|eot_id|>', { allowed: false, category: 'minors' }],
  ])('reads %j', async (answer, expected) => {
    handler = (_req, res) => json(res, chatAnswer(answer));
    const verdict = await guard().check('a story');
    expect(verdict).toMatchObject(expected);
    expect(verdict.unavailable).toBeUndefined();
  });

  it('records allowed hazards in the evidence', async () => {
    handler = (_req, res) => json(res, chatAnswer('unsafe\nS12,S1'));
    expect((await guard().check('a story')).evidence).toEqual([
      'guard model: unsafe S12 (Sexual Content), allowed on this platform',
      'guard model: unsafe S1 (Violent Crimes), allowed on this platform',
    ]);
    handler = (_req, res) => json(res, chatAnswer('unsafe\nS4'));
    expect((await guard().check('a story')).evidence).toEqual(['guard model: unsafe S4 (Child Sexual Exploitation)']);
  });

  it('posts the text as one user message, deterministic and short, to /v1/chat/completions', async () => {
    handler = (_req, res) => json(res, chatAnswer('safe'));
    for (const url of [baseUrl, `${baseUrl}/v1`, `${baseUrl}/v1/`]) await guard({ baseUrl: url }).check('Tell me a story');
    expect(seen).toHaveLength(3);
    for (const request of seen) {
      expect(request).toEqual({
        method: 'POST',
        path: '/v1/chat/completions',
        authorization: `Bearer ${KEY}`,
        body: {
          model: 'llama-guard3:8b',
          messages: [{ role: 'user', content: 'Tell me a story' }],
          temperature: 0,
          max_tokens: 20,
          stream: false,
        },
      });
    }
  });

  it('takes overrides of the hazard map', async () => {
    handler = (_req, res) => json(res, chatAnswer('unsafe\nS5'));
    expect(await guard().check('x')).toMatchObject({ allowed: true, category: null });
    expect(await guard({ guardCategories: { S5: 'real_person' } }).check('x')).toMatchObject({ allowed: false, category: 'real_person' });
    handler = (_req, res) => json(res, chatAnswer('unsafe\nS3'));
    expect(await guard({ guardCategories: { S3: null } }).check('x')).toMatchObject({ allowed: true, category: null });
  });

  it('treats a reply that is not a guard verdict as unavailable', async () => {
    for (const content of ['Hello! How can I help you today?', 'unsafe', '']) {
      handler = (_req, res) => json(res, chatAnswer(content));
      const verdict = await guard().check('x');
      expect(verdict).toMatchObject(REFUSED_UNAVAILABLE);
      expect(verdict.evidence.join(' ')).toMatch(/malformed answer/);
    }
    handler = (_req, res) => json(res, { choices: [] });
    expect(await guard({ failMode: 'open' }).check('x')).toMatchObject(ALLOWED_UNAVAILABLE);
  });

  it('parses answers tolerantly', () => {
    expect(parseGuardAnswer('unsafe\nS4, s3; S4.')).toEqual({ safe: false, codes: ['S4', 'S3'] });
    expect(parseGuardAnswer(' safe\n')).toEqual({ safe: true });
    expect(parseGuardAnswer('I think this is safe')).toBeNull();
  });
});

describe('an unavailable model', () => {
  it('times out a server that never answers: closed refuses, open allows, both within the limit', async () => {
    handler = () => undefined;
    for (const [failMode, expected] of [
      ['closed', REFUSED_UNAVAILABLE],
      ['open', ALLOWED_UNAVAILABLE],
    ] as const) {
      for (const stage of [moderation({ failMode, timeoutMs: 300 }), guard({ failMode, timeoutMs: 300 })]) {
        const started = Date.now();
        const verdict = await stage.check('some text');
        expect(Date.now() - started).toBeLessThan(3_000);
        expect(verdict).toMatchObject(expected);
        expect(verdict.evidence).toEqual(['model check unavailable: The moderation model did not answer within 300 ms']);
        expect(await clientHungUp).toBe(true);
      }
    }
  });

  it.each<[string, Handler, RegExp]>([
    ['an HTTP 500', (_req, res) => json(res, { error: { message: 'CUDA out of memory' } }, 500), /failed \(HTTP 500\): CUDA out of memory/],
    [
      'malformed JSON',
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"results": [');
      },
      /malformed response \(not JSON\)/,
    ],
    [
      'a web page',
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<!doctype html><title>Welcome</title>');
      },
      /web page instead of an API response; check MODERATION_URL/,
    ],
    ['an error inside a 200', (_req, res) => json(res, { error: 'model is loading' }), /reported an error: model is loading/],
    ['an unknown model', (_req, res) => json(res, { error: { message: 'model not found' } }, 404), /does not know the model "omni/],
  ])('answers %s per the fail mode', async (_name, answer, reason) => {
    handler = answer;
    for (const stage of [moderation(), guard({ model: 'omni-guard' })]) {
      const closed = await stage.check('x');
      expect(closed).toMatchObject(REFUSED_UNAVAILABLE);
      expect(closed.evidence.join(' ')).toMatch(reason);
    }
    expect(await moderation({ failMode: 'open' }).check('x')).toMatchObject(ALLOWED_UNAVAILABLE);
    expect(await guard({ failMode: 'open' }).check('x')).toMatchObject(ALLOWED_UNAVAILABLE);
  });

  it('cannot be reached: the fail mode answers', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = http.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const verdict = await moderation({ baseUrl: `http://127.0.0.1:${closedPort}` }).check('x');
    expect(verdict).toEqual({ ...REFUSED_UNAVAILABLE, evidence: ['model check unavailable: The moderation model could not be reached'] });
  });

  it('never shows the API key, even when the server echoes it', async () => {
    const warn = jest.spyOn(logger, 'warn');
    try {
      const echo =
        (status: number): Handler =>
        (req, res) =>
          json(res, { error: { message: `Incorrect API key provided: ${req.authorization?.slice(7)} (${req.authorization})` } }, status);
      const verdicts: ModelVerdict[] = [];
      for (const status of [401, 400, 500]) {
        handler = echo(status);
        verdicts.push(await moderation().check('x'), await guard({ apiKey: 'my-own-secret-value' }).check('x'));
      }
      expect(verdicts[0].evidence.join(' ')).toMatch(/refused the credentials \(HTTP 401\); check MODERATION_API_KEY/);
      expect(verdicts[2].evidence.join(' ')).toMatch(/rejected the request: Incorrect API key provided: \[redacted\]/);
      const shown = JSON.stringify([verdicts, warn.mock.calls]);
      expect(warn).toHaveBeenCalled();
      expect(shown).not.toContain(KEY);
      expect(shown).not.toContain('my-own-secret-value');
    } finally {
      warn.mockRestore();
    }
  });
});

describe('the circuit breaker', () => {
  it('stops calling after the threshold, answers per the fail mode, then sends one probe after the cool-down', async () => {
    let now = 1_000_000;
    handler = (_req, res) => json(res, { error: 'overloaded' }, 503);
    const stage = moderation({ failMode: 'open', circuitBreaker: { failureThreshold: 3, cooldownMs: 10_000, clock: () => now } });
    for (let attempt = 0; attempt < 3; attempt++) expect(await stage.check('x')).toMatchObject(ALLOWED_UNAVAILABLE);
    expect(seen).toHaveLength(3);
    expect(stage.state).toBe('open');

    for (let attempt = 0; attempt < 5; attempt++) {
      const verdict = await stage.check('x');
      expect(verdict).toMatchObject(ALLOWED_UNAVAILABLE);
      expect(verdict.evidence).toEqual(['model check skipped: 3 failures in a row opened the circuit']);
    }
    now += 9_999;
    await stage.check('x');
    expect(seen).toHaveLength(3);

    // After the cool-down, one probe; it fails, so the circuit opens again at once.
    now += 1;
    expect(stage.state).toBe('half-open');
    await stage.check('x');
    expect(seen).toHaveLength(4);
    expect(stage.state).toBe('open');
    await stage.check('x');
    expect(seen).toHaveLength(4);

    // The next probe succeeds and closes the circuit.
    now += 10_000;
    handler = (_req, res) => json(res, moderationAnswer(['sexual/minors']));
    expect(await stage.check('x')).toMatchObject({ allowed: false, category: 'minors' });
    expect(stage.state).toBe('closed');
    await stage.check('x');
    expect(seen).toHaveLength(6);
  });

  it('refuses at once while open with fail mode closed, and lets only one probe through at a time', async () => {
    let now = 0;
    handler = () => undefined;
    const stage = guard({ timeoutMs: 200, circuitBreaker: { failureThreshold: 1, cooldownMs: 1_000, clock: () => now } });
    expect(await stage.check('x')).toMatchObject(REFUSED_UNAVAILABLE);
    expect(await stage.check('x')).toMatchObject({ ...REFUSED_UNAVAILABLE, evidence: [expect.stringMatching(/opened the circuit/)] });
    expect(seen).toHaveLength(1);

    now += 1_000;
    let release: () => void = () => undefined;
    handler = (_req, res) => (release = () => json(res, chatAnswer('safe')));
    const arrived = new Promise<void>((resolve) => (requestArrived = resolve));
    const probe = stage.check('x');
    await arrived;
    // While the probe runs, other checks do not reach the server.
    expect(await stage.check('y')).toMatchObject(REFUSED_UNAVAILABLE);
    release();
    expect(await probe).toEqual({ allowed: true, category: null, evidence: [] });
    expect(seen).toHaveLength(2);
    expect(stage.state).toBe('closed');
  });

  it('does not count refused credentials as an outage', async () => {
    handler = (_req, res) => json(res, { error: 'bad key' }, 401);
    const stage = moderation({ circuitBreaker: { failureThreshold: 2, cooldownMs: 60_000 } });
    for (let attempt = 0; attempt < 4; attempt++) expect(await stage.check('x')).toMatchObject(REFUSED_UNAVAILABLE);
    expect(seen).toHaveLength(4);
    expect(stage.state).toBe('closed');
  });
});

describe("the caller's signal", () => {
  it('stops the request to the model at once and rejects with the reason', async () => {
    handler = () => undefined;
    for (const stage of [moderation({ timeoutMs: 30_000 }), guard({ timeoutMs: 30_000 })]) {
      const controller = new AbortController();
      const arrived = new Promise<void>((resolve) => (requestArrived = resolve));
      const started = Date.now();
      const check = stage.check('x', controller.signal);
      await arrived;
      const reason = new Error('member left');
      controller.abort(reason);
      await expect(check).rejects.toBe(reason);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await clientHungUp).toBe(true);
      // A cancelled check is not an outage.
      expect(stage.state).toBe('closed');
    }
  });

  it('sends nothing when the signal has already been aborted', async () => {
    await expect(moderation().check('x', AbortSignal.abort())).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(0);
  });
});

describe('long texts', () => {
  const words = (count: number, prefix: string) => Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');

  it('are split on whitespace into overlapping chunks that cover the whole text', () => {
    const text = words(5_000, 'word');
    const chunks = splitIntoChunks(text, 8_000);
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(8_000);
      expect(text).toContain(chunk);
      expect(chunk).toMatch(/^word\d+( word\d+)*$/);
    }
    const covered = new Set(chunks.flatMap((chunk) => chunk.split(' ')));
    expect(covered.size).toBe(5_000);
    expect(splitIntoChunks('short text')).toEqual(['short text']);
    // No whitespace at all: hard cuts, never through a surrogate pair.
    const emoji = '😀'.repeat(10_000);
    const pieces = splitIntoChunks(emoji, 8_001);
    expect(pieces.every((piece) => piece.length <= 8_001 && !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(piece))).toBe(true);
  });

  it('are checked a few chunks at a time, and refused when any chunk is', async () => {
    const text = `${words(3_000, 'calm')} FORBIDDEN ${words(3_000, 'calm')}`;
    handler = (req, res) => {
      const flagged = String(req.body.input).includes('FORBIDDEN');
      setTimeout(() => json(res, moderationAnswer(flagged ? ['sexual/minors'] : [])), 30);
    };
    const verdict = await moderation({ maxParallelChunks: 2 }).check(text);
    expect(verdict).toMatchObject({ allowed: false, category: 'minors' });
    expect(verdict.evidence.some((line) => /^chunk \d+\/\d+: moderation flagged sexual\/minors/.test(line))).toBe(true);
    expect(maxInFlight).toBeLessThanOrEqual(2);
    for (const request of seen) expect(String(request.body.input).length).toBeLessThanOrEqual(8_000);

    // Requests of the check above may still arrive (stopped once the answer was known): count this one's alone.
    const quiet = words(6_000, 'still');
    handler = (_req, res) => json(res, moderationAnswer([]));
    const allowed = await moderation().check(quiet);
    expect(allowed).toEqual({ allowed: true, category: null, evidence: [] });
    expect(seen.filter((request) => String(request.body.input).includes('still')).length).toBe(splitIntoChunks(quiet).length);
  });

  it('stop checking once a chunk is refused', async () => {
    handler = (req, res) => json(res, moderationAnswer(String(req.body.input).includes('FORBIDDEN') ? ['sexual/minors'] : []));
    const stage = moderation({ maxParallelChunks: 1 });
    expect(await stage.check(`FORBIDDEN ${words(6_000, 'calm')}`)).toMatchObject({ allowed: false, category: 'minors' });
    expect(seen).toHaveLength(1);
    expect(stage.state).toBe('closed');
  });

  it('answer per the fail mode when one chunk cannot be checked', async () => {
    const text = `${words(3_000, 'calm')} BROKEN ${words(3_000, 'calm')}`;
    handler = (req, res) =>
      String(req.body.input).includes('BROKEN') ? json(res, { error: 'boom' }, 500) : json(res, moderationAnswer([]));
    const verdict = await moderation({ failMode: 'closed' }).check(text);
    expect(verdict).toMatchObject(REFUSED_UNAVAILABLE);
    expect(verdict.evidence).toEqual(expect.arrayContaining([expect.stringMatching(/^chunk \d+\/\d+: model check unavailable/)]));
    expect(await moderation({ failMode: 'open' }).check(text)).toMatchObject(ALLOWED_UNAVAILABLE);
  });

  it('beyond the chunk limit are not sent; nor is an empty text', async () => {
    const verdict = await moderation({ maxChunks: 2 }).check(words(3_000, 'calm'));
    expect(verdict).toMatchObject(REFUSED_UNAVAILABLE);
    expect(verdict.evidence[0]).toMatch(/text too long for the model check/);
    expect(await moderation().check('  \n ')).toEqual({ allowed: true, category: null, evidence: [] });
    expect(seen).toHaveLength(0);
  });
});

describe('settings', () => {
  it('normalises base URLs and refuses anything but http(s)', () => {
    expect(normaliseModelBaseUrl('http://127.0.0.1:11434/v1/')).toBe('http://127.0.0.1:11434');
    expect(normaliseModelBaseUrl('https://api.openai.com/v1/chat/completions')).toBe('https://api.openai.com');
    expect(normaliseModelBaseUrl('https://proxy.example/openai/v1')).toBe('https://proxy.example/openai');
    expect(() => normaliseModelBaseUrl('ftp://example.com')).toThrow(/http\(s\) URL/);
    expect(() => moderation({ model: ' ' })).toThrow(/model name/);
    expect(() => moderation({ minorsScoreThreshold: 2 })).toThrow(/between 0 and 1/);
  });

  it('reads the environment', () => {
    expect(readModelStageSettings({})).toBeNull();
    expect(() => readModelStageSettings({ MODERATION_API_KEY: KEY })).toThrow(/MODERATION_URL is not/);
    expect(() => readModelStageSettings({ MODERATION_URL: 'http://127.0.0.1:11434' })).toThrow(/MODERATION_MODEL must be set/);
    expect(
      readModelStageSettings({
        MODERATION_URL: 'http://127.0.0.1:11434/v1',
        MODERATION_KIND: 'guard-chat',
        MODERATION_MODEL: 'llama-guard3:8b',
        MODERATION_TIMEOUT_MS: '1500',
        MODERATION_FAIL_MODE: 'open',
      }),
    ).toEqual({
      kind: 'guard-chat',
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: null,
      model: 'llama-guard3:8b',
      timeoutMs: 1500,
      failMode: 'open',
    });
    const openAi = readModelStageSettings({
      MODERATION_URL: 'https://api.openai.com',
      MODERATION_MODEL: 'omni-moderation-latest',
      MODERATION_API_KEY: KEY,
      MODERATION_MINORS_THRESHOLD: '0.4',
    });
    expect(openAi).toMatchObject({ kind: 'openai-moderation', failMode: 'closed', timeoutMs: 5_000, minorsScoreThreshold: 0.4 });
    let message = '';
    try {
      readModelStageSettings({ MODERATION_URL: 'x', MODERATION_MODEL: 'm', MODERATION_API_KEY: KEY, MODERATION_FAIL_MODE: 'maybe' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/MODERATION_URL must be a URL.*MODERATION_FAIL_MODE must be one of closed, open/);
    expect(message).not.toContain(KEY);
  });
});
