import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const FIXTURES = path.join(__dirname, 'fixtures', 'local-servers');

/** A fixture file's JSON, as the real server answers it. */
export const fixture = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8'));

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void;
/** Per `METHOD /path`: JSON to answer with, or a handler of its own. */
export type Routes = Record<string, unknown>;

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** `METHOD /path` of every request, in order. */
  requests: string[];
  close(): Promise<void>;
}

/** A loopback HTTP server answering `routes` (404 for anything else), standing in for a creator's AI server. */
export async function startLocalServer(routes: Routes, fallback?: Handler): Promise<LocalServer> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (piece: Buffer) => (body += piece.toString('utf8')));
    request.on('end', () => {
      const key = `${request.method} ${new URL(request.url ?? '/', 'http://x').pathname}`;
      requests.push(key);
      const route = routes[key];
      if (typeof route === 'function') return (route as Handler)(request, response, body);
      if (route !== undefined) {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        return response.end(JSON.stringify(route));
      }
      if (fallback) return fallback(request, response, body);
      response.writeHead(404, { 'Content-Type': 'text/plain' });
      response.end('404 page not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Ollama: its own API, and OpenAI-style streaming chat completions under `/v1` that answer `reply` word by word. */
export function ollamaRoutes(options: { running?: 'ollama-ps' | 'ollama-ps-empty'; reply?: string } = {}): Routes {
  const reply = options.reply ?? 'Hello from the local model.';
  return {
    'GET /api/tags': fixture('ollama-tags'),
    'GET /api/ps': fixture(options.running ?? 'ollama-ps-empty'),
    'GET /api/version': { version: '0.12.3' },
    'POST /v1/chat/completions': ((_request, response, body) => {
      const { model } = JSON.parse(body) as { model: string };
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1764000000, model, system_fingerprint: 'fp_ollama', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (const word of reply.split(/(?<= )/)) response.write(chunk({ role: 'assistant', content: word }, null));
      response.write(chunk({ role: 'assistant', content: '' }, 'stop'));
      response.end('data: [DONE]\n\n');
    }) satisfies Handler,
  };
}

export const lmStudioRoutes = (): Routes => ({
  'GET /v1/models': fixture('lmstudio-models'),
  'GET /api/v0/models': fixture('lmstudio-v0-models'),
});

export const llamaCppRoutes = (options: { signed?: boolean } = {}): Routes => ({
  'GET /v1/models': fixture(options.signed === false ? 'llamacpp-models-unsigned' : 'llamacpp-models'),
  'GET /props': fixture('llamacpp-props'),
  'GET /health': { status: 'ok' },
});

export const vllmRoutes = (): Routes => ({ 'GET /v1/models': fixture('vllm-models'), 'GET /health': {} });

export const a1111Routes = (options: { fork?: 'forge' } = {}): Routes => ({
  'GET /sdapi/v1/sd-models': fixture('a1111-sd-models'),
  'GET /sdapi/v1/options': fixture(options.fork === 'forge' ? 'forge-options' : 'a1111-options'),
  'GET /sdapi/v1/samplers': fixture('a1111-samplers'),
});

export const comfyUiRoutes = (options: { loader?: 'comfyui-checkpoint-loader-combo' } = {}): Routes => ({
  'GET /system_stats': fixture('comfyui-system-stats'),
  'GET /object_info/CheckpointLoaderSimple': fixture(options.loader ?? 'comfyui-checkpoint-loader'),
});

/** Some other web app on the port: a page for every path. */
export const htmlPage: Handler = (_request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/html' });
  response.end('<!doctype html><title>Router admin</title><h1>Welcome</h1>');
};

/** Some other JSON API on the port: an empty object for every path. */
export const someOtherJsonApi: Handler = (_request, response) => {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.end('{"ok":true}');
};
