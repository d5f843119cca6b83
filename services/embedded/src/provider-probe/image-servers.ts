import { isJsonObject } from '@app/kit';
import { objectsOf, probeJson, textOf } from './probe-http';

export type ImageServerProtocol = 'a1111' | 'comfyui';

/** Where an image server may listen, and which protocol its port usually speaks. */
export interface ImageServerCandidate {
  baseUrl: string;
  protocol: ImageServerProtocol;
}

/** AUTOMATIC1111, Forge and SD.Next share port 7860 and the `/sdapi/v1` API; ComfyUI listens on 8188. */
export const LOCAL_IMAGE_SERVERS: readonly ImageServerCandidate[] = [
  { protocol: 'a1111', baseUrl: 'http://127.0.0.1:7860' },
  { protocol: 'comfyui', baseUrl: 'http://127.0.0.1:8188' },
];

export interface FoundImageServer {
  protocol: ImageServerProtocol;
  /** The product shown to members: 'AUTOMATIC1111', 'Forge', 'SD.Next' or 'ComfyUI'. */
  server: string;
  baseUrl: string;
  /** Checkpoint names as the server lists them. */
  models: string[];
  /** The checkpoint the server has loaded now (A1111 family), if it says. */
  currentModel: string | null;
}

/** Refiner and inpainting checkpoints cannot draw a picture from a prompt on their own. */
const NOT_A_TEXT_TO_IMAGE_MODEL = /refiner|inpaint/i;

/** What answers at `candidate`, if it really speaks that image server's API (not merely an open port). */
export async function identifyImageServer(candidate: ImageServerCandidate): Promise<FoundImageServer | null> {
  const baseUrl = candidate.baseUrl.replace(/\/+$/, '');
  return candidate.protocol === 'a1111' ? identifyA1111(baseUrl) : identifyComfyUi(baseUrl);
}

async function identifyA1111(baseUrl: string): Promise<FoundImageServer | null> {
  const [list, options] = await Promise.all([probeJson(`${baseUrl}/sdapi/v1/sd-models`), probeJson(`${baseUrl}/sdapi/v1/options`)]);
  const entries = objectsOf(list);
  if (!entries || !isJsonObject(options)) return null;
  const models = entries.map((entry) => textOf(entry.title) ?? textOf(entry.model_name)).filter((name) => name !== null);
  return { protocol: 'a1111', server: nameA1111Fork(options), baseUrl, models, currentModel: textOf(options.sd_model_checkpoint) };
}

/** The forks keep A1111's API but add settings of their own, which tell them apart. */
function nameA1111Fork(options: Record<string, unknown>): string {
  const keys = Object.keys(options);
  if (keys.some((key) => key.startsWith('forge_'))) return 'Forge';
  if (keys.some((key) => key.startsWith('diffusers_') || key === 'sd_backend')) return 'SD.Next';
  return 'AUTOMATIC1111';
}

async function identifyComfyUi(baseUrl: string): Promise<FoundImageServer | null> {
  const [stats, loader] = await Promise.all([
    probeJson(`${baseUrl}/system_stats`),
    probeJson(`${baseUrl}/object_info/CheckpointLoaderSimple`),
  ]);
  if (!isJsonObject(stats) || !isJsonObject(stats.system) || !Array.isArray(stats.devices)) return null;
  return { protocol: 'comfyui', server: 'ComfyUI', baseUrl, models: comfyCheckpoints(loader), currentModel: null };
}

/** `ckpt_name` of CheckpointLoaderSimple: `[[names…], {…}]`, or `['COMBO', { options: [names…] }]` in newer ComfyUI. */
function comfyCheckpoints(loader: unknown): string[] {
  const node = isJsonObject(loader) && isJsonObject(loader.CheckpointLoaderSimple) ? loader.CheckpointLoaderSimple : null;
  const input = node && isJsonObject(node.input) && isJsonObject(node.input.required) ? node.input.required.ckpt_name : null;
  if (!Array.isArray(input)) return [];
  const [first, second] = input as unknown[];
  const names = Array.isArray(first) ? first : isJsonObject(second) && Array.isArray(second.options) ? second.options : [];
  return names.map(textOf).filter((name) => name !== null);
}

/**
 * The checkpoint pictures are drawn with: the one named in `preferred` (A1111_MODEL / COMFYUI_MODEL) when the server
 * has it; else the one the server has loaded now (what the creator last picked in its own UI); else the first in the
 * server's (alphabetical) list that can draw from a prompt alone. Null when the server lists none.
 */
export function pickImageModel(found: FoundImageServer, preferred: string | null): string | null {
  if (preferred && found.models.includes(preferred)) return preferred;
  if (found.currentModel && (found.models.length === 0 || found.models.includes(found.currentModel))) return found.currentModel;
  return found.models.find((name) => !NOT_A_TEXT_TO_IMAGE_MODEL.test(name)) ?? found.models[0] ?? null;
}
