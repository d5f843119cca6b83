/** Sampler settings as a form: text fields that may be left empty (the default), checked against the server's limits. */

/** The server's limits (schema/src/bus/chat.ts SamplerSettings); the form stops the member before the server would. */
export const SAMPLER_LIMITS = {
  temperature: { min: 0, max: 2, step: 0.05 },
  // top_p 0 would allow no token at all, so the server takes values above 0 only.
  topP: { min: 0, max: 1, step: 0.05 },
  maxTokens: { min: 16, max: 4096, step: 1 },
  presencePenalty: { min: -2, max: 2, step: 0.1 },
  frequencyPenalty: { min: -2, max: 2, step: 0.1 },
  stopCount: 4,
  stopLength: 32,
  extrasCount: 8,
  extraValueLength: 200,
} as const;

export const NUMBER_FIELDS = ['temperature', 'topP', 'maxTokens', 'presencePenalty', 'frequencyPenalty'] as const;
export type NumberField = (typeof NUMBER_FIELDS)[number];

const EXTRA_NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** Names the server refuses as extras: request fields, and the named settings under their wire names (they have fields above). */
const RESERVED_EXTRA_NAMES: ReadonlySet<string> = new Set([
  ...['model', 'messages', 'stream', 'stream_options', 'n', 'best_of', 'tools', 'tool_choice', 'functions', 'function_call', 'user'],
  ...['temperature', 'top_p', 'stop', 'presence_penalty', 'frequency_penalty', 'max_tokens', 'max_completion_tokens'],
  ...['n_predict', 'num_predict', 'max_length', 'max_new_tokens'],
]);

export type ExtraValue = number | boolean | string;

/** What the server returns (and takes) for sampler settings; a missing or null field is the default. */
export interface SamplerSettingsValue {
  temperature?: number | null;
  topP?: number | null;
  maxTokens?: number | null;
  stop?: readonly string[] | null;
  presencePenalty?: number | null;
  frequencyPenalty?: number | null;
  extras?: Record<string, unknown> | null;
}

export interface ExtraRow {
  name: string;
  value: string;
}

export interface SamplerForm extends Record<NumberField, string> {
  stop: string[];
  extras: ExtraRow[];
}

export const EMPTY_SAMPLER_FORM: SamplerForm = {
  temperature: '',
  topP: '',
  maxTokens: '',
  presencePenalty: '',
  frequencyPenalty: '',
  stop: [],
  extras: [],
};

export type SamplerProblem = 'range' | 'integer' | 'extraName' | 'extraReserved' | 'extraDuplicate' | 'extraValue' | 'extrasCount';

/** An extra's value as sent: true/false and numbers as such, anything else as text. */
export function parseExtraValue(raw: string): ExtraValue {
  const text = raw.trim();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text !== '' && Number.isFinite(Number(text))) return Number(text);
  return text;
}

export function formatExtraValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

export function toSamplerForm(settings: SamplerSettingsValue | null | undefined): SamplerForm {
  if (!settings) return EMPTY_SAMPLER_FORM;
  const number = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return {
    temperature: number(settings.temperature),
    topP: number(settings.topP),
    maxTokens: number(settings.maxTokens),
    presencePenalty: number(settings.presencePenalty),
    frequencyPenalty: number(settings.frequencyPenalty),
    stop: [...(settings.stop ?? [])],
    extras: Object.entries(settings.extras ?? {}).map(([name, value]) => ({ name, value: formatExtraValue(value) })),
  };
}

function numberProblem(field: NumberField, raw: string): SamplerProblem | null {
  if (raw.trim() === '') return null;
  const value = Number(raw);
  const { min, max } = SAMPLER_LIMITS[field];
  if (!Number.isFinite(value) || value < min || value > max) return 'range';
  if (field === 'topP' && value === 0) return 'range';
  if (field === 'maxTokens' && !Number.isInteger(value)) return 'integer';
  return null;
}

function extraProblem(row: ExtraRow, index: number, rows: readonly ExtraRow[]): SamplerProblem | null {
  const name = row.name.trim();
  if (name === '' && row.value.trim() === '') return null;
  if (!EXTRA_NAME.test(name)) return 'extraName';
  if (RESERVED_EXTRA_NAMES.has(name)) return 'extraReserved';
  if (rows.findIndex((other) => other.name.trim() === name) !== index) return 'extraDuplicate';
  if (row.value.trim() === '' || row.value.length > SAMPLER_LIMITS.extraValueLength) return 'extraValue';
  return null;
}

export interface SamplerProblems {
  numbers: Partial<Record<NumberField, SamplerProblem>>;
  /** By row index. */
  extras: Partial<Record<number, SamplerProblem>>;
  extrasCount: boolean;
}

export function samplerProblems(form: SamplerForm): SamplerProblems {
  const numbers: SamplerProblems['numbers'] = {};
  for (const field of NUMBER_FIELDS) {
    const problem = numberProblem(field, form[field]);
    if (problem) numbers[field] = problem;
  }
  const extras: SamplerProblems['extras'] = {};
  form.extras.forEach((row, index) => {
    const problem = extraProblem(row, index, form.extras);
    if (problem) extras[index] = problem;
  });
  return { numbers, extras, extrasCount: filledExtras(form.extras).length > SAMPLER_LIMITS.extrasCount };
}

export function hasSamplerProblems(problems: SamplerProblems): boolean {
  return Object.keys(problems.numbers).length > 0 || Object.keys(problems.extras).length > 0 || problems.extrasCount;
}

const filledExtras = (rows: readonly ExtraRow[]) => rows.filter((row) => row.name.trim() !== '' || row.value.trim() !== '');

export interface SamplerSettingsInputValue {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  extras?: Record<string, ExtraValue>;
}

/** What to send: only the fields set ({} clears every setting). Check samplerProblems first. */
export function toSamplerInput(form: SamplerForm): SamplerSettingsInputValue {
  const input: SamplerSettingsInputValue = {};
  for (const field of NUMBER_FIELDS) {
    if (form[field].trim() !== '') input[field] = Number(form[field]);
  }
  if (form.stop.length > 0) input.stop = [...form.stop];
  const extras = filledExtras(form.extras);
  if (extras.length > 0) input.extras = Object.fromEntries(extras.map((row) => [row.name.trim(), parseExtraValue(row.value)]));
  return input;
}

export function isSamplerFormEmpty(form: SamplerForm): boolean {
  return Object.keys(toSamplerInput(form)).length === 0;
}

/**
 * Adds a stop sequence as typed (spaces matter to the model), with a typed \n as a line break, unless it is empty,
 * too long, repeated, or the list is full.
 */
export function addStopSequence(stops: readonly string[], raw: string): string[] {
  const stop = raw.replace(/\\n/g, '\n');
  if (stop === '' || stop.length > SAMPLER_LIMITS.stopLength || stops.length >= SAMPLER_LIMITS.stopCount || stops.includes(stop)) {
    return [...stops];
  }
  return [...stops, stop];
}

/** Stop sequences shown as written, a line break as ↵ so it is not an empty-looking tag. */
export function visibleStopSequence(stop: string): string {
  return stop.replace(/\r?\n/g, '↵');
}
