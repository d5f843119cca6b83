import i18next, { type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import firstPaintEnglish from './first-paint-catalog';
import { DEFAULT_LANGUAGE, type LanguageCode } from './languages';
import type en from './locales/en.json';

/** English is the source of truth for every key; its first-paint sections are bundled, the rest and the other languages arrive on demand. */
export type Catalog = typeof en;

export const NAMESPACE = 'translation';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Catalog };
  }
}

/**
 * Spec §4: a placeholder without a value stays as written ("Hi {{name}}" with no name is shown as
 * is), rather than i18next's default of replacing it with an empty string.
 */
export function keepMissingPlaceholder(_text: string, match: RegExpExecArray | string[]): string {
  return match[0] ?? '';
}

export const I18N_OPTIONS = {
  lng: DEFAULT_LANGUAGE,
  // A key missing from a catalog falls back to English, then to the key itself (i18next's default).
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: false,
  defaultNS: NAMESPACE,
  ns: [NAMESPACE],
  resources: { en: { [NAMESPACE]: firstPaintEnglish } },
  // Other catalogs are added with addResourceBundle before switching (see loadCatalog).
  partialBundledLanguages: true,
  initAsync: false,
  returnNull: false,
  returnEmptyString: false,
  interpolation: {
    // React escapes what it renders; escaping here too would show "&amp;" and friends.
    escapeValue: false,
    prefix: '{{',
    suffix: '}}',
  },
  missingInterpolationHandler: keepMissingPlaceholder,
  // Screens rendered before the rest of the English catalog arrived show it once it has.
  react: { useSuspense: false, bindI18nStore: 'added' },
} satisfies InitOptions;

/** The app's i18next instance; React components reach it through react-i18next's hooks. */
export const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init(I18N_OPTIONS);

type LazyLanguage = Exclude<LanguageCode, 'en'>;

/** One dynamic import per catalog, so each is its own chunk and a visitor downloads only theirs. */
export const CATALOG_LOADERS: Record<LazyLanguage, () => Promise<{ default: unknown }>> = {
  es: () => import('./locales/es.json'),
  fr: () => import('./locales/fr.json'),
  de: () => import('./locales/de.json'),
  ru: () => import('./locales/ru.json'),
  hi: () => import('./locales/hi.json'),
  zh: () => import('./locales/zh.json'),
  ko: () => import('./locales/ko.json'),
  pt: () => import('./locales/pt.json'),
};

const pending = new Map<LanguageCode, Promise<void>>();

/** Makes a language's catalog available to i18next; English is always there. */
export function loadCatalog(code: LanguageCode): Promise<void> {
  if (code === 'en' || i18n.hasResourceBundle(code, NAMESPACE)) return Promise.resolve();
  let loading = pending.get(code);
  if (!loading) {
    loading = CATALOG_LOADERS[code]()
      .then((module) => {
        i18n.addResourceBundle(code, NAMESPACE, module.default as Record<string, unknown>, true, true);
      })
      .finally(() => pending.delete(code));
    pending.set(code, loading);
  }
  return loading;
}

let fullEnglish: Promise<void> | undefined;

/** The whole English catalog (the first paint carries only its own sections); every screen but the landing page needs it. */
export function loadFullEnglish(): Promise<void> {
  fullEnglish ??= import('./locales/en.json')
    .then((module) => {
      // Deep, without overwriting: keys added at run time (and the first-paint sections) stay as they are.
      i18n.addResourceBundle(DEFAULT_LANGUAGE, NAMESPACE, module.default, true, false);
    })
    .catch((error: unknown) => {
      fullEnglish = undefined;
      throw error;
    });
  return fullEnglish;
}
