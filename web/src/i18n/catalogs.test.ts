import { LANGUAGES, type LanguageCode } from './languages';
import de from './locales/de.json';
import en from './locales/en.json';
import es from './locales/es.json';
import fr from './locales/fr.json';
import hi from './locales/hi.json';
import ko from './locales/ko.json';
import pt from './locales/pt.json';
import ru from './locales/ru.json';
import zh from './locales/zh.json';

/**
 * The content of every translated catalog, checked against English (the source of truth): same
 * keys, the same placeholders and Trans tags, nothing empty, nothing left as an English copy.
 * i18n.test.ts checks that each catalog loads through its lazy loader; this file checks what is in it.
 */

type Translated = Exclude<LanguageCode, 'en'>;

const CATALOGS: Record<Translated, unknown> = { es, fr, de, ru, hi, zh, ko, pt };
const CODES = Object.keys(CATALOGS) as Translated[];

/**
 * Keys whose translation may be the very same text as the English, in any language. Everything
 * else must differ from English, unless it has no letters at all ("9", "{{used}} / {{limit}}").
 * Keep this short: an entry here also hides a string someone forgot to translate.
 */
const SAME_IN_EVERY_LANGUAGE: Readonly<Record<string, string>> = {
  'landing.features.items.selfAi.title': 'product feature name "Self AI"',
  'selfAi.title': 'product feature name "Self AI"',
  'plans.pro.name': 'plan name "Pro"',
  'landing.vip.plans.basic.name': 'plan name',
  'landing.vip.plans.premium.name': 'plan name',
  'landing.girlfriendChat.sampleName': 'the sample character\'s name, "Luna"',
  'operator.events.version': 'an event version, "v2"',
  'images.settings.quality.HD': 'the quality name "HD"',
  'characters.card.formats.json_v2': 'a file format name, "JSON V2"',
  'characters.card.formats.json_v3': 'a file format name, "JSON V3"',
};

/** Keys whose English word is also the usual word in that language. */
const SAME_IN_LANGUAGE: Readonly<Partial<Record<Translated, Readonly<Record<string, string>>>>> = {
  es: {
    'nav.chat': '"Chat" is the Spanish word too',
    'toasts.createConversationFailed.title': '"Error" is the Spanish word too',
    'toasts.sendMessageFailed.title': '"Error" is the Spanish word too',
    'dashboard.balance': '"tokens" is the Spanish word too',
    'plans.usage.balanceValue': '"tokens" is the Spanish word too',
    'plans.usage.allowanceValue': '"tokens" is the Spanish word too',
    'images.balance.unit_one': '"token" is the Spanish word too',
    'images.balance.unit_other': '"tokens" is the Spanish word too',
    'chat.header.tokenUnit_one': '"token" is the Spanish word too',
    'chat.header.tokenUnit_other': '"tokens" is the Spanish word too',
    'legal.tos.sections.service.blocks.h2': '"Tokens" is the Spanish word too',
  },
  fr: {
    'nav.chat': '"Chat" is the usual French word for a chat feature',
    'landing.countdown.minutes': '"Minutes" is the French word too',
    'chat.message.version': '"Version" is the French word too',
  },
  de: {
    'nav.chat': '"Chat" is the German word too',
    'nav.online': '"Online" is the German word too',
    'landing.girlfriendChat.sampleStatus': '"Online" is the German word too',
    'footer.communityHeading': '"Community" is the usual German word',
    'characters.form.name': '"Name" is the German word too',
    'images.advanced.seed': '"Seed" is the usual term in German image generators',
    'images.details.seed': '"Seed" is the usual term in German image generators',
    'images.advanced.sampler': '"Sampler" is the usual term in German image generators',
    'images.details.sampler': '"Sampler" is the usual term in German image generators',
    'images.details.likes': '"Likes" is the word the German catalog uses',
    'chat.layout.chat': '"Chat" is the German word too',
    'chat.header.online': '"Online" is the German word too',
    'chat.message.version': '"Version" is the German word too',
  },
  pt: {
    'nav.chat': '"Chat" is the usual Brazilian Portuguese word',
    'nav.online': '"Online" is the Brazilian Portuguese word too',
    'landing.girlfriendChat.sampleStatus': '"Online" is the Brazilian Portuguese word too',
    'dashboard.balance': '"tokens" is the Brazilian Portuguese word too',
    'plans.usage.balanceValue': '"tokens" is the Brazilian Portuguese word too',
    'plans.usage.allowanceValue': '"tokens" is the Brazilian Portuguese word too',
    'images.balance.unit_one': '"token" is the Brazilian Portuguese word too',
    'images.balance.unit_other': '"tokens" is the Brazilian Portuguese word too',
    'images.settings.style.NATURAL': '"natural" is the Portuguese word too',
    'chat.layout.chat': '"Chat" is the usual Brazilian Portuguese word',
    'chat.header.online': '"Online" is the Brazilian Portuguese word too',
    'chat.header.tokenUnit_one': '"token" is the Brazilian Portuguese word too',
    'chat.header.tokenUnit_other': '"tokens" is the Brazilian Portuguese word too',
    'legal.tos.sections.service.blocks.h2': '"Tokens" is the Brazilian Portuguese word too',
  },
};

/** Every leaf of a nested catalog under its dotted key; leaves are whatever is there (strings, if well formed). */
function flatten(tree: unknown, prefix = ''): Map<string, unknown> {
  const leaves = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree as Record<string, unknown>)) {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [subKey, leaf] of flatten(value, `${prefix}${key}.`)) leaves.set(subKey, leaf);
    } else {
      leaves.set(`${prefix}${key}`, value);
    }
  }
  return leaves;
}

