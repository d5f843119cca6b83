import { ADVANCED_IMAGE_SETTINGS, AppError, type AdvancedImageSettings, type ImageSettings } from '@app/schema';
import type { ImageProvider } from '../providers/image-provider';

/** How members know each setting (the same words as the generator's labels). */
const SETTING_NAMES: Record<keyof AdvancedImageSettings, string> = {
  negativePrompt: 'a negative prompt',
  seed: 'a seed',
  steps: 'steps',
  cfgScale: 'CFG scale',
  sampler: 'a sampler',
};

/** The advanced settings given (absent ones left out); null when there are none, as the `advanced` column stores it. */
export function advancedOf(settings: {
  [Key in keyof AdvancedImageSettings]?: AdvancedImageSettings[Key] | null;
}): AdvancedImageSettings | null {
  const given = Object.fromEntries(
    ADVANCED_IMAGE_SETTINGS.filter((key) => settings[key] !== undefined && settings[key] !== null).map((key) => [key, settings[key]]),
  ) as AdvancedImageSettings;
  return Object.keys(given).length ? given : null;
}

/** A stored row's settings: the basic columns and its `advanced` jsonb (NULL for rows from before it existed). */
export const settingsOf = (row: {
  size: ImageSettings['size'];
  quality: ImageSettings['quality'];
  style: ImageSettings['style'];
  advanced: AdvancedImageSettings | null;
}): ImageSettings => ({ size: row.size, quality: row.quality, style: row.style, ...(row.advanced ?? {}) });

const refused = (field: keyof AdvancedImageSettings, message: string) =>
  new AppError('VALIDATION_FAILED', message, { fieldErrors: { [field]: message } });

/**
 * A setting the provider would ignore is refused: a member must never get a picture drawn without what they asked for.
 * So is a sampler it does not offer (when it can list them), before a token is spent on a generation bound to fail.
 */
export async function assertProviderHonours(provider: ImageProvider, settings: AdvancedImageSettings): Promise<void> {
  for (const key of ADVANCED_IMAGE_SETTINGS) {
    if (settings[key] !== undefined && !provider.advanced.includes(key)) {
      throw refused(key, `This image provider does not support ${SETTING_NAMES[key]}`);
    }
  }
  if (settings.sampler === undefined) return;
  const samplers = await provider.samplers();
  if (samplers.length && !samplers.includes(settings.sampler)) {
    throw refused('sampler', `This image provider has no sampler named "${settings.sampler}"`);
  }
}
