import { i18n } from '../../i18n/i18n';
import type { GenerationStatus, ImageQuality, ImageSize, ImageStyle } from '../../gql/graphql';
import { type AdvancedSettingsValue, readAdvancedSettings } from './advanced-settings';

/** The settings of a generation, as the API names them. */
export interface ImageSettingsValue {
  size: ImageSize;
  quality: ImageQuality;
  style: ImageStyle;
}

/** Spec §5: the choices, in the order the selectors list them; their labels are under `images.settings.*`. */
export const SIZE_OPTIONS: readonly ImageSize[] = ['SQUARE', 'LANDSCAPE', 'PORTRAIT'];
export const QUALITY_OPTIONS: readonly ImageQuality[] = ['STANDARD', 'HD'];
export const STYLE_OPTIONS: readonly ImageStyle[] = ['VIVID', 'NATURAL'];

/** Spec §5: 1024x1024, standard, vivid. */
export const DEFAULT_IMAGE_SETTINGS: Readonly<ImageSettingsValue> = { size: 'SQUARE', quality: 'STANDARD', style: 'VIVID' };

/** The server's limits (schema MEDIA_LIMITS): a prompt and a search text are cut to these lengths. */
export const PROMPT_MAX_LENGTH = 4000;
export const SEARCH_MAX_LENGTH = 200;
/** Images per page in every list (the server's default page size). */
export const IMAGE_PAGE_SIZE = 24;

export const sizeLabel = (size: ImageSize) => i18n.t(`images.settings.size.${size}`);
export const qualityLabel = (quality: ImageQuality) => i18n.t(`images.settings.quality.${quality}`);
export const styleLabel = (style: ImageStyle) => i18n.t(`images.settings.style.${style}`);

/** "1792x1024 (Landscape) · standard · vivid". */
export function describeSettings(settings: ImageSettingsValue): string {
  return [sizeLabel(settings.size), qualityLabel(settings.quality), styleLabel(settings.style)].join(' · ');
}

const isOption = <T extends string>(options: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (options as readonly string[]).includes(value);

export const isImageSize = (value: unknown): value is ImageSize => isOption(SIZE_OPTIONS, value);
export const isImageQuality = (value: unknown): value is ImageQuality => isOption(QUALITY_OPTIONS, value);
export const isImageStyle = (value: unknown): value is ImageStyle => isOption(STYLE_OPTIONS, value);

/**
 * Spec §9: six quick ideas are defined and three are shown. Clicking one fills the prompt box.
 */
export const QUICK_IDEA_KEYS = ['lighthouse', 'neonCity', 'forest', 'portrait', 'islands', 'lounge'] as const;
export type QuickIdeaKey = (typeof QUICK_IDEA_KEYS)[number];

/** An idea's button label and the prompt it fills in, in the interface language. */
export function quickIdea(key: QuickIdeaKey): { label: string; prompt: string } {
  return { label: i18n.t(`images.quickIdeas.${key}.label`), prompt: i18n.t(`images.quickIdeas.${key}.prompt`) };
}

export const QUICK_IDEAS_SHOWN = 3;

/** Three of the six ideas, in a random order (`random` is injectable for tests). */
export function pickQuickIdeas<T>(ideas: readonly T[], count = QUICK_IDEAS_SHOWN, random: () => number = Math.random): T[] {
  const pool = [...ideas];
  for (let index = pool.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [pool[index], pool[other]] = [pool[other]!, pool[index]!];
  }
  return pool.slice(0, count);
}

/** Spec §5/§9: the download is named after the prompt cut to 50 characters, plus ".png". */
export const DOWNLOAD_NAME_LENGTH = 50;

export function downloadFileName(prompt: string): string {
  // Characters, not UTF-16 units, so an emoji is never cut in half.
  return `${Array.from(prompt).slice(0, DOWNLOAD_NAME_LENGTH).join('')}.png`;
}

/**
 * What the gallery's "Use these settings" hands to the generator. It travels as react-router
 * location state (`navigate('/generator', { state: { generatorHandOff } })`), so the URL stays clean.
 */
export interface GeneratorHandOff extends ImageSettingsValue {
  prompt: string;
  advanced?: AdvancedSettingsValue;
}

export function generatorHandOffState(handOff: GeneratorHandOff): { generatorHandOff: GeneratorHandOff } {
  return { generatorHandOff: handOff };
}

/** Reads a hand-off from location state; anything malformed (or absent) gives null. */
export function readGeneratorHandOff(state: unknown): GeneratorHandOff | null {
  if (!state || typeof state !== 'object') return null;
  const raw = (state as { generatorHandOff?: unknown }).generatorHandOff;
  if (!raw || typeof raw !== 'object') return null;
  const { prompt, size, quality, style, advanced } = raw as Record<string, unknown>;
  if (typeof prompt !== 'string') return null;
  return {
    prompt: prompt.slice(0, PROMPT_MAX_LENGTH),
    size: isImageSize(size) ? size : DEFAULT_IMAGE_SETTINGS.size,
    quality: isImageQuality(quality) ? quality : DEFAULT_IMAGE_SETTINGS.quality,
    style: isImageStyle(style) ? style : DEFAULT_IMAGE_SETTINGS.style,
    advanced: readAdvancedSettings(advanced),
  };
}

/** Queued, running or storing: the job may still change. */
export function isActiveGeneration(status: GenerationStatus): boolean {
  return status === 'QUEUED' || status === 'RUNNING' || status === 'STORING';
}

/** The progress bar's value in percent, or null while it cannot be known (indeterminate). */
export function progressPercent(job: { status: GenerationStatus; progress: number | null }): number | null {
  if (job.status === 'QUEUED' || job.progress == null || !Number.isFinite(job.progress)) return null;
  return Math.round(Math.min(1, Math.max(0, job.progress)) * 100);
}

/** "40%", or "40 %" where that is the custom. */
export function formatPercent(percent: number, language: string = i18n.language): string {
  return new Intl.NumberFormat(language, { style: 'percent' }).format(percent / 100);
}

/** A short line under the progress bar. */
export function generationPhase(job: { status: GenerationStatus; progress: number | null }): string {
  switch (job.status) {
    case 'QUEUED':
      return i18n.t('images.progress.queued');
    case 'STORING':
      return i18n.t('images.progress.storing');
    case 'RUNNING': {
      const percent = progressPercent(job);
      return percent == null ? i18n.t('images.progress.drawing') : i18n.t('images.progress.drawingPercent', { percent });
    }
    default:
      return '';
  }
}

/** "Ada Lovelace", one of the two, or null. */
export function creatorName(user: { firstName: string | null; lastName: string | null } | null | undefined): string | null {
  const name = [user?.firstName?.trim(), user?.lastName?.trim()].filter(Boolean).join(' ');
  return name || null;
}

/** Blank search boxes search for nothing (null, so every list shares one cache entry per search). */
export function normalizeSearch(text: string): string | null {
  const trimmed = text.trim().slice(0, SEARCH_MAX_LENGTH);
  return trimmed ? trimmed : null;
}

/** "Mar 4, 2026", in the interface language. */
export function formatImageDate(iso: string, language: string = i18n.language): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language, { year: 'numeric', month: 'short', day: 'numeric' }).format(date);
}

/** "1 like", "3 likes". */
export function likesLabel(likes: number): string {
  return i18n.t('images.likes', { count: likes });
}
