import fs from 'node:fs';
import path from 'node:path';
import type { AdvancedImageSetting } from '@app/schema';

/**
 * ComfyUI workflows in its API format ("Save (API Format)"): `{ "<node id>": { class_type, inputs } }`, with
 * `{{placeholder}}`s in string values filled in for each picture. A value that is exactly a numeric placeholder
 * (`"{{seed}}"`) becomes a number, since ComfyUI refuses a seed or a width given as text.
 */

/** The shipped text-to-image workflow (services/media/workflows/, beside src/ and dist/ alike, so it ships in both). */
export const DEFAULT_COMFYUI_WORKFLOW_PATH = path.resolve(__dirname, '..', '..', 'workflows', 'text-to-image.json');

export const COMFYUI_PLACEHOLDERS = ['prompt', 'negative_prompt', 'width', 'height', 'seed', 'steps', 'cfg', 'sampler', 'model'] as const;
export type ComfyUiPlaceholder = (typeof COMFYUI_PLACEHOLDERS)[number];
const NUMERIC_PLACEHOLDERS: ReadonlySet<ComfyUiPlaceholder> = new Set(['width', 'height', 'seed', 'steps', 'cfg']);

/** Which advanced setting each placeholder carries: a workflow honours only the settings it has a place for. */
const SETTING_OF_PLACEHOLDER: Partial<Record<ComfyUiPlaceholder, AdvancedImageSetting>> = {
  negative_prompt: 'negativePrompt',
  seed: 'seed',
  steps: 'steps',
  cfg: 'cfgScale',
  sampler: 'sampler',
};

export type ComfyUiValues = Record<ComfyUiPlaceholder, string | number>;

export interface ComfyUiNode {
  class_type: string;
  inputs: Record<string, unknown>;
  [field: string]: unknown;
}
export type ComfyUiGraph = Record<string, ComfyUiNode>;

export interface ComfyUiWorkflow {
  /** Where it was read from, named in every error about it. */
  source: string;
  graph: ComfyUiGraph;
  placeholders: ReadonlySet<ComfyUiPlaceholder>;
  /** The checkpoint the workflow names itself (a literal `ckpt_name`), when it has no `{{model}}`. */
  fixedModel: string | null;
}

const PLACEHOLDER = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** Reads and checks a workflow file; throws an Error naming the file and what is wrong with it. */
export function loadComfyUiWorkflow(file: string): ComfyUiWorkflow {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`The ComfyUI workflow ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`The ComfyUI workflow ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return parseComfyUiWorkflow(parsed, file);
}

/** Checks a parsed workflow: API format, known placeholders only, and a `{{prompt}}` somewhere. */
export function parseComfyUiWorkflow(value: unknown, source: string): ComfyUiWorkflow {
  const problem = (what: string) => new Error(`The ComfyUI workflow ${source} ${what}`);
  if (!isObject(value)) throw problem('must be a JSON object of nodes (export it with "Save (API Format)")');
  // The editor's own format (nodes and links) is what "Save" writes; ComfyUI's API runs only the API format.
  if (Array.isArray(value.nodes) && Array.isArray(value.links)) {
    throw problem('is in the editor format; export it with "Save (API Format)" (enable the dev mode options in older versions)');
  }
  const nodes = Object.entries(value);
  if (nodes.length === 0) throw problem('has no nodes');
  for (const [id, node] of nodes) {
    if (!isObject(node) || typeof node.class_type !== 'string' || !isObject(node.inputs)) {
      throw problem(`has a node "${id}" without class_type and inputs; export it with "Save (API Format)"`);
    }
  }
  const placeholders = new Set<ComfyUiPlaceholder>();
  for (const name of placeholderNames(value)) {
    if (!(COMFYUI_PLACEHOLDERS as readonly string[]).includes(name)) {
      throw problem(`uses an unknown placeholder {{${name}}}; known: ${COMFYUI_PLACEHOLDERS.map((known) => `{{${known}}}`).join(', ')}`);
    }
    placeholders.add(name as ComfyUiPlaceholder);
  }
  if (!placeholders.has('prompt')) throw problem('has no {{prompt}} placeholder for the description (e.g. in a CLIPTextEncode text)');
  const graph = value as ComfyUiGraph;
  return { source, graph, placeholders, fixedModel: placeholders.has('model') ? null : namedCheckpoint(graph) };
}

/** The advanced settings a workflow honours: those whose placeholder it uses. */
export function honouredSettings(workflow: ComfyUiWorkflow): AdvancedImageSetting[] {
  return Object.entries(SETTING_OF_PLACEHOLDER)
    .filter(([placeholder]) => workflow.placeholders.has(placeholder as ComfyUiPlaceholder))
    .map(([, setting]) => setting);
}

/** A copy of the workflow's graph with every placeholder filled in. */
export function fillComfyUiWorkflow(workflow: ComfyUiWorkflow, values: ComfyUiValues): ComfyUiGraph {
  return fill(workflow.graph, values) as ComfyUiGraph;
}

function fill(value: unknown, values: ComfyUiValues): unknown {
  if (typeof value === 'string') return fillText(value, values);
  if (Array.isArray(value)) return value.map((item) => fill(item, values));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, values)]));
  return value;
}

function fillText(text: string, values: ComfyUiValues): string | number {
  const whole = /^\{\{\s*([a-z_]+)\s*\}\}$/.exec(text);
  if (whole && NUMERIC_PLACEHOLDERS.has(whole[1] as ComfyUiPlaceholder)) return Number(values[whole[1] as ComfyUiPlaceholder]);
  return text.replace(PLACEHOLDER, (_, name: string) => String(values[name as ComfyUiPlaceholder]));
}

function placeholderNames(value: unknown): string[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((match) => match[1]);
  if (Array.isArray(value)) return value.flatMap(placeholderNames);
  if (isObject(value)) return Object.values(value).flatMap(placeholderNames);
  return [];
}

function namedCheckpoint(graph: ComfyUiGraph): string | null {
  for (const node of Object.values(graph)) {
    for (const input of ['ckpt_name', 'unet_name']) {
      const name = node.inputs[input];
      if (typeof name === 'string' && name.trim()) return name.trim();
    }
  }
  return null;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
