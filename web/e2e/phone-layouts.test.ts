import type { Page } from 'playwright-core';
import { LANGUAGES, LANGUAGE_STORAGE_KEY, type LanguageCode } from '../src/i18n/languages';
import { hasChromium } from './browser';
import { memberBrowser } from './member-browser';

jest.setTimeout(600_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** Every language at the common phone width; the narrowest and a wide phone for the languages with the longest words. */
const WIDE_CHECK_LANGUAGES: readonly LanguageCode[] = ['en', 'fr', 'de', 'ru'];
const widthsFor = (code: LanguageCode): number[] => (WIDE_CHECK_LANGUAGES.includes(code) ? [360, 320, 414] : [360]);

const VISITOR_SCREENS: Record<string, string> = {
  landing: '/',
  'sign-in': '/signin',
  'sign-up': '/signup',
  terms: '/tos',
  privacy: '/privacy',
  takedown: '/takedown',
  relaunch: '/relaunch',
  developers: '/developers',
  'not found (member path)': '/gallery',
};

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
  terms: '/tos',
  privacy: '/privacy',
  takedown: '/takedown',
  relaunch: '/relaunch',
  'not found': '/no-such-page',
};

/** Switches language the way the app remembers it (the `language` key), then reloads so it starts in it. */
async function switchLanguage(page: Page, code: LanguageCode) {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [LANGUAGE_STORAGE_KEY, code] as const);
  await page.reload();
  await page.waitForFunction((lang) => document.documentElement.lang === lang, code);
}

/** Client-side navigation (no reload), then wait for the screen's chunks and data: no page spinner left, a heading or form shown. */
async function openScreen(page: Page, path: string) {
  await page.evaluate(async (to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
    // Two frames: React has committed the new route (or its spinner) before anything is measured.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }, path);
  await page
    .waitForFunction(
      () =>
        !document.querySelector('[role="status"] .chakra-spinner, [data-testid="auth-loading"]') &&
        !!document.querySelector('h1, h2, form'),
      undefined,
      { timeout: 10_000 },
    )
    // A screen that never settles is still measured: its overflow is what a member would see.
    .catch(() => undefined);
  await page.waitForTimeout(150);
}

/** The page's horizontal overflow at the current width, naming the widest elements that stick out (null when it fits). */
async function overflow(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth <= width) return null;
    const culprits = Array.from(document.body.querySelectorAll<HTMLElement>('*'))
      .filter((element) => element.getBoundingClientRect().right > width + 0.5 && element.checkVisibility())
      .filter((element) => !Array.from(element.children).some((child) => child.getBoundingClientRect().right > width + 0.5))
      .slice(0, 3)
      .map((element) => `<${element.tagName.toLowerCase()}> "${(element.textContent ?? '').trim().slice(0, 40)}"`);
    return `scrollWidth ${scrollWidth}: ${culprits.join(', ')}`;
  });
}

/** Visits each screen in each language and width; returns "screen · language · width: what overflows" for each failure. */
async function findOverflows(page: Page, screens: Record<string, string>): Promise<string[]> {
  const failures: string[] = [];
  for (const { code } of LANGUAGES) {
    await page.setViewportSize({ width: 360, height: 780 });
    await switchLanguage(page, code);
    for (const [screen, path] of Object.entries(screens)) {
      await openScreen(page, path);
      for (const width of widthsFor(code)) {
        await page.setViewportSize({ width, height: 780 });
        const problem = await overflow(page);
        if (problem) failures.push(`${screen} (${path}) · ${code} · ${width} px: ${problem}`);
      }
      await page.setViewportSize({ width: 360, height: 780 });
    }
  }
  return failures;
}

describeWithBrowser('phone layouts in every language', () => {
  const app = memberBrowser();

  it('fits every public screen into 320–414 px without scrolling sideways', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 780 } });
    await page.goto(app.url);
    expect(await findOverflows(page, VISITOR_SCREENS)).toEqual([]);
  });

  it('fits every member screen into 320–414 px without scrolling sideways', async () => {
    const page = await app.newPage({ viewport: { width: 360, height: 780 } });
    await page.goto(app.url);
    await switchLanguage(page, 'en');
    await app.signUp(page, 'Mira');
    expect(await findOverflows(page, MEMBER_SCREENS)).toEqual([]);
  });
});
