import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { identifyChatServer, pickChatModel } from '../src/provider-probe/chat-servers';
import { identifyImageServer } from '../src/provider-probe/image-servers';
import { type LocalServerCandidates, detectLocalProviders } from '../src/provider-probe/provider-probe';
import {
  type LocalServer,
  a1111Routes,
  comfyUiRoutes,
  htmlPage,
  llamaCppRoutes,
  lmStudioRoutes,
  ollamaRoutes,
  someOtherJsonApi,
  startLocalServer,
  vllmRoutes,
} from './local-model-servers';

const servers: LocalServer[] = [];
async function serve(...args: Parameters<typeof startLocalServer>): Promise<LocalServer> {
  const server = await startLocalServer(...args);
  servers.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

function recordingLog() {
  const lines: { level: 'info' | 'warn'; message: string; fields: Record<string, unknown> }[] = [];
  const write = (level: 'info' | 'warn') => (first: unknown, second?: unknown) => {
    if (typeof first === 'string') lines.push({ level, message: first, fields: {} });
    else lines.push({ level, message: String(second), fields: first as Record<string, unknown> });
  };
  return { lines, log: { info: write('info'), warn: write('warn') } as never };
}

describe('identifying the chat servers creators run', () => {
  it('recognises Ollama by its own API, lists its models and serves replies from its /v1 base', async () => {
    const ollama = await serve(ollamaRoutes());
    const found = await identifyChatServer({ expected: 'Ollama', baseUrl: ollama.url });
    expect(found).toEqual({
      server: 'Ollama',
      apiBaseUrl: `${ollama.url}/v1`,
      models: [
        { id: 'nomic-embed-text:latest', isLoaded: false, isEmbedding: true, contextTokens: null },
        { id: 'llama3.2:3b', isLoaded: false, isEmbedding: false, contextTokens: null },
        { id: 'qwen2.5:7b-instruct', isLoaded: false, isEmbedding: false, contextTokens: null },
      ],
    });
  });

  it('recognises LM Studio, with which models are loaded and which only embed', async () => {
    const lmStudio = await serve(lmStudioRoutes());
    const found = await identifyChatServer({ expected: 'LM Studio', baseUrl: lmStudio.url });
    expect(found?.server).toBe('LM Studio');
    expect(found?.models).toEqual([
      { id: 'qwen2.5-7b-instruct', isLoaded: false, isEmbedding: false, contextTokens: null },
      { id: 'text-embedding-nomic-embed-text-v1.5', isLoaded: false, isEmbedding: true, contextTokens: null },
      { id: 'meta-llama-3.1-8b-instruct', isLoaded: true, isEmbedding: false, contextTokens: null },
    ]);
    expect(pickChatModel(found!.models, null)).toBe('meta-llama-3.1-8b-instruct');
  });

  it('tells llama.cpp and vLLM apart by what they say, whatever port they listen on', async () => {
    const llamaCpp = await serve(llamaCppRoutes());
    const unsignedLlamaCpp = await serve(llamaCppRoutes({ signed: false }));
    const vllm = await serve(vllmRoutes());
    // Each on the port another product usually has.
    expect(await identifyChatServer({ expected: 'vLLM', baseUrl: llamaCpp.url })).toMatchObject({
      server: 'llama.cpp',
      apiBaseUrl: `${llamaCpp.url}/v1`,
      models: [{ id: 'gemma-3-4b-it-Q4_K_M.gguf', contextTokens: 4096 }],
    });
    expect(await identifyChatServer({ expected: 'LM Studio', baseUrl: unsignedLlamaCpp.url })).toMatchObject({ server: 'llama.cpp' });
    expect(await identifyChatServer({ expected: 'llama.cpp', baseUrl: vllm.url })).toMatchObject({
      server: 'vLLM',
      models: [{ id: 'Qwen/Qwen2.5-7B-Instruct', isLoaded: true, isEmbedding: false, contextTokens: 32768 }],
    });
  });

  it('ignores ports where something else answers: a 404, a web page, other JSON, nothing, or no answer in time', async () => {
    const notFound = await serve({});
    const page = await serve({}, htmlPage);
    const otherJson = await serve({}, someOtherJsonApi);
    const silent = await serve({}, () => undefined);
    const closed = await closedPort();
    for (const baseUrl of [notFound.url, page.url, otherJson.url, silent.url, closed]) {
      expect(await identifyChatServer({ expected: 'Ollama', baseUrl })).toBeNull();
      expect(await identifyChatServer({ expected: 'llama.cpp', baseUrl })).toBeNull();
      expect(await identifyImageServer({ protocol: 'a1111', baseUrl })).toBeNull();
      expect(await identifyImageServer({ protocol: 'comfyui', baseUrl })).toBeNull();
    }
  });
  it('follows no redirect: a program on a probed port cannot send the probe to another server', async () => {
    const ollama = await serve(ollamaRoutes());
    const redirecting = await serve({}, (request, response) => {
      response.writeHead(302, { Location: `${ollama.url}${request.url ?? '/'}` });
      response.end();
    });
    expect(await identifyChatServer({ expected: 'Ollama', baseUrl: redirecting.url })).toBeNull();
    expect(ollama.requests).toEqual([]);
    expect(redirecting.requests.length).toBeGreaterThan(0);
  });
});

describe('picking the chat model', () => {
  const models = [
    { id: 'nomic-embed-text:latest', isLoaded: true, isEmbedding: true, contextTokens: null },
    { id: 'llama3.2:3b', isLoaded: false, isEmbedding: false, contextTokens: null },
    { id: 'qwen2.5:7b-instruct', isLoaded: false, isEmbedding: false, contextTokens: null },
  ];

  it('prefers CHAT_MODEL when the server has it, then a loaded model, then an instruction-tuned one, never an embedding model', () => {
    expect(pickChatModel(models, 'llama3.2:3b')).toBe('llama3.2:3b');
    expect(pickChatModel(models, 'not-pulled:7b')).toBe('qwen2.5:7b-instruct');
    expect(pickChatModel(models, 'nomic-embed-text:latest')).toBe('qwen2.5:7b-instruct');
    expect(
      pickChatModel(
        models.map((model) => ({ ...model, isLoaded: model.id === 'llama3.2:3b' })),
        null,
      ),
    ).toBe('llama3.2:3b');
    expect(pickChatModel([models[0]!], null)).toBeNull();
  });
});

describe('identifying the image servers creators run', () => {
  it('recognises AUTOMATIC1111 and Forge with their checkpoints and the one loaded now', async () => {
    const a1111 = await serve(a1111Routes());
    const forge = await serve(a1111Routes({ fork: 'forge' }));
    expect(await identifyImageServer({ protocol: 'a1111', baseUrl: a1111.url })).toEqual({
      protocol: 'a1111',
      server: 'AUTOMATIC1111',
      baseUrl: a1111.url,
      models: ['v1-5-pruned-emaonly.safetensors [6ce0161689]', 'sd_xl_base_1.0.safetensors [31e35c80fc]'],
      currentModel: 'sd_xl_base_1.0.safetensors [31e35c80fc]',
    });
    expect(await identifyImageServer({ protocol: 'a1111', baseUrl: forge.url })).toMatchObject({
      server: 'Forge',
      currentModel: 'v1-5-pruned-emaonly.safetensors [6ce0161689]',
    });
  });

  it('recognises ComfyUI and lists its checkpoints in both of its list formats', async () => {
    const comfy = await serve(comfyUiRoutes());
    const newer = await serve(comfyUiRoutes({ loader: 'comfyui-checkpoint-loader-combo' }));
    expect(await identifyImageServer({ protocol: 'comfyui', baseUrl: comfy.url })).toMatchObject({
      server: 'ComfyUI',
      models: ['512-inpainting-ema.safetensors', 'dreamshaper_8.safetensors', 'sd_xl_refiner_1.0.safetensors'],
    });
    expect(await identifyImageServer({ protocol: 'comfyui', baseUrl: newer.url })).toMatchObject({
      models: ['flux1-schnell-fp8.safetensors'],
    });
  });
});

describe('detecting local providers at start', () => {
  async function candidates(
    chat: LocalServer[],
    images: { a1111?: LocalServer; comfy?: LocalServer } = {},
  ): Promise<LocalServerCandidates> {
    return {
      chat: chat.map((server, index) => ({ expected: index === 0 ? 'Ollama' : 'llama.cpp', baseUrl: server.url })),
      images: [
        { protocol: 'a1111', baseUrl: images.a1111?.url ?? (await closedPort()) },
        { protocol: 'comfyui', baseUrl: images.comfy?.url ?? (await closedPort()) },
      ],
    };
  }

  it('connects chat to Ollama and images to ComfyUI, and says so in one line each', async () => {
    const ollama = await serve(ollamaRoutes({ running: 'ollama-ps' }));
    const llamaCpp = await serve(llamaCppRoutes());
    const comfy = await serve(comfyUiRoutes());
    const { lines, log } = recordingLog();
    const env = await detectLocalProviders({}, await candidates([ollama, llamaCpp], { comfy }), log);
    expect(env).toEqual({
      CHAT_API_BASE_URL: `${ollama.url}/v1`,
      CHAT_MODEL: 'llama3.2:3b',
      // The context Ollama loaded the model with.
      CHAT_CONTEXT_TOKENS: '8192',
      CHAT_PROVIDER_SOURCE: 'detected',
      CHAT_PROVIDER_SERVER: 'Ollama',
      COMFYUI_URL: comfy.url,
      COMFYUI_MODEL: 'dreamshaper_8.safetensors',
      IMAGE_PROVIDER_SOURCE: 'detected',
      IMAGE_PROVIDER_SERVER: 'ComfyUI',
    });
    expect(lines.map((line) => line.message)).toEqual([
      `chat: found Ollama at ${ollama.url}/v1 with 3 model(s); replies come from llama3.2:3b`,
      `images: found ComfyUI at ${comfy.url} with 3 model(s); pictures come from dreamshaper_8.safetensors`,
    ]);
    expect(lines[0]!.fields).toMatchObject({ others: ['llama.cpp'] });
  });

  it("uses CHAT_MODEL and A1111_MODEL when the servers have them, else A1111's current checkpoint", async () => {
    const ollama = await serve(ollamaRoutes());
    const a1111 = await serve(a1111Routes());
    const { log } = recordingLog();
    const found = await candidates([ollama], { a1111 });
    expect(
      await detectLocalProviders({ CHAT_MODEL: 'llama3.2:3b', A1111_MODEL: 'v1-5-pruned-emaonly.safetensors [6ce0161689]' }, found, log),
    ).toMatchObject({
      CHAT_MODEL: 'llama3.2:3b',
      A1111_URL: a1111.url,
      A1111_MODEL: 'v1-5-pruned-emaonly.safetensors [6ce0161689]',
      IMAGE_PROVIDER_SERVER: 'AUTOMATIC1111',
    });
    expect(await detectLocalProviders({}, found, log)).toMatchObject({
      CHAT_MODEL: 'qwen2.5:7b-instruct',
      A1111_MODEL: 'sd_xl_base_1.0.safetensors [31e35c80fc]',
    });
  });

  it("keeps the operator's CHAT_CONTEXT_TOKENS, and the default when the server's window leaves no room for a prompt", async () => {
    const llamaCpp = await serve(llamaCppRoutes());
    const { log } = recordingLog();
    const found: LocalServerCandidates = { chat: [{ expected: 'llama.cpp', baseUrl: llamaCpp.url }], images: [] };
    expect(await detectLocalProviders({}, found, log)).toMatchObject({ CHAT_CONTEXT_TOKENS: '4096', CHAT_PROVIDER_SERVER: 'llama.cpp' });
    expect(await detectLocalProviders({ CHAT_CONTEXT_TOKENS: '2048' }, found, log)).not.toHaveProperty('CHAT_CONTEXT_TOKENS');
    expect(await detectLocalProviders({ CHAT_MAX_REPLY_TOKENS: '2048' }, found, log)).not.toHaveProperty('CHAT_CONTEXT_TOKENS');
  });

  it('keeps the demo when nothing answers, and says how to connect a model', async () => {
    const page = await serve({}, htmlPage);
    const { lines, log } = recordingLog();
    expect(await detectLocalProviders({}, await candidates([page]), log)).toEqual({});
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'info',
        message: expect.stringMatching(/^chat: no AI server found.*offline demo \(not AI\).*CHAT_API_BASE_URL and CHAT_MODEL/),
      }),
      expect.objectContaining({
        level: 'info',
        message: expect.stringMatching(/^images: no AI image server found.*offline demo \(not AI\).*A1111_URL or COMFYUI_URL/),
      }),
    ]);
  });

  it('never probes a kind the operator configured, =demo included', async () => {
    const ollama = await serve(ollamaRoutes());
    const a1111 = await serve(a1111Routes());
    const found = await candidates([ollama], { a1111 });
    const { lines, log } = recordingLog();
    expect(await detectLocalProviders({ CHAT_PROVIDER: 'demo', IMAGE_PROVIDER: 'demo' }, found, log)).toEqual({});
    expect(
      await detectLocalProviders({ CHAT_API_BASE_URL: 'https://api.openai.com/v1', A1111_URL: 'http://gpu-box:7860' }, found, log),
    ).toEqual({});
    expect(ollama.requests).toEqual([]);
    expect(a1111.requests).toEqual([]);
    expect(lines).toEqual([]);
    // Images configured, chat not: only chat is probed.
    expect(await detectLocalProviders({ IMAGE_PROVIDER: 'demo' }, found, log)).toEqual({
      CHAT_API_BASE_URL: `${ollama.url}/v1`,
      CHAT_MODEL: 'qwen2.5:7b-instruct',
      // Not loaded yet: the least context Ollama loads a model with.
      CHAT_CONTEXT_TOKENS: '4096',
      CHAT_PROVIDER_SOURCE: 'detected',
      CHAT_PROVIDER_SERVER: 'Ollama',
    });
    expect(a1111.requests).toEqual([]);
  });
});
