import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LANGUAGE_STORAGE_KEY, type LanguageCode } from '../src/i18n/languages';
import { hasChromium } from './browser';
import { memberBrowser } from './member-browser';

jest.setTimeout(300_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** A Latin, a Devanagari and a Han script language: English left anywhere stands out in each. */
const CHECKED_LANGUAGES: readonly LanguageCode[] = ['de', 'hi', 'zh'];

const MEMBER_SCREENS: Record<string, string> = {
  dashboard: '/',
  chat: '/chat',
  characters: '/characters',
  generator: '/generator',
  gallery: '/gallery',
  stories: '/stories',
  profile: '/profile',
  plans: '/subscribe',
  'self-ai': '/my-self-ai',
  developers: '/developers',
  tokens: '/settings/tokens',
  takedown: '/takedown',
  terms: '/tos',
  privacy: '/privacy',
  'not found': '/no-such-page',
};

type Catalog = Record<string, unknown>;

function readCatalog(code: LanguageCode): Catalog {
  return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'src', 'i18n', 'locales', `${code}.json`), 'utf8')) as Catalog;
}

function flatten(tree: Catalog, prefix = ''): Map<string, string> {
  const leaves = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (value !== null && typeof value === 'object') {
      for (const [subKey, leaf] of flatten(value as Catalog, `${prefix}${key}.`)) leaves.set(subKey, leaf);
    } else if (typeof value === 'string') {
      leaves.set(`${prefix}${key}`, value);
    }
  }
  return leaves;
}

const PLACEHOLDER = /\{\{\s*[^{}]*?\s*\}\}/g;
const TAG = /<\/?[A-Za-z0-9][\w.-]*\s*\/?>/g;
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An English catalog string as it shows on screen: Trans tags dropped, each {{placeholder}} matching any text. */
interface EnglishLabel {
  key: string;
  /** No translation at all (the app falls back to English), rather than one that happens to read as another key's English. */
  isMissing: boolean;
  text: string;
  matches: (shown: string) => boolean;
}

/**
 * The English strings that must not appear in `code`: those whose translation differs from English or is missing (the
 * app then falls back to English). A string the language keeps as in English (allow-listed in catalogs.test.ts, such as
 * "Chat" in German) is the language's own word and is never counted, under any key.
 */
function englishLabels(code: LanguageCode): EnglishLabel[] {
  const english = flatten(readCatalog('en'));
  const translated = flatten(readCatalog(code));
  const ownWords = new Set([...translated.values()].map((text) => normalize(text.replace(TAG, ''))));
  const labels: EnglishLabel[] = [];
  for (const [key, value] of english) {
    const text = normalize(value.replace(TAG, ''));
    // Plural forms are checked through `_other` / `_one` as English has them; the language's own forms differ by key.
    const translation = translated.get(key) ?? (PLURAL_SUFFIX.test(key) ? translated.get(key.replace(PLURAL_SUFFIX, '_other')) : undefined);
    if (translation === value || ownWords.has(text)) continue;
    const words = text.replace(PLACEHOLDER, '');
    // Only strings with a word of at least three letters: "OK", "%" or "{{count}}" say nothing about the language.
    if (!/\p{L}{3,}/u.test(words)) continue;
    if (text.includes('{{')) {
      const pattern = new RegExp(`^${text.split(PLACEHOLDER).map(escapeRegExp).join('.{1,60}?')}$`, 'su');
      labels.push({ key, isMissing: translation === undefined, text, matches: (shown) => pattern.test(shown) });
    } else {
      labels.push({ key, isMissing: translation === undefined, text, matches: (shown) => shown === text });
    }
  }
  // A text several keys share is reported under an untranslated one: that is the string a translator must add.
  return labels.sort((a, b) => Number(b.isMissing) - Number(a.isMissing));
}

/** What a member reads or hears on the page: visible text (per text node and per short element) and labels in attributes. */
async function visibleStrings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = new Set<string>();
    const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && !['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(parent.tagName) && parent.checkVisibility()) {
        shown.add(normalize(node.textContent ?? ''));
      }
    }
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      // Sentences split by links or emphasis (Trans): the element's whole text, when it is one line (a label, not a block of them).
      const text = (element.innerText ?? '').trim();
      if (element.children.length > 0 && !text.includes('\n') && text.length <= 300 && element.checkVisibility())
        shown.add(normalize(text));
      for (const attribute of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = element.getAttribute(attribute);
        if (value) shown.add(normalize(value));
      }
    }
    shown.delete('');
    return [...shown];
  });
}

async function switchLanguage(page: Page, code: LanguageCode) {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, code] as const);
  await page.reload();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, code);
}

async function openScreen(page: Page, to: string) {
  await page.evaluate(async (pathname) => {
    window.history.pushState({}, '', pathname);
    window.dispatchEvent(new PopStateEvent('popstate'));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, to);
  await page
    .waitForFunction(
      () =>
        !document.querySelector('[role="status"] .chakra-spinner, [data-testid="auth-loading"]') &&
        !!document.querySelector('h1, h2, form'),
      undefined,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  await page.waitForTimeout(300);
}

describeWithBrowser('member screens in German, Hindi and Chinese', () => {
  const app = memberBrowser();

  it('show no English interface text', async () => {
    const page = await app.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(app.url);
    await app.signUp(page, 'Mira');
    const found: string[] = [];
    for (const code of CHECKED_LANGUAGES) {
      const labels = englishLabels(code);
      await switchLanguage(page, code);
      for (const [screen, to] of Object.entries(MEMBER_SCREENS)) {
        await openScreen(page, to);
        for (const shown of await visibleStrings(page)) {
          const label = labels.find((candidate) => candidate.matches(shown));
          if (label) found.push(`${code} · ${screen}: "${shown}" (${label.key})`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});
