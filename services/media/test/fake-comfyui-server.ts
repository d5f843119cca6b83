/**
 * A fake ComfyUI server over real HTTP and WebSocket, for tests: the routes and messages the provider uses, shaped
 * as ComfyUI sends them (server.py, execution.py).
 *
 *   const fake = await startFakeComfyUi({ image: png });
 *   fake.setScenario({ kind: 'image', steps: 4 });
 *   fake.prompts.at(-1)?.body;   // the posted `{ prompt, client_id }`
 *   fake.interrupts; fake.queueDeletes; fake.views;
 *   await fake.close();
 *
 * `POST /prompt` checks the checkpoint and sampler names like ComfyUI's validation (400 with `node_errors`), queues
 * the prompt and plays the scenario on the submitting client's WebSocket: `execution_start`, `executing` per node,
 * `progress` per sampler step, `executed`, `execution_success`, the history written, then `executing` with no node.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export type FakeComfyUiScenario =
  /** Draws in `steps` sampler steps (default 4), a binary preview before each; saves as `output` (SaveImage) or `temp` (PreviewImage). */
  | { kind: 'image'; steps?: number; saveType?: 'output' | 'temp' }
  /** A node fails while running. */
  | { kind: 'execution-error'; nodeType: string; exceptionType: string; exceptionMessage: string }
  /** Runs until interrupted, then reports `execution_interrupted`. */
  | { kind: 'stall' }
  /** Stays in the queue until deleted (another prompt is running). */
  | { kind: 'queued' }
  /** Closes the client's WebSocket after the first progress step. */
  | { kind: 'drop-socket' };

export interface RecordedPrompt {
  body: { prompt?: Record<string, { class_type: string; inputs: Record<string, unknown> }>; client_id?: string };
  promptId: string | null;
}

export interface FakeComfyUi {
  /** e.g. 'http://127.0.0.1:41234'. */
  url: string;
  prompts: RecordedPrompt[];
  /** Client ids of the WebSockets opened on `/ws`. */
  sockets: string[];
  /** Bodies of `POST /interrupt`. */
  interrupts: unknown[];
  /** Prompt ids named by `POST /queue { delete }`. */
  queueDeletes: string[];
  /** Query strings of `GET /view`. */
  views: URLSearchParams[];
  setScenario(scenario: FakeComfyUiScenario): void;
  close(): Promise<void>;
}

export interface FakeComfyUiOptions {
  image: Buffer;
  checkpoints?: string[];
  samplers?: string[];
}

const DEFAULT_SAMPLERS = ['euler', 'euler_ancestral', 'dpmpp_2m', 'dpmpp_2m_sde', 'ddim', 'uni_pc'];

