import { i18n } from '../../i18n/i18n';

/** The server's limits (schema/src/bus/media.ts MEDIA_LIMITS); the form stops the member before the server would. */
export const ADVANCED_LIMITS = {
  negativePromptLength: 2000,
  // GraphQL Int is 32-bit signed, so this is the largest seed the API can carry.
  seedMax: 2_147_483_647,
  stepsMin: 1,
  stepsMax: 150,
  cfgScaleMin: 1,
  cfgScaleMax: 30,
} as const;

/** The advanced settings, as the API names them (`imageProvider.advanced` lists the ones the renderer honours). */
export const ADVANCED_SETTINGS = ['negativePrompt', 'seed', 'steps', 'cfgScale', 'sampler'] as const;
export type AdvancedSetting = (typeof ADVANCED_SETTINGS)[number];

/** What an image or a job records, and what generateImage takes; null or missing is the renderer's default. */
export interface AdvancedSettingsValue {
  negativePrompt?: string | null;
  seed?: number | null;
  steps?: number | null;
  cfgScale?: number | null;
  sampler?: string | null;
}

/** The form keeps text as typed; an empty field is the default (for the seed: a random one). */
export type AdvancedForm = Record<AdvancedSetting, string>;
export type AdvancedErrors = Partial<Record<AdvancedSetting, string>>;

export const EMPTY_ADVANCED_FORM: AdvancedForm = { negativePrompt: '', seed: '', steps: '', cfgScale: '', sampler: '' };

export const isAdvancedSetting = (value: string): value is AdvancedSetting => (ADVANCED_SETTINGS as readonly string[]).includes(value);

/** The form filled from recorded settings ("Use these settings"). */
export function advancedFormFrom(value: AdvancedSettingsValue | null | undefined): AdvancedForm {
  const text = (field: string | number | null | undefined) => (field == null ? '' : String(field));
  return {
    negativePrompt: text(value?.negativePrompt),
    seed: text(value?.seed),
    steps: text(value?.steps),
    cfgScale: text(value?.cfgScale),
    sampler: text(value?.sampler),
  };
}

/** Whether any field holds something other than the default (the section then opens by itself). */
export function hasAdvancedValues(form: AdvancedForm): boolean {
  return ADVANCED_SETTINGS.some((setting) => form[setting].trim() !== '');
}

const WHOLE_NUMBER = /^\d+$/;

function wholeNumberIn(text: string, min: number, max: number): number | null {
  if (!WHOLE_NUMBER.test(text)) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

function numberIn(text: string, min: number, max: number): number | null {
  // A decimal comma is what many keyboards type.
  const normalized = text.replace(',', '.');
  if (!/^\d+(\.\d+)?$/.test(normalized)) return null;
  const value = Number(normalized);
  return value >= min && value <= max ? value : null;
}

/**
 * The settings to send: only those the renderer honours (the form shows no others) and only those filled in,
 * each checked against the server's limits. Any error means nothing should be sent.
 */
export function readAdvancedForm(
  form: AdvancedForm,
  honoured: readonly string[],
  samplers: readonly string[],
): { settings: AdvancedSettingsValue; errors: AdvancedErrors } {
  const settings: AdvancedSettingsValue = {};
  const errors: AdvancedErrors = {};
  const shown = (setting: AdvancedSetting) => honoured.includes(setting) && form[setting].trim() !== '';
  const L = ADVANCED_LIMITS;

  if (shown('negativePrompt')) {
    const text = form.negativePrompt.trim();
    if (text.length > L.negativePromptLength)
      errors.negativePrompt = i18n.t('images.advanced.errors.negativePromptTooLong', { max: L.negativePromptLength });
    else settings.negativePrompt = text;
  }
  if (shown('seed')) {
    const seed = wholeNumberIn(form.seed.trim(), 0, L.seedMax);
    if (seed === null) errors.seed = i18n.t('images.advanced.errors.seed', { max: L.seedMax });
    else settings.seed = seed;
  }
  if (shown('steps')) {
    const steps = wholeNumberIn(form.steps.trim(), L.stepsMin, L.stepsMax);
    if (steps === null) errors.steps = i18n.t('images.advanced.errors.steps', { min: L.stepsMin, max: L.stepsMax });
    else settings.steps = steps;
  }
  if (shown('cfgScale')) {
    const cfgScale = numberIn(form.cfgScale.trim(), L.cfgScaleMin, L.cfgScaleMax);
    if (cfgScale === null) errors.cfgScale = i18n.t('images.advanced.errors.cfgScale', { min: L.cfgScaleMin, max: L.cfgScaleMax });
    else settings.cfgScale = cfgScale;
  }
  if (shown('sampler') && samplers.length > 0) {
    const sampler = form.sampler.trim();
    if (!samplers.includes(sampler)) errors.sampler = i18n.t('images.advanced.errors.sampler');
    else settings.sampler = sampler;
  }
  return { settings, errors };
}

/** Advanced settings from a hand-off (location state): anything of the wrong type is left out. */
export function readAdvancedSettings(raw: unknown): AdvancedSettingsValue | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const { negativePrompt, seed, steps, cfgScale, sampler } = raw as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : null);
  return {
    negativePrompt: text(negativePrompt),
    seed: number(seed),
    steps: number(steps),
    cfgScale: number(cfgScale),
    sampler: text(sampler),
  };
}