// i18next's {{name}}, and Uppy's %{name} in the strings handed to the upload dialog.
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}|%\{(\w+)\}/g;
// Trans component tags: <anchor>, </anchor>, <1>, <br/>.
const TAG = /<(\/?)([A-Za-z0-9][\w.-]*)\s*(\/?)>/g;

function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((match) => (match[1] ?? match[2])!))].sort();
}

function tags(text: string): string[] {
  return [...text.matchAll(TAG)].map((match) => `<${match[1]}${match[2]}${match[3]}>`).sort();
}

/** Whether there are words to translate once placeholders and tags are taken out. */
function hasLetters(text: string): boolean {
  return /\p{L}/u.test(text.replace(PLACEHOLDER, '').replace(TAG, ''));
}

function mayEqualEnglish(code: Translated, key: string): boolean {
  return key in SAME_IN_EVERY_LANGUAGE || key in (SAME_IN_LANGUAGE[code] ?? {});
}

const ENGLISH = flatten(en) as Map<string, string>;
const ENGLISH_KEYS = [...ENGLISH.keys()].sort();
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/**
 * The keys a language's catalog must have: English's, except that a plural (`count_one`, `count_other`)
 * takes the forms that language's plural rules use, as i18next picks them (Russian few and many, Chinese other only).
 */
function expectedKeys(code: Translated): string[] {
  const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
  const keys = new Set<string>();
  for (const key of ENGLISH_KEYS) {
    if (!PLURAL_SUFFIX.test(key)) keys.add(key);
    else for (const category of categories) keys.add(key.replace(PLURAL_SUFFIX, `_${category}`));
  }
  return [...keys].sort();
}

/** The English text a key translates: a plural form's is English's `_other`, or `_one` for a form English has too. */
const englishOf = (key: string): string | undefined => ENGLISH.get(key) ?? ENGLISH.get(key.replace(PLURAL_SUFFIX, '_other'));

describe('the translation test setup', () => {
  it('checks every offered language except English', () => {
    expect([...CODES].sort()).toEqual(
      LANGUAGES.map((language) => language.code)
        .filter((code) => code !== 'en')
        .sort(),
    );
  });

  it('allows only English keys that have words, so the allow-list cannot go stale unnoticed', () => {
    const listed = [...Object.keys(SAME_IN_EVERY_LANGUAGE), ...Object.values(SAME_IN_LANGUAGE).flatMap((keys) => Object.keys(keys))];
    expect(listed.filter((key) => !hasLetters(ENGLISH.get(key) ?? ''))).toEqual([]);
  });
});

describe.each(CODES)('%s catalog', (code) => {
  const catalog = flatten(CATALOGS[code]);
  const strings = [...catalog].filter((entry): entry is [string, string] => typeof entry[1] === 'string');

  it("has exactly the English keys, with the plural forms of the language's own rules", () => {
    const expected = expectedKeys(code);
    const keys = [...catalog.keys()];
    expect({
      missing: expected.filter((key) => !catalog.has(key)),
      extra: keys.filter((key) => !expected.includes(key)).sort(),
    }).toEqual({ missing: [], extra: [] });
  });

  it('has a string for every key, none of them empty', () => {
    expect({
      notText: [...catalog].filter(([, value]) => typeof value !== 'string').map(([key]) => key),
      empty: strings.filter(([, value]) => value.trim() === '').map(([key]) => key),
    }).toEqual({ notText: [], empty: [] });
  });

  it('keeps every {{placeholder}} of the English text', () => {
    const wrong = strings
      .filter(([key]) => englishOf(key) !== undefined)
      .flatMap(([key, value]) => {
        const expected = placeholders(englishOf(key)!);
        const actual = placeholders(value);
        const missing = expected.filter((name) => !actual.includes(name));
        const unknown = actual.filter((name) => !expected.includes(name));
        return missing.length > 0 || unknown.length > 0 ? [{ key, missing, unknown }] : [];
      });
    expect(wrong).toEqual([]);
  });

  it('keeps every Trans tag of the English text, opened and closed as often', () => {
    const wrong = strings
      .filter(([key]) => englishOf(key) !== undefined)
      .flatMap(([key, value]) => {
        const expected = tags(englishOf(key)!);
        const actual = tags(value);
        return actual.join() === expected.join() ? [] : [{ key, expected, actual }];
      });
    expect(wrong).toEqual([]);
  });

  it('has no English text left untranslated', () => {
    const untranslated = strings
      .filter(([key, value]) => value === ENGLISH.get(key) && hasLetters(value) && !mayEqualEnglish(code, key))
      .map(([key, value]) => `${key}: ${value}`);
    expect(untranslated).toEqual([]);
  });
});

/** A speaker's name and colon are the Character Card dialogue format, which programs read: `{{user}}: Hello`. */
const SPEAKER_PREFIX = /\{\{\w+\}\}:/g;

describe('fr catalog typography', () => {
  it('puts a non-breaking space before ? ! : and ;', () => {
    const loose = [...flatten(fr)]
      .filter(([, value]) => typeof value === 'string' && /(^|[^\u00a0\u202f])[?!:;]/.test(value.replace(SPEAKER_PREFIX, '')))
      .map(([key]) => key);
    expect(loose).toEqual([]);
  });
});
