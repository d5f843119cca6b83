import { CATALOG_LOADERS, i18n, loadCatalog, NAMESPACE } from './i18n';
import { LANGUAGES } from './languages';
import en from './locales/en.json';

type Tree = { [key: string]: string | Tree };

function keysOf(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

/** i18n.t without the compile-time key check, for keys the tests add at run time. */
const t = (key: string, options?: Record<string, unknown>): string =>
  (i18n.t as unknown as (k: string, o?: object) => string)(key, options);

// Captured before the tests add keys of their own to the (shared) English bundle.
const ENGLISH_KEYS = keysOf(en as Tree).sort();

describe('i18n', () => {
  beforeAll(() => {
    i18n.addResourceBundle(
      'en',
      NAMESPACE,
      { test: { greeting: 'Hi {{name}}', two: '{{a}} and {{b}}', onlyEnglish: 'From English' } },
      true,
    );
    i18n.addResourceBundle('xx', NAMESPACE, { test: { greeting: 'Salut {{name}}' } });
  });
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('starts in English with the bundled catalog', () => {
    expect(i18n.language).toBe('en');
    expect(i18n.t('notFound.title')).toBe('404 Page Not Found');
  });

  it('fills double-brace placeholders without escaping the value', () => {
    expect(t('test.greeting', { name: 'Mira & Co <3' })).toBe('Hi Mira & Co <3');
  });

  it('leaves a placeholder that has no value unchanged', () => {
    expect(t('test.greeting', {})).toBe('Hi {{name}}');
    expect(t('test.greeting')).toBe('Hi {{name}}');
    expect(t('test.two', { b: 'B' })).toBe('{{a}} and B');
  });

  it('falls back to English, then to the key itself', async () => {
    await i18n.changeLanguage('xx');
    expect(t('test.greeting', { name: 'Ana' })).toBe('Salut Ana');
    expect(t('test.onlyEnglish')).toBe('From English');
    expect(t('test.nowhere')).toBe('test.nowhere');
  });

  it('has a lazy loader for every language except the bundled English', () => {
    expect(Object.keys(CATALOG_LOADERS).sort()).toEqual(
      LANGUAGES.map((language) => language.code)
        .filter((code) => code !== 'en')
        .sort(),
    );
  });

  it.each(Object.keys(CATALOG_LOADERS) as (keyof typeof CATALOG_LOADERS)[])('loads the %s catalog with every English key', async (code) => {
    await loadCatalog(code);
    expect(i18n.hasResourceBundle(code, NAMESPACE)).toBe(true);
    const catalog = (await CATALOG_LOADERS[code]()).default as Tree;
    // A plural is one key whatever forms the language's rules give it (catalogs.test.ts checks the forms).
    const base = (keys: string[]) => [...new Set(keys.map((key) => key.replace(/_(zero|one|two|few|many|other)$/, '_#')))].sort();
    expect(base(keysOf(catalog))).toEqual(base(ENGLISH_KEYS));
  });
});
