/** The character creator's form (spec §5 "Character create") and how it becomes a request. */
import type { ContentRating } from '../../gql/graphql';
import { i18n } from '../../i18n/i18n';

export interface CharacterFormValues {
  name: string;
  description: string;
  traits: string[];
  isPublic: boolean;
  /** How explicit it is; asked for when it is public (null: not chosen yet). */
  rating: ContentRating | null;
  scenario: string;
  greeting: string;
  exampleDialogue: string;
  systemPrompt: string;
}

/** What a character gives the edit form. */
export interface CharacterFormSource {
  name: string;
  description?: string | null;
  personality: { traits: readonly string[] };
  isPublic: boolean;
  /** Characters read from the server always have one; older callers may leave it out. */
  rating?: ContentRating | null;
  scenario: string;
  greeting: string;
  exampleDialogue: string;
  systemPrompt: string;
}

/** Spec §4: after creating, the form is back to an empty name and description, no traits, private, unrated. */
export const EMPTY_CHARACTER_FORM: CharacterFormValues = {
  name: '',
  description: '',
  traits: [],
  isPublic: false,
  rating: null,
  scenario: '',
  greeting: '',
  exampleDialogue: '',
  systemPrompt: '',
};

/** Server limits (CHAT_LIMITS), checked here so the member hears about them before sending. */
export const CHARACTER_LIMITS = { nameLength: 80, traitLength: 40, traits: 20 } as const;

/** Adds a trait if it is non-empty after trimming and not already listed (case-insensitively); else the same list. */
export function addTrait(traits: readonly string[], raw: string): string[] {
  const trait = raw.trim().replace(/\s+/g, ' ');
  if (!trait || trait.length > CHARACTER_LIMITS.traitLength || traits.length >= CHARACTER_LIMITS.traits) return [...traits];
  if (traits.some((existing) => existing.toLowerCase() === trait.toLowerCase())) return [...traits];
  return [...traits, trait];
}

export function removeTrait(traits: readonly string[], trait: string): string[] {
  return traits.filter((existing) => existing !== trait);
}

export function hasTrait(traits: readonly string[], trait: string): boolean {
  return traits.some((existing) => existing.toLowerCase() === trait.toLowerCase());
}

/** A public character needs a rating before it is saved (the server would otherwise take EXPLICIT). */
export function needsRating(values: Pick<CharacterFormValues, 'isPublic' | 'rating'>): boolean {
  return values.isPublic && values.rating === null;
}

/** The name to save, or null when it is missing ('Name Required'). */
export function characterName(values: Pick<CharacterFormValues, 'name'>): string | null {
  return values.name.trim() || null;
}

/** The create payload: name and description trimmed, an empty description (and empty extras) omitted. */
export function toCreateCharacterInput(values: CharacterFormValues) {
  const optional = (value: string) => value.trim() || undefined;
  const input = {
    name: values.name.trim(),
    description: optional(values.description),
    personalityTraits: values.traits,
    isPublic: values.isPublic,
    rating: values.rating ?? undefined,
    scenario: optional(values.scenario),
    greeting: optional(values.greeting),
    exampleDialogue: optional(values.exampleDialogue),
    systemPrompt: optional(values.systemPrompt),
  };
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as typeof input;
}

/** The update payload: every field, so clearing one clears it (a null description removes it); the rating when chosen. */
export function toUpdateCharacterInput(values: CharacterFormValues) {
  return {
    name: values.name.trim(),
    description: values.description.trim() || null,
    personalityTraits: values.traits,
    isPublic: values.isPublic,
    ...(values.rating ? { rating: values.rating } : {}),
    scenario: values.scenario.trim(),
    greeting: values.greeting.trim(),
    exampleDialogue: values.exampleDialogue.trim(),
    systemPrompt: values.systemPrompt.trim(),
  };
}

export function toCharacterForm(character: CharacterFormSource): CharacterFormValues {
  return {
    name: character.name,
    description: character.description ?? '',
    traits: [...character.personality.traits],
    isPublic: character.isPublic,
    rating: character.rating ?? null,
    scenario: character.scenario,
    greeting: character.greeting,
    exampleDialogue: character.exampleDialogue,
    systemPrompt: character.systemPrompt,
  };
}

/** Spec §9: a card shows at most 3 traits, then "+N". */
export const CARD_TRAIT_LIMIT = 3;

export function visibleTraits(traits: readonly string[], limit = CARD_TRAIT_LIMIT): { shown: string[]; more: number } {
  return { shown: traits.slice(0, limit), more: Math.max(traits.length - limit, 0) };
}

/** Card files the import accepts (the server takes up to 8 MB). */
export const MAX_CARD_BYTES = 8 * 1024 * 1024;

/** Why `file` cannot be a character card, in the interface language; null when it may be one. */
export function cardFileProblem(file: { name: string; size: number }): string | null {
  if (!/\.(png|json)$/i.test(file.name)) return i18n.t('characters.import.wrongType');
  if (file.size > MAX_CARD_BYTES) {
    const size = new Intl.NumberFormat(i18n.language, { style: 'unit', unit: 'megabyte' }).format(MAX_CARD_BYTES / 1024 / 1024);
    return i18n.t('characters.import.tooLarge', { size });
  }
  if (file.size === 0) return i18n.t('characters.import.empty');
  return null;
}

export type CardFormat = 'png' | 'json_v2' | 'json_v3';

export function cardDownloadUrl(characterId: string, format: CardFormat): string {
  return `/api/characters/${encodeURIComponent(characterId)}/card?format=${format}`;
}
