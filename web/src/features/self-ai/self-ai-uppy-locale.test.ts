import { createInstance } from 'i18next';
import en from '../../i18n/locales/en.json';
import { buildUppyLocale, type TranslateUppyString, UPPY_PLURAL_KEYS, UPPY_STRING_KEYS } from './self-ai-uppy-locale';

/** An i18next with the English catalog and a made-up Russian section with its three plural forms. */
async function translator(language: string): Promise<TranslateUppyString> {
  const i18n = createInstance();
  await i18n.init({
    lng: language,
    fallbackLng: 'en',
    resources: {
      en: { translation: en },
      ru: {
        translation: {
          selfAi: {
            uppy: {
              youCanOnlyUploadX_one: 'one %{smart_count}',
              youCanOnlyUploadX_few: 'few %{smart_count}',
              youCanOnlyUploadX_many: 'many %{smart_count}',
              youCanOnlyUploadX_other: 'other %{smart_count}',
            },
          },
        },
      },
    },
  });
  return (key, count) => (count === undefined ? i18n.t(`selfAi.uppy.${key}`) : i18n.t(`selfAi.uppy.${key}`, { count }));
}

/** Uppy's own lookup: a plural text is picked by `pluralize(n)`, then `%{name}` is filled in. */
function uppyText(locale: ReturnType<typeof buildUppyLocale>, key: string, values: Record<string, string | number>): string {
  const entry = locale.strings[key]!;
  const text = typeof entry === 'string' ? entry : entry[locale.pluralize(Number(values['smart_count']))]!;
  return Object.entries(values).reduce((result, [name, value]) => result.replaceAll(`%{${name}}`, String(value)), text);
}

describe('buildUppyLocale', () => {
  it("gives Uppy every string the member sees, from the catalog, with Uppy's placeholders kept", async () => {
    const locale = buildUppyLocale(await translator('en'), 'en');
    for (const key of [...UPPY_STRING_KEYS, ...UPPY_PLURAL_KEYS]) expect(locale.strings[key]).toBeDefined();
    expect(uppyText(locale, 'exceedsSize', { file: 'big.png', size: '10 MB' })).toBe('big.png exceeds maximum allowed size of 10 MB');
    expect(uppyText(locale, 'youCanOnlyUploadFileTypes', { types: 'image/jpeg' })).toBe('Only JPG and PNG photos are accepted.');
  });

  it('picks English plural forms by count', async () => {
    const locale = buildUppyLocale(await translator('en'), 'en');
    expect(uppyText(locale, 'youCanOnlyUploadX', { smart_count: 5 })).toBe('You can only upload 5 files');
    expect(uppyText(locale, 'youCanOnlyUploadX', { smart_count: 1 })).toBe('You can only upload 1 file');
    expect(uppyText(locale, 'uploadXFiles', { smart_count: 2 })).toBe('Upload 2 files');
  });

  it("follows a language's own plural categories (Russian: one, few, many)", async () => {
    const locale = buildUppyLocale(await translator('ru'), 'ru');
    expect(uppyText(locale, 'youCanOnlyUploadX', { smart_count: 1 })).toBe('one 1');
    expect(uppyText(locale, 'youCanOnlyUploadX', { smart_count: 3 })).toBe('few 3');
    expect(uppyText(locale, 'youCanOnlyUploadX', { smart_count: 5 })).toBe('many 5');
    expect(uppyText(locale, 'youCanOnlyUploadX', { smart_count: 21 })).toBe('one 21');
    // Missing Russian texts fall back to English.
    expect(uppyText(locale, 'exceedsSize', { file: 'a.png', size: '10 MB' })).toBe('a.png exceeds maximum allowed size of 10 MB');
  });
});
