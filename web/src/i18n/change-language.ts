import { detectLanguage, readBrowserLanguages } from './detect-language';
import { i18n, loadCatalog } from './i18n';
import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, type LanguageCode } from './languages';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Storage can be blocked (privacy settings); the app then simply does not remember.
    return null;
  }
}

export function readStoredLanguage(): string | null {
  try {
    return storage()?.getItem(LANGUAGE_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function saveLanguage(code: LanguageCode): void {
  try {
    storage()?.setItem(LANGUAGE_STORAGE_KEY, code);
  } catch {
    // Quota or privacy mode: the choice lasts for this visit only.
  }
}

/** The page language attribute (spec §4), so assistive tech and the browser read the right language. */
export function setDocumentLanguage(code: LanguageCode): void {
  if (typeof document !== 'undefined') document.documentElement.lang = code;
}

/** Loads the catalog, switches i18next and sets <html lang>; does not remember the choice. */
export async function applyLanguage(code: LanguageCode): Promise<void> {
  await loadCatalog(code);
  await i18n.changeLanguage(code);
  setDocumentLanguage(code);
}

/** The visitor picked a language: switch to it and remember it under the `language` key. */
export async function changeLanguage(code: LanguageCode): Promise<void> {
  await applyLanguage(code);
  saveLanguage(code);
}

let started: Promise<LanguageCode> | undefined;

/**
 * Start-up: the saved or browser language (spec §4), loaded before the first render so no
 * untranslated text flashes. A catalog that fails to load (offline, new deploy) leaves English.
 * Once per page: the app started from the landing keeps the language the landing showed.
 */
export function startI18n(): Promise<LanguageCode> {
  started ??= detectAndApplyLanguage();
  return started;
}

async function detectAndApplyLanguage(): Promise<LanguageCode> {
  const code = detectLanguage({ stored: readStoredLanguage(), browserLanguages: readBrowserLanguages() });
  try {
    await applyLanguage(code);
    return code;
  } catch (error) {
    console.warn(`Could not load the "${code}" translations; using English.`, error);
    await i18n.changeLanguage(DEFAULT_LANGUAGE);
    setDocumentLanguage(DEFAULT_LANGUAGE);
    return DEFAULT_LANGUAGE;
  }
}
