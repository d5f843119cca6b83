import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from './languages';

export interface LanguageSignals {
  /** The value saved under the `language` local storage key, if any. */
  stored?: string | null;
  /** The browser's preferred languages, most preferred first (navigator.languages). */
  browserLanguages?: readonly string[];
}

/**
 * The language to start in (spec §4): the saved choice when it is one of the offered languages;
 * otherwise the first browser preference whose primary subtag ("pt" of "pt-BR") is offered; else
 * English. An English preference ahead of the others keeps English, so the browser list is only
 * consulted until it names a language we have.
 */
export function detectLanguage({ stored, browserLanguages = [] }: LanguageSignals): LanguageCode {
  if (isLanguageCode(stored)) return stored;
  for (const tag of browserLanguages) {
    const prefix = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (isLanguageCode(prefix)) return prefix;
  }
  return DEFAULT_LANGUAGE;
}

/** navigator.languages, or navigator.language when the list is empty. */
export function readBrowserLanguages(nav: Pick<Navigator, 'languages' | 'language'> | undefined = globalThis.navigator): string[] {
  if (!nav) return [];
  if (nav.languages && nav.languages.length > 0) return [...nav.languages];
  return nav.language ? [nav.language] : [];
}
