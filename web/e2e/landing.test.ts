import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(90_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

const CONFIG = {
  MAIN_SITE_URL: 'https://main-site.example/',
  SOCIAL_MICROBLOG_URL: 'https://microblog.example/velvet',
  SOCIAL_COMMUNITY_URL: 'https://community-chat.example/invite/velvet',
  SUPPORT_EMAIL: 'help@velvet.example',
};

/** The landing sections in the spec's order (spec §2), by their ids. */
const SECTION_IDS = [
  'about', // hero
  'features',
  'coming-soon',
  'countdown',
  'gallery',
  'self-ai',
  'pricing', // VIP groups
  'text-to-video',
  'ai-story-games',
  'ai-girlfriend-chat',
];

/** A catalog other than English is its own chunk, e.g. assets/de-<hash>.js. */
const CATALOG_CHUNK = /\/assets\/(es|fr|de|ru|hi|zh|ko|pt)-[\w-]+\.js$/;

/** axe-core, when it is installed (it arrives with the Lighthouse tooling). */
function readAxeSource(): string | null {
  try {
    return fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  } catch {
    return null;
  }
}

describeWithBrowser('landing page in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const launchDate = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', LAUNCH_DATE: launchDate.toISOString(), ...CONFIG },
    });
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  async function openPage(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', ...options });
    contexts.push(context);
    return context.newPage();
  }

  async function openLanding(options: BrowserContextOptions = {}): Promise<Page> {
    const page = await openPage(options);
    await page.goto(`${platform.url}/`);
    await page.locator('#gallery').waitFor();
    return page;
  }

  it('shows every section in the spec order, between the navigation and the footer', async () => {
    const page = await openLanding();
    const layout = await page.evaluate(() => {
      const main = document.querySelector('main');
      const footer = document.querySelector('footer');
      const header = document.querySelector('header');
      return {
        sections: Array.from(main?.querySelectorAll(':scope > section') ?? [], (section) => section.id),
        headerBeforeMain: Boolean(header && main && header.compareDocumentPosition(main) & Node.DOCUMENT_POSITION_FOLLOWING),
        footerAfterMain: Boolean(footer && main && main.compareDocumentPosition(footer) & Node.DOCUMENT_POSITION_FOLLOWING),
        h1Count: document.querySelectorAll('h1').length,
      };
    });
    expect(layout).toEqual({ sections: SECTION_IDS, headerBeforeMain: true, footerAfterMain: true, h1Count: 1 });

    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const [name, href] of [
      ['Features', '#features'],
      ['Gallery', '#gallery'],
      ['Pricing', '#pricing'],
      ['About', '#about'],
    ]) {
      await expect(nav.getByRole('link', { name }).getAttribute('href')).resolves.toBe(href);
    }
    await expect(page.getByRole('link', { name: 'Log in', exact: true }).getAttribute('href')).resolves.toBe('/signin');
    await expect(page.getByRole('link', { name: 'Get started', exact: true }).getAttribute('href')).resolves.toBe('/signup');

    await page.getByText('More than 50,000 active users').waitFor();
    expect(await page.getByTestId('feature-card').count()).toBe(6);
    expect(await page.getByTestId('coming-soon-item').count()).toBe(6);
    expect(await page.getByTestId('video-feature').count()).toBe(6);
    expect(await page.getByTestId('showcase-card').count()).toBe(8);
    for (const text of [
      'Multi-character scenes',
      'Dynamic camera movements',
      'Voice synthesis',
      'Real-time editing',
      'Multiple formats',
      'Private cloud storage',
    ]) {
      await page.locator('#text-to-video').getByText(text, { exact: true }).waitFor();
    }
    const pricing = page.locator('#pricing');
    await pricing.getByText('VIP Basic', { exact: true }).waitFor();
    await pricing.getByText('$9.99', { exact: true }).waitFor();
    await pricing.getByText('VIP Premium', { exact: true }).waitFor();
    await pricing.getByText('$19.99', { exact: true }).waitFor();
    await page.locator('#self-ai').getByText('Coming Soon').waitFor();
    await page.locator('#self-ai').getByText('Upload 1 to 5 photos').waitFor();
    await expect(page.getByTestId('gallery-view-all').getAttribute('href')).resolves.toBe('/signup');

    // Anchor links scroll to their section.
    await nav.getByRole('link', { name: 'Pricing' }).click();
    await page.waitForFunction(() => location.hash === '#pricing');
    await page.waitForFunction(() => Math.abs(document.getElementById('pricing')!.getBoundingClientRect().top) < 200);
  });

  it('opens the main site from the hero in a new tab', async () => {
    const page = await openLanding();
    const button = page.getByRole('link', { name: /Visit our main site/ });
    await expect(button.getAttribute('href')).resolves.toBe(CONFIG.MAIN_SITE_URL);
    await expect(button.getAttribute('target')).resolves.toBe('_blank');
    await expect(button.getAttribute('rel')).resolves.toBe('noopener noreferrer');
    await expect(page.getByTestId('hero-community-link').getAttribute('href')).resolves.toBe(CONFIG.SOCIAL_COMMUNITY_URL);
  });

  it('switches to Deutsch, loading its catalog on demand, and keeps it after a reload', async () => {
    const page = await openPage();
    const catalogRequests: string[] = [];
    page.on('request', (request) => {
      if (CATALOG_CHUNK.test(request.url())) catalogRequests.push(request.url());
    });
    await page.goto(`${platform.url}/`);
    await page.locator('#gallery').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    expect(catalogRequests).toEqual([]);

    const picker = page.getByRole('button', { name: 'Language' });
    await expect(picker.textContent()).resolves.toContain('English');
    await picker.click();
    // The menu's code arrives with the first click (it is not part of the first paint).
    await page.getByRole('menuitemradio').first().waitFor();
    const options = await page
      .getByRole('menuitemradio')
      .evaluateAll((items) => items.map((item) => [item.getAttribute('data-testid')?.replace('language-option-', ''), item.textContent]));
    expect(options).toEqual([
      ['en', '🇬🇧English'],
      ['es', '🇪🇸Español'],
      ['fr', '🇫🇷Français'],
      ['de', '🇩🇪Deutsch'],
      ['ru', '🇷🇺Русский'],
      ['hi', '🇮🇳हिन्दी'],
      ['zh', '🇨🇳中文'],
      ['ko', '🇰🇷한국어'],
      ['pt', '🇵🇹Português'],
    ]);
    await expect(page.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).resolves.toBe('true');
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'de');
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('de');
    expect(catalogRequests).toEqual([expect.stringMatching(/\/assets\/de-/)]);

    await page.reload();
    await page.locator('#gallery').waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, localStorage.getItem('language')])).toEqual(['de', 'de']);
    await page.getByTestId('language-picker').click();
    await expect(page.getByRole('menuitemradio', { name: 'Deutsch' }).getAttribute('aria-checked')).resolves.toBe('true');

    // Back to English: nothing left over from German.
    await page.getByRole('menuitemradio', { name: 'English' }).click();
    await page.waitForFunction(() => document.documentElement.lang === 'en' && localStorage.getItem('language') === 'en');
  });

  it("starts in the browser's language when nothing is saved", async () => {
    const page = await openLanding({ locale: 'fr-FR' });
    await page.waitForFunction(() => document.documentElement.lang === 'fr');
    // Detection is not a choice: nothing is saved until the visitor picks a language.
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBeNull();

    const english = await openLanding({ locale: 'it-IT' });
    expect(await english.evaluate(() => document.documentElement.lang)).toBe('en');
  });

  it('counts down to the launch date every second', async () => {
    const page = await openLanding();
    const days = Number(await page.getByTestId('countdown-days').textContent());
    expect([2, 3]).toContain(days);
    for (const unit of ['hours', 'minutes', 'seconds']) {
      expect(await page.getByTestId(`countdown-${unit}`).textContent()).toMatch(/^\d{2}$/);
    }
    const before = await page.getByTestId('countdown-seconds').textContent();
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="countdown-seconds"]')?.textContent !== previous,
      before,
      { timeout: 2500 },
    );
    expect(await page.getByTestId('countdown-launched').count()).toBe(0);
  });

  it('shows the launched state once the launch date has passed', async () => {
    const page = await openPage();
    await page.route('**/app-config.js', (route) =>
      route.fulfill({
        contentType: 'application/javascript',
        body: `window.__APP_CONFIG__ = ${JSON.stringify({ brandName: 'Velvet AI', launchDate: '2025-10-01T00:00:00Z' })};`,
      }),
    );
    await page.goto(`${platform.url}/`);
    await page.getByTestId('countdown-launched').waitFor();
    expect(await page.getByTestId('countdown-launched').textContent()).toBe("We're live!");
    expect(await page.getByTestId('countdown-seconds').count()).toBe(0);
  });

  it('opens and closes the mobile menu with the same links plus Gallery', async () => {
    const page = await openLanding({ viewport: { width: 390, height: 844 } });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    expect(await page.getByRole('link', { name: 'Gallery' }).isVisible()).toBe(false);

    // Keyboard: focus the button and press Enter.
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByTestId('landing-mobile-menu');
    await menu.waitFor();
    const closeButton = page.getByRole('button', { name: 'Close menu' });
    await expect(closeButton.getAttribute('aria-expanded')).resolves.toBe('true');
    for (const name of ['Features', 'Gallery', 'Pricing', 'About', 'Log in', 'Get started']) {
      expect(await menu.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    }

    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    await expect(page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).resolves.toBe('false');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open menu');

    // A link click closes it too.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Gallery' }).click();
    await menu.waitFor({ state: 'detached' });
    await page.waitForFunction(() => location.hash === '#gallery');
  });

  it('hides a showcase image that fails to load and keeps the others', async () => {
    const page = await openPage();
    await page.route('**/showcase/aurora-lake.svg', (route) => route.abort());
    await page.goto(`${platform.url}/`);
    const images = page.getByTestId('showcase-image');
    await images.first().waitFor({ state: 'attached' });
    expect(await images.count()).toBe(8);
    // Lazy images load once near the viewport.
    const cards = page.getByTestId('showcase-card');
    for (let index = 0; index < 8; index += 1) await cards.nth(index).scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const all = Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="showcase-image"]'));
      return (
        all.filter((image) => image.hidden).length === 1 && all.filter((image) => image.complete && image.naturalWidth > 0).length === 7
      );
    });
    const failed = page.locator('[data-testid="showcase-image"][src$="aurora-lake.svg"]');
    expect(await failed.isHidden()).toBe(true);
    for (let index = 0; index < 8; index += 1) {
      const image = images.nth(index);
      if ((await image.getAttribute('src'))?.endsWith('aurora-lake.svg')) continue;
      expect(await image.isVisible()).toBe(true);
      expect(await image.getAttribute('loading')).toBe('lazy');
      expect(await image.getAttribute('alt')).toBeTruthy();
      expect(await image.getAttribute('width')).toBe('480');
      expect(await image.getAttribute('height')).toBe('600');
    }
    // The card itself stays, with its title.
    await page.getByTestId('showcase-card').filter({ hasText: 'Aurora Lake' }).waitFor();
  });

  it('has a footer with social links, a disabled forum tile, support e-mail, legal links, the 18+ notice and copyright', async () => {
    const page = await openLanding();
    const footer = page.getByRole('contentinfo');
    for (const [testId, href] of [
      ['social-microblog', CONFIG.SOCIAL_MICROBLOG_URL],
      ['social-community', CONFIG.SOCIAL_COMMUNITY_URL],
    ]) {
      const link = footer.getByTestId(testId);
      await expect(link.getAttribute('href')).resolves.toBe(href);
      await expect(link.getAttribute('target')).resolves.toBe('_blank');
      await expect(link.getAttribute('rel')).resolves.toContain('noopener');
    }
    const forum = footer.getByTestId('forum-tile');
    expect(await forum.evaluate((element) => [element.tagName, element.getAttribute('aria-disabled'), element.closest('a')])).toEqual([
      'DIV',
      'true',
      null,
    ]);
    await forum.getByText('Coming Soon').waitFor();
    await expect(footer.getByTestId('support-email').getAttribute('href')).resolves.toBe(`mailto:${CONFIG.SUPPORT_EMAIL}`);
    await footer.getByText('18+ only').waitFor();
    expect(await footer.getByTestId('copyright').textContent()).toBe('© 2025 Velvet AI. All rights reserved.');

    await footer.getByRole('link', { name: 'Terms of Service' }).click();
    await page.waitForURL(`${platform.url}/tos`);
    await page.getByRole('heading', { name: 'Terms of Service', level: 1 }).waitFor();
    await page.goBack();
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL(`${platform.url}/privacy`);
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    // The slim footer of the other public pages keeps the legal links.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).waitFor();
  });

  it('copies the support address and alerts it when no mail client opens', async () => {
    const page = await openLanding();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: platform.url });
    const dialog = page.waitForEvent('dialog', { timeout: 5000 });
    await page.getByTestId('support-email').click();
    const alert = await dialog;
    expect(alert.type()).toBe('alert');
    expect(alert.message()).toContain(CONFIG.SUPPORT_EMAIL);
    await alert.accept();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CONFIG.SUPPORT_EMAIL);
  });

  it('records interest when a VIP Subscribe or a feature button is clicked', async () => {
    const page = await openLanding();
    const vipRequest = page.waitForRequest((request) => request.url().endsWith('/api/interest') && request.method() === 'POST');
    await page.getByRole('button', { name: 'Subscribe to VIP Premium' }).click();
    const vip = await vipRequest;
    expect(vip.postDataJSON()).toEqual({ kind: 'vip_subscribe', label: 'vip-premium' });
    expect(vip.headers()['content-type']).toBe('application/json');
    await page.getByText("Thanks! We'll let you know.").waitFor();

    const featureRequest = page.waitForRequest((request) => request.url().endsWith('/api/interest') && request.method() === 'POST');
    await page.getByRole('button', { name: "I'm interested in Self AI" }).click();
    expect((await featureRequest).postDataJSON()).toEqual({ kind: 'feature', label: 'self-ai' });
  });

  const axeSource = readAxeSource();
  (axeSource ? it : it.skip)('has no serious or critical accessibility violations (axe-core)', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const page = await openLanding({ viewport });
      await page.evaluate(axeSource!);
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: {
              run: (
                context: Document,
                options: object,
              ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
            };
          }
        ).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations
          .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
          .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
      });
      expect(violations).toEqual([]);
    }
  });
});