export async function startFakeComfyUi(options: FakeComfyUiOptions): Promise<FakeComfyUi> {
  const checkpoints = options.checkpoints ?? ['sd_xl_base_1.0.safetensors', 'juggernautXL_v9.safetensors'];
  const samplers = options.samplers ?? DEFAULT_SAMPLERS;
  let scenario: FakeComfyUiScenario = { kind: 'image' };
  const clients = new Map<string, WebSocket>();
  const history: Record<string, unknown> = {};
  const fake: Omit<FakeComfyUi, 'url' | 'setScenario' | 'close'> = {
    prompts: [],
    sockets: [],
    interrupts: [],
    queueDeletes: [],
    views: [],
  };
  /** Wakes the stalled or queued prompt on interrupt or queue deletion. */
  let wakeStalled: (() => void) | null = null;
  let closing = false;

  const server = http.createServer((req, res) => {
    const pieces: Buffer[] = [];
    req.on('data', (piece: Buffer) => pieces.push(piece));
    req.on('end', () => {
      const raw = Buffer.concat(pieces).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      route(req.method ?? 'GET', url, raw ? (JSON.parse(raw) as unknown) : null, res);
    });
  });
  const sockets = new WebSocketServer({ server, path: '/ws' });
  sockets.on('connection', (socket, request) => {
    const clientId = new URL(request.url ?? '/', 'http://fake').searchParams.get('clientId') ?? randomUUID();
    fake.sockets.push(clientId);
    clients.set(clientId, socket);
    socket.send(JSON.stringify({ type: 'status', data: { status: { exec_info: { queue_remaining: 0 } }, sid: clientId } }));
  });

  function route(method: string, url: URL, body: unknown, res: http.ServerResponse): void {
    if (method === 'GET' && url.pathname === '/object_info/KSampler') {
      return sendJson(res, 200, { KSampler: nodeInfo({ sampler_name: [samplers], scheduler: [['normal', 'karras']] }) });
    }
    if (method === 'GET' && url.pathname === '/object_info/CheckpointLoaderSimple') {
      return sendJson(res, 200, { CheckpointLoaderSimple: nodeInfo({ ckpt_name: [checkpoints] }) });
    }
    if (method === 'POST' && url.pathname === '/prompt') return queuePrompt(body as RecordedPrompt['body'], res);
    if (method === 'GET' && url.pathname.startsWith('/history/')) {
      const id = decodeURIComponent(url.pathname.slice('/history/'.length));
      return sendJson(res, 200, id in history ? { [id]: history[id] } : {});
    }
    if (method === 'GET' && url.pathname === '/view') {
      fake.views.push(url.searchParams);
      if (url.searchParams.get('filename') !== 'creator-platform_00001_.png') return sendJson(res, 404, {});
      res.writeHead(200, { 'Content-Type': 'image/png' });
      return void res.end(options.image);
    }
    if (method === 'POST' && url.pathname === '/interrupt') {
      fake.interrupts.push(body);
      wakeStalled?.();
      return sendJson(res, 200, {});
    }
    if (method === 'POST' && url.pathname === '/queue') {
      fake.queueDeletes.push(...((body as { delete?: string[] }).delete ?? []));
      if (scenario.kind === 'queued') wakeStalled?.();
      return sendJson(res, 200, {});
    }
    sendJson(res, 404, {});
  }

  function queuePrompt(body: RecordedPrompt['body'], res: http.ServerResponse): void {
    const record: RecordedPrompt = { body, promptId: null };
    fake.prompts.push(record);
    const nodeErrors = validate(body.prompt ?? {});
    if (Object.keys(nodeErrors).length > 0) {
      const error = { type: 'prompt_outputs_failed_validation', message: 'Prompt outputs failed validation', details: '', extra_info: {} };
      return sendJson(res, 400, { error, node_errors: nodeErrors });
    }
    record.promptId = randomUUID();
    sendJson(res, 200, { prompt_id: record.promptId, number: fake.prompts.length, node_errors: {} });
    // ComfyUI runs the prompt on its own thread; the answer to POST /prompt may arrive before or after its first messages.
    setTimeout(() => void run(record.promptId!, body.client_id ?? '', scenario), 5);
  }

  function validate(graph: NonNullable<RecordedPrompt['body']['prompt']>): Record<string, unknown> {
    const errors: Record<string, unknown> = {};
    for (const [id, node] of Object.entries(graph)) {
      const problem = (message: string, details: string) => {
        errors[id] = {
          errors: [{ type: 'value_not_in_list', message, details, extra_info: {} }],
          dependent_outputs: ['9'],
          class_type: node.class_type,
        };
      };
      const { ckpt_name: checkpoint, sampler_name: sampler, seed, steps, cfg } = node.inputs;
      if (node.class_type === 'CheckpointLoaderSimple' && !checkpoints.includes(checkpoint as string)) {
        problem('Value not in list', `ckpt_name: '${String(checkpoint)}' not in ${JSON.stringify(checkpoints)}`);
      }
      if (node.class_type === 'KSampler' && !samplers.includes(sampler as string)) {
        problem('Value not in list', `sampler_name: '${String(sampler)}' not in (list of length ${samplers.length})`);
      }
      if (node.class_type === 'KSampler' && [seed, steps, cfg].some((value) => typeof value !== 'number')) {
        problem('Failed to convert an input value to a INT value', `seed, steps, cfg must be numbers`);
      }
    }
    return errors;
  }

  async function run(promptId: string, clientId: string, current: FakeComfyUiScenario): Promise<void> {
    const send = (type: string, data: Record<string, unknown>) => {
      const socket = clients.get(clientId);
      if (socket && !closing) socket.send(JSON.stringify({ type, data: { ...data, prompt_id: promptId } }));
    };
    const waitForWake = () => new Promise<void>((resolve) => (wakeStalled = resolve));
    if (current.kind === 'queued') {
      await waitForWake();
      return;
    }
    send('execution_start', { timestamp: Date.now() });
    send('execution_cached', { nodes: [] });
    for (const node of ['4', '5', '6', '7', '3']) send('executing', { node, display_node: node });
    if (current.kind === 'stall') {
      send('progress', { value: 1, max: 20, node: '3' });
      await waitForWake();
      send('execution_interrupted', { node_id: '3', node_type: 'KSampler', executed: ['4', '5', '6', '7'] });
      return;
    }
    if (current.kind === 'execution-error') {
      send('execution_error', {
        node_id: '3',
        node_type: current.nodeType,
        executed: ['4', '5', '6', '7'],
        exception_message: current.exceptionMessage,
        exception_type: current.exceptionType,
        traceback: ['Traceback (most recent call last):', '...'],
        current_inputs: {},
        current_outputs: {},
      });
      return;
    }
    if (current.kind === 'drop-socket') {
      send('progress', { value: 1, max: 4, node: '3' });
      clients.get(clientId)?.close();
      return;
    }
    const steps = current.steps ?? 4;
    for (let step = 1; step <= steps; step++) {
      clients.get(clientId)?.send(Buffer.from([0, 0, 0, 1, 0, 0, 0, 2, 0x89, 0x50])); // a binary preview
      send('progress', { value: step, max: steps, node: '3' });
    }
    // The VAE decode reports progress of its own; a client must not go backwards.
    send('progress', { value: 1, max: 4, node: '8' });
    const images = [{ filename: 'creator-platform_00001_.png', subfolder: 'renders', type: current.saveType ?? 'output' }];
    send('executing', { node: '8', display_node: '8' });
    send('executing', { node: '9', display_node: '9' });
    send('executed', { node: '9', display_node: '9', output: { images } });
    send('execution_success', { timestamp: Date.now() });
    // As ComfyUI does: the history is written after execution_success, before the final `executing`.
    await new Promise((resolve) => setTimeout(resolve, 20));
    history[promptId] = {
      prompt: [1, promptId, {}, { client_id: clientId }, ['9']],
      outputs: { '9': { images } },
      status: { status_str: 'success', completed: true, messages: [] },
    };
    send('executing', { node: null });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ...fake,
    url: `http://127.0.0.1:${port}`,
    setScenario(next) {
      scenario = next;
    },
    async close() {
      closing = true;
      wakeStalled?.();
      for (const socket of clients.values()) socket.terminate();
      sockets.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function nodeInfo(required: Record<string, unknown>): Record<string, unknown> {
  return { input: { required }, input_order: { required: Object.keys(required) }, output: [], name: 'node', output_node: false };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
