import { Environment, integer, oneOf, text } from '@app/kit';
import type { ProviderSource } from '@app/schema';

export const DEFAULT_OPENAI_IMAGES_MODEL = 'dall-e-3';
export const DEFAULT_OPENAI_IMAGES_TOTAL_TIMEOUT_MS = 180_000;
export const DEFAULT_A1111_NEGATIVE_PROMPT = 'lowres, blurry, watermark, text';
export const DEFAULT_A1111_SAMPLER = 'DPM++ 2M';
export const DEFAULT_A1111_TOTAL_TIMEOUT_MS = 600_000;
export const DEFAULT_COMFYUI_URL = 'http://127.0.0.1:8188';
export const DEFAULT_COMFYUI_NEGATIVE_PROMPT = DEFAULT_A1111_NEGATIVE_PROMPT;
export const DEFAULT_COMFYUI_SAMPLER = 'dpmpp_2m';
export const DEFAULT_COMFYUI_TOTAL_TIMEOUT_MS = 600_000;

/** The image providers' settings (the README's configuration table comes from here). */
export const imageProviderEnvironment = new Environment('media', {
  IMAGE_PROVIDER: oneOf(['openai', 'a1111', 'comfyui', 'demo'], null, {
    defaultText: 'unset (chosen from the settings below)',
    meaning:
      '`openai`, `a1111`, `comfyui` or `demo`. Unset: `A1111_URL` selects AUTOMATIC1111, else `COMFYUI_URL` selects ComfyUI, else `OPENAI_IMAGES_API_KEY` or `OPENAI_IMAGES_BASE_URL` selects OpenAI Images, else the offline demo renderer answers (see [AI image providers](#ai-image-providers)).',
  }),
  IMAGE_PROVIDER_SOURCE: oneOf(['configured', 'detected'], 'configured', {
    meaning:
      'How the image provider was chosen, shown to members: `detected` when the first-run probe found the server on this computer (it sets this), else `configured`. The demo always reports `demo`.',
  }),
  IMAGE_PROVIDER_SERVER: text(null, {
    defaultText: 'unset (`ComfyUI` for ComfyUI)',
    meaning: 'Display name of the image server (e.g. `Forge`, `SD.Next`), shown to members with the model; set by the first-run probe.',
  }),
  OPENAI_IMAGES_API_KEY: text(null, {
    secret: true,
    meaning:
      'Sent as `Authorization: Bearer` to the OpenAI Images API; falls back to `OPENAI_API_KEY`. Required when the base URL is `api.openai.com`. Never logged or quoted in errors.',
  }),
  OPENAI_IMAGES_BASE_URL: text(null, {
    defaultText: '`https://api.openai.com/v1`',
    meaning:
      'Base URL of an OpenAI Images-compatible API (`POST <base>/images/generations`); must be an http(s) URL (a trailing `/` or a pasted `/images/generations` is dropped). Falls back to `OPENAI_BASE_URL`.',
  }),
  OPENAI_IMAGES_MODEL: text(DEFAULT_OPENAI_IMAGES_MODEL, {
    meaning: '`dall-e-3`, or a model whose name starts with `gpt-image` (e.g. `gpt-image-1`), whose options are mapped.',
  }),
  OPENAI_IMAGES_TIMEOUT_MS: integer(DEFAULT_OPENAI_IMAGES_TOTAL_TIMEOUT_MS, {
    min: 1,
    meaning: 'Time allowed for one generation, the download of an image link included.',
  }),
  OPENAI_API_KEY: text(null, {
    secret: true,
    meaning: 'Used by OpenAI Images when `OPENAI_IMAGES_API_KEY` is unset; on its own it does not select it.',
  }),
  OPENAI_BASE_URL: text(null, {
    meaning: 'Used by OpenAI Images when `OPENAI_IMAGES_BASE_URL` is unset; on its own it does not select it.',
  }),
  A1111_URL: text(null, {
    meaning:
      'Base URL of an AUTOMATIC1111-compatible API (started with `--api`), e.g. `http://127.0.0.1:7860`; a pasted `/sdapi/v1/…` is dropped and `user:password@` in the URL becomes basic auth.',
  }),
  A1111_AUTH: text(null, {
    secret: true,
    meaning: '`user:password`, as given to `--api-auth`; sent as HTTP basic auth. Never logged or quoted in errors.',
  }),
  A1111_MODEL: text(null, {
    defaultText: "unset (the server's current checkpoint)",
    meaning: 'Checkpoint title sent as `override_settings.sd_model_checkpoint`.',
  }),
  A1111_SAMPLER: text(DEFAULT_A1111_SAMPLER, { meaning: '`sampler_name` of every generation.' }),
  A1111_NEGATIVE_PROMPT: text(DEFAULT_A1111_NEGATIVE_PROMPT, {
    keepsEmpty: true,
    meaning: 'Negative prompt of every generation; set it empty for none.',
  }),
  A1111_TIMEOUT_MS: integer(DEFAULT_A1111_TOTAL_TIMEOUT_MS, { min: 1, meaning: 'Time allowed for one generation.' }),
  COMFYUI_URL: text(null, {
    defaultText: `unset (\`${DEFAULT_COMFYUI_URL}\` with \`IMAGE_PROVIDER=comfyui\`)`,
    meaning: 'Base URL of a ComfyUI server, e.g. `http://127.0.0.1:8188`; selects ComfyUI. Its WebSocket (`/ws`) must be reachable too.',
  }),
  COMFYUI_WORKFLOW: text(null, {
    defaultText: 'the shipped `services/media/workflows/text-to-image.json`',
    meaning:
      'Path of a workflow saved with "Save (API Format)". Placeholders in its string values are filled in: `{{prompt}}` (required), `{{negative_prompt}}`, `{{width}}`, `{{height}}`, `{{seed}}`, `{{steps}}`, `{{cfg}}`, `{{sampler}}`, `{{model}}`; a value that is exactly a numeric placeholder becomes a number. Members see only the advanced settings it has a placeholder for. Checked at start.',
  }),
  COMFYUI_MODEL: text(null, {
    defaultText: "unset (the server's first checkpoint)",
    meaning: 'Checkpoint file name for `{{model}}`, as ComfyUI lists it (e.g. `sd_xl_base_1.0.safetensors`).',
  }),
  COMFYUI_TIMEOUT_MS: integer(DEFAULT_COMFYUI_TOTAL_TIMEOUT_MS, {
    min: 1,
    meaning: "Time allowed for one generation, time in ComfyUI's queue included.",
  }),
});

/** How the chosen image provider was found and what serves it, as the generator shows it. */
export function readImageProviderOrigin(
  env: NodeJS.ProcessEnv,
  provider: { kind: string; isDemo: boolean },
): { source: ProviderSource; server: string | null } {
  if (provider.isDemo) return { source: 'demo', server: null };
  const vars = imageProviderEnvironment.parse(env);
  // ComfyUI names itself; an A1111-compatible API may be A1111, Forge or SD.Next, so only the probe can tell.
  return { source: vars.IMAGE_PROVIDER_SOURCE, server: vars.IMAGE_PROVIDER_SERVER ?? (provider.kind === 'comfyui' ? 'ComfyUI' : null) };
}
