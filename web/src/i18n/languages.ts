/** The languages the interface is offered in (spec §2 "Language picker", §9: 9 languages). */
export const LANGUAGES = [
  { code: 'en', name: 'English', flag: '🇬🇧' },
  { code: 'es', name: 'Español', flag: '🇪🇸' },
  { code: 'fr', name: 'Français', flag: '🇫🇷' },
  { code: 'de', name: 'Deutsch', flag: '🇩🇪' },
  { code: 'ru', name: 'Русский', flag: '🇷🇺' },
  { code: 'hi', name: 'हिन्दी', flag: '🇮🇳' },
  { code: 'zh', name: '中文', flag: '🇨🇳' },
  { code: 'ko', name: '한국어', flag: '🇰🇷' },
  { code: 'pt', name: 'Português', flag: '🇵🇹' },
] as const satisfies readonly Language[];

export interface Language {
  /** ISO 639-1 code, also the catalog file name and the value saved in local storage. */
  code: string;
  /** The language's own name for itself ("Deutsch", not "German"). */
  name: string;
  /** A flag emoji; decorative only. */
  flag: string;
}

export type LanguageCode = (typeof LANGUAGES)[number]['code'];

export const DEFAULT_LANGUAGE: LanguageCode = 'en';

/** Local storage key holding the visitor's chosen language (spec §9). */
export const LANGUAGE_STORAGE_KEY = 'language';

const CODES: ReadonlySet<string> = new Set(LANGUAGES.map((language) => language.code));

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && CODES.has(value);
}

export function getLanguage(code: string | undefined): Language {
  return LANGUAGES.find((language) => language.code === code) ?? LANGUAGES[0];
}