describeWithBrowser('the pre-rendered landing (default settings) in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  async function openContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'en-US', ...options });
    contexts.push(context);
    return context;
  }

  /** A page on which the app's own code never runs: what the visitor sees before it has arrived. */
  async function openWithoutApp(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    await page.route(/\/assets\/(?!language-gate-)[\w-]+\.js$/, (route) => route.abort());
    await page.goto(`${platform.url}/`);
    return page;
  }

  it('paints every section from the HTML alone, before any of the app’s JavaScript has run', async () => {
    const page = await openWithoutApp(await openContext());
    await expect(page.getByRole('heading', { level: 1 }).isVisible()).resolves.toBe(true);
    const sections = await page.evaluate(() => Array.from(document.querySelectorAll('main > section'), (section) => section.id));
    expect(sections).toEqual(SECTION_IDS);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Get started' }).getAttribute('href')).resolves.toBe('/signup');
    await expect(page.getByTestId('adult-notice').isVisible()).resolves.toBe(true);
  });

  it('is replaced by the app’s landing without moving anything', async () => {
    const context = await openContext();
    await context.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { layoutShifts: shifts });
      new PerformanceObserver((list) =>
        list.getEntries().forEach((entry) => shifts.push((entry as unknown as { value: number }).value)),
      ).observe({
        type: 'layout-shift',
        buffered: true,
      });
    });
    const page = await context.newPage();
    await page.goto(`${platform.url}/`);
    await page.waitForFunction(() => !document.getElementById('static-landing'));
    await page.locator('#root #gallery').waitFor();
    expect(await page.locator('h1').count()).toBe(1);
    expect(
      await page.evaluate(() => (window as unknown as { layoutShifts: number[] }).layoutShifts.reduce((sum, value) => sum + value, 0)),
    ).toBeLessThan(0.01);
    // The app's landing works: its language menu opens.
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).waitFor();
  });

  it('keeps the keyboard focus where the visitor had tabbed to when the app takes over', async () => {
    const page = await (await openContext()).newPage();
    let releaseLanding = () => {};
    const held = new Promise<void>((resolve) => (releaseLanding = resolve));
    await page.route(/\/assets\/landing-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${platform.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).focus();
    releaseLanding();
    await page.waitForFunction(() => !document.getElementById('static-landing'));
    const focused = await page.evaluate(() => ({
      text: document.activeElement?.textContent,
      inApp: Boolean(document.activeElement?.closest('#root')),
    }));
    expect(focused).toEqual({ text: 'Pricing', inApp: true });
  });

  it('loads React, the translations and the landing alone: no UI kit, router or app code before the visitor asks for them', async () => {
    const page = await (await openContext()).newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${platform.url}/`, { waitUntil: 'networkidle' });
    await page.locator('#root #gallery').waitFor();
    const chunkNames = scripts.map((script) => script.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, ''));
    expect(chunkNames).toEqual(expect.arrayContaining(['react', 'i18n', 'landing']));
    expect(chunkNames.filter((name) => ['ui', 'router', 'app', 'apollo', 'menu', 'toast-region'].includes(name))).toEqual([]);

    // The language menu brings the UI kit when the visitor reaches for it, and works.
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'Deine Fantasie' }).waitFor();
  });

  it('starts the app on the page a link leads to, without loading the page again, and comes back with Back', async () => {
    const page = await (await openContext()).newPage();
    await page.goto(`${platform.url}/`);
    await page.locator('#root #gallery').waitFor();
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('banner').getByRole('link', { name: 'Get started' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    await expect(page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).resolves.toBe(true);

    await page.goBack();
    await page.locator('#root #gallery').waitFor();
    await expect(page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).resolves.toBe(true);
    // Now inside the app: its links go through the router, also without a reload.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    await expect(page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).resolves.toBe(true);
  });

  it('keeps the landing when the language menu cannot load, and loads it on the next press', async () => {
    const page = await (await openContext()).newPage();
    let islandBlocked = true;
    await page.route(/\/assets\/language-menu-island-[\w-]+\.js$/, (route) => (islandBlocked ? route.abort() : route.continue()));
    await page.goto(`${platform.url}/`);
    await page.locator('#root #gallery').waitFor();
    const picker = page.getByRole('button', { name: 'Language' });
    await picker.focus();
    await page.keyboard.press('Enter');
    await page.waitForTimeout(500);
    await expect(page.locator('#root #gallery').isVisible()).resolves.toBe(true);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe('language-picker');

    islandBlocked = false;
    await page.keyboard.press('Enter');
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).waitFor();
  });

  it('answers the brand link on the landing by going to the top, without starting the app', async () => {
    const page = await (await openContext()).newPage();
    const scripts: string[] = [];
    page.on('request', (request) => void (request.resourceType() === 'script' && scripts.push(request.url())));
    await page.goto(`${platform.url}/`);
    await page.locator('#root #gallery').waitFor();
    await page.evaluate(() => window.scrollTo(0, 2000));
    const historyLength = await page.evaluate(() => window.history.length);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Velvet AI' }).click();
    await page.waitForFunction(() => window.scrollY === 0);
    expect(await page.evaluate(() => window.history.length)).toBe(historyLength);
    expect(scripts.filter((url) => /\/assets\/(app|ui|router)-/.test(url))).toEqual([]);
  });

  it('lets a modified click open an app link in a new tab, as any link does', async () => {
    const context = await openContext();
    const page = await context.newPage();
    await page.goto(`${platform.url}/`);
    await page.locator('#root #gallery').waitFor();
    const opened = context.waitForEvent('page');
    await page
      .getByRole('banner')
      .getByRole('link', { name: 'Log in' })
      .click({ modifiers: ['Control'] });
    await (await opened).waitForURL(/\/signin$/);
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('shows no English to a visitor whose saved or browser language is another one', async () => {
    const saved = await openContext();
    await saved.addInitScript(() => localStorage.setItem('language', 'de'));
    const french = await openContext({ locale: 'fr-FR' });
    for (const context of [saved, french]) {
      const page = await openWithoutApp(context);
      await expect(page.locator('#static-landing').isVisible()).resolves.toBe(false);
      await expect(page.getByText('Get started', { exact: true }).first().isVisible()).resolves.toBe(false);
    }
  });

  it('is not sent to a member, whose "/" is the dashboard', async () => {
    const context = await openContext();
    const password = 'a very good password';
    const registered = await context.request.post(`${platform.url}/api/auth/register`, {
      data: {
        email: `landing-${randomUUID().slice(0, 8)}@example.com`,
        password,
        confirmPassword: password,
        firstName: 'Mira',
        dateOfBirth: '1990-05-17',
        acceptTerms: true,
      },
    });
    expect(registered.status()).toBe(201);
    const html = await (await context.request.get(`${platform.url}/`)).text();
    expect(html).not.toContain('id="static-landing"');
    expect(html).not.toContain('hero-heading');
  });
});
