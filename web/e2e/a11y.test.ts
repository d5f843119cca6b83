import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityRpc } from '@app/schema';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(120_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const PUBLIC_PATHS = ['/', '/signin', '/signup', '/tos', '/privacy', '/takedown', '/developers'];
const MEMBER_PATHS = [
  '/',
  '/chat',
  '/generator',
  '/characters',
  '/gallery',
  '/profile',
  '/subscribe',
  '/my-self-ai',
  '/settings/tokens',
  '/takedown',
  '/tos',
  '/developers',
];

/**
 * axe-core is served from a same-origin path: the app's CSP (script-src 'self') blocks inline
 * scripts, and the audit should see the page under its real policy rather than a bypassed one.
 */
const AXE_PATH = '/__e2e__/axe.min.js';
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeResult {
  id: string;
  impact: string | null;
  help: string;
  helpUrl: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/**
 * Results axe leaves for a human ("incomplete") that were reviewed and accepted. The Account menu
 * button shows the member's initial, a single letter axe cannot judge against the name "Account
 * menu"; the letter is decorative (aria-hidden) and the avatar is not the button's label.
 */
const REVIEWED: { rule: string; html: RegExp }[] = [
  { rule: 'label-content-name-mismatch', html: /^<button[^>]* aria-label="Account menu"/ },
  // While a modal dialog (Image Details) is open, the page behind it is aria-hidden and the dialog's
  // focus trap keeps the keyboard inside it, so the page's own links and buttons cannot be reached.
  { rule: 'aria-hidden-focus', html: /^<div id="root"[^>]*\saria-hidden="true"/ },
  // The same one level up: a dialog opened from a dialog (Report from Image Details) hides the first
  // one, whose buttons its own focus trap keeps out of reach (checked with Tab below).
  { rule: 'aria-hidden-focus', html: /^<div[^>]*\sid="dialog:[^"]*:positioner"/ },
];

function isReviewed(rule: string, node: AxeResult['nodes'][number]): boolean {
  return REVIEWED.some((reviewed) => reviewed.rule === rule && reviewed.html.test(node.html));
}

/** One line per serious or critical result: rule, impact, help, and the offending nodes. */
function describeResults(results: AxeResult[], kind: string): string[] {
  return results
    .filter((result) => result.impact === 'serious' || result.impact === 'critical')
    .map(
      (result) =>
        `${kind} ${result.id} [${result.impact}] ${result.help} (${result.helpUrl})\n` +
        result.nodes.map((node) => `    ${JSON.stringify(node.target)}${node.failureSummary ? `: ${node.failureSummary}` : ''}`).join('\n'),
    );
}

/** Lets finite animations and transitions settle, so colour contrast is measured on the final frame. */
async function settle(page: Page) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Runs axe-core on the whole document. Fails on serious or critical violations, and on serious or
 * critical results axe could not decide ("incomplete", e.g. an aria-label that may not contain the
 * visible text) other than the REVIEWED ones and colour contrast, which axe cannot measure over
 * gradients and images.
 */
async function audit(page: Page, label: string) {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ url: AXE_PATH });
  const { violations, incomplete } = await page.evaluate(async () => {
    type Run = { violations: AxeResult[]; incomplete: AxeResult[] };
    const { axe } = window as unknown as { axe: { run: (context: Document, options: object) => Promise<Run> } };
    const result = await axe.run(document, { resultTypes: ['violations', 'incomplete'] });
    const plain = (results: AxeResult[]) =>
      results.map(({ id, impact, help, helpUrl, nodes }) => ({
        id,
        impact: impact ?? null,
        help,
        helpUrl,
        nodes: nodes.map(({ target, html, failureSummary }) => ({ target, html, failureSummary })),
      }));
    return { violations: plain(result.violations), incomplete: plain(result.incomplete) };
  });
  const problems = [
    ...describeResults(violations, 'violation:'),
    ...describeResults(
      incomplete
        .filter((result) => result.id !== 'color-contrast')
        .map((result) => ({ ...result, nodes: result.nodes.filter((node) => !isReviewed(result.id, node)) }))
        .filter((result) => result.nodes.length > 0),
      'needs review:',
    ),
  ];
  // The label names the page in the failure output, e.g. "hi 390x844 /".
  expect({ page: label, problems }).toEqual({ page: label, problems: [] });
}

/** The document's focused element, described by what a keyboard user would meet. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    return {
      tag: element?.tagName.toLowerCase() ?? null,
      text: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim(),
      href: element?.getAttribute('href') ?? null,
      testId: element?.getAttribute('data-testid') ?? null,
      role: element?.getAttribute('role') ?? null,
    };
  });
}

describeWithBrowser('accessibility in Chromium (axe-core and keyboard)', () => {
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

  async function openContext({ language, ...options }: BrowserContextOptions & { language?: string } = {}): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'en-US', viewport: DESKTOP, ...options });
    contexts.push(context);
    await context.route(`${platform.url}${AXE_PATH}`, (route) =>
      route.fulfill({ contentType: 'application/javascript', body: AXE_SOURCE }),
    );
    if (language) await context.addInitScript((code) => localStorage.setItem('language', code), language);
    return context;
  }

  /** Opens a screen and waits for its heading (the landing page: for its gallery too, as landing.test.ts does). */
  async function visit(page: Page, pathname: string) {
    await page.goto(`${platform.url}${pathname}`);
    await page.locator('h1').first().waitFor();
    if (pathname === '/' && (await page.locator('#about').count()) > 0) await page.locator('#gallery').waitFor();
    // The pre-rendered landing (index.html) shows until the app's own replaces it: check the app's.
    await page.waitForFunction(() => !document.getElementById('static-landing'));
  }

  async function signUpViaApi(context: BrowserContext, page: Page) {
    const password = 'a very good password';
    const response = await context.request.post(`${platform.url}/api/auth/register`, {
      data: {
        email: `a11y-${randomUUID().slice(0, 8)}@example.com`,
        password,
        confirmPassword: password,
        firstName: 'Mira',
        dateOfBirth: '1990-05-17',
        acceptTerms: true,
      },
    });
    expect(response.status()).toBe(201);
    await page.goto(`${platform.url}/`);
    await page.getByTestId('token-balance').waitFor();
  }

  describe.each(['en', 'hi', 'zh'])('signed out, in %s', (language) => {
    it('has no serious or critical violations on the public pages at a desktop viewport', async () => {
      const context = await openContext({ language: language === 'en' ? undefined : language });
      const page = await context.newPage();
      for (const pathname of PUBLIC_PATHS) {
        await visit(page, pathname);
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
        await audit(page, `${language} ${DESKTOP.width}x${DESKTOP.height} ${pathname}`);
        if (pathname === '/signin' || pathname === '/signup' || pathname === '/takedown') {
          // The form's error state too: field messages and invalid inputs.
          await page.locator('main form [type="submit"]').click();
          await page.locator('main [aria-invalid="true"]').first().waitFor();
          await audit(page, `${language} ${DESKTOP.width}x${DESKTOP.height} ${pathname} (errors shown)`);
        }
      }
    });

    it('has no serious or critical violations on the landing page at a phone viewport, menu closed and open', async () => {
      const context = await openContext({ language: language === 'en' ? undefined : language, viewport: PHONE });
      const page = await context.newPage();
      await visit(page, '/');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await audit(page, `${language} ${PHONE.width}x${PHONE.height} /`);
      await page.locator('[aria-controls="landing-mobile-menu"]').click();
      await page.getByTestId('landing-mobile-menu').waitFor();
      await audit(page, `${language} ${PHONE.width}x${PHONE.height} / (menu open)`);
    });
  });

  it('has no serious or critical violations on the member screens (English)', async () => {
    const context = await openContext();
    const page = await context.newPage();
    await signUpViaApi(context, page);
    // WCAG 2.5.3: the avatar's initial is decorative, the button is named "Account menu" alone.
    const accountMenu = page.getByRole('button', { name: 'Account menu', exact: true });
    await expect(accountMenu.getByTestId('avatar-initial').textContent()).resolves.toBe('M');
    expect(await accountMenu.evaluate((button) => button.firstElementChild?.getAttribute('aria-hidden'))).toBe('true');
    for (const pathname of MEMBER_PATHS) {
      await visit(page, pathname);
      await audit(page, `member ${pathname}`);
    }
    // The open menus are part of the page too.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();
    await audit(page, 'member /tos (account menu open)');
    await page.getByRole('menuitem', { name: 'Content preferences' }).click();
    await page.getByRole('dialog', { name: 'Content preferences' }).getByRole('radio').first().waitFor();
    await audit(page, 'member /tos (content preferences)');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Content preferences' }).waitFor({ state: 'hidden' });
    await page.getByTestId('language-picker').click();
    await page.getByRole('menuitemradio', { name: 'English' }).waitFor();
    await audit(page, 'member /tos (language menu open)');
    await page.keyboard.press('Escape');

    // The phone layout, with its navigation menu open.
    await page.setViewportSize(PHONE);
    await visit(page, '/');
    await audit(page, `member ${PHONE.width}x${PHONE.height} /`);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-nav').waitFor();
    await audit(page, `member ${PHONE.width}x${PHONE.height} / (menu open)`);
  });

  it('has no serious or critical violations on the generator and gallery with an image', async () => {
    const context = await openContext();
    const page = await context.newPage();
    await signUpViaApi(context, page);
    const graphql = async <T>(query: string, variables: object = {}): Promise<T> => {
      const response = await context.request.post(`${platform.url}/graphql`, { data: { query, variables } });
      const body = (await response.json()) as { data: T; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data;
    };
    const { generateImage } = await graphql<{ generateImage: { id: string } }>(
      'mutation($input: GenerateImageInput!) { generateImage(input: $input) { id } }',
      { input: { prompt: 'A quiet harbour at dawn with fishing boats', size: 'PORTRAIT' } },
    );
    let imageId: string | null = null;
    for (let attempt = 0; attempt < 100 && !imageId; attempt += 1) {
      const { generation } = await graphql<{ generation: { status: string; image: { id: string } | null } }>(
        'query($id: ID!) { generation(id: $id) { status image { id } } }',
        { id: generateImage.id },
      );
      expect(['QUEUED', 'RUNNING', 'STORING', 'DONE']).toContain(generation.status);
      imageId = generation.image?.id ?? null;
      if (!imageId) await page.waitForTimeout(200);
    }
    expect(imageId).not.toBeNull();
    await graphql('mutation($id: ID!) { setImageVisibility(id: $id, isPublic: true, rating: SAFE) { id } }', { id: imageId });

    await visit(page, '/generator');
    await page.locator('[data-testid="latest-image"][data-loaded="true"]').waitFor();
    await audit(page, 'member /generator (with an image)');
    await visit(page, '/gallery');
    await page.getByTestId('gallery-card').first().waitFor();
    await audit(page, 'member /gallery (public tab, grid)');
    await page.getByTestId('gallery-card').first().click();
    await page.getByRole('dialog', { name: 'Image Details' }).waitFor();
    await audit(page, 'member /gallery (image details)');
    // The focus trap the reviewed aria-hidden-focus result relies on: Tab stays inside the dialog.
    for (let step = 0; step < 10; step += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Image Details' }).waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: 'My Images' }).click();
    await page.getByRole('button', { name: 'List view' }).click();
    await page.locator('[data-testid="gallery-grid"][data-view="list"]').waitFor();
    await audit(page, 'member /gallery (my images, list)');
  });

  it('has no serious or critical violations on the rating, report and moderation screens', async () => {
    // A member publishes an image; another one reports it (the report dialog is audited on the way).
    const ownerContext = await openContext();
    const ownerPage = await ownerContext.newPage();
    await signUpViaApi(ownerContext, ownerPage);
    const generated = await ownerContext.request.post(`${platform.url}/api/generate/image`, {
      data: { prompt: 'A lighthouse on a cliff at dusk' },
      timeout: 120_000,
    });
    expect(generated.status()).toBe(201);
    const { id: imageId } = (await generated.json()) as { id: string };
    // The rating choice shown before publishing.
    await visit(ownerPage, '/generator');
    await ownerPage.locator('[data-testid="latest-image"][data-loaded="true"]').waitFor();
    await ownerPage.getByTestId('latest-creation').getByTestId('visibility-switch').click();
    await ownerPage.getByTestId('publish-rating').waitFor();
    await audit(ownerPage, 'member /generator (choosing the rating)');
    await ownerPage.getByTestId('publish-rating').getByText('Explicit', { exact: true }).click();
    await ownerPage.getByTestId('publish-rating').getByRole('button', { name: 'Publish' }).click();
    await ownerPage.getByText('Visibility Updated').waitFor();

    const reporterContext = await openContext();
    const reporterPage = await reporterContext.newPage();
    await signUpViaApi(reporterContext, reporterPage);
    await visit(reporterPage, '/gallery');
    // Explicit is blurred by default, with its Show button.
    await reporterPage.locator('[data-blurred="true"]').getByTestId('reveal-button').waitFor();
    await audit(reporterPage, 'member /gallery (a blurred picture)');
    await reporterPage.getByTestId('gallery-card').first().click();
    await reporterPage.getByRole('dialog', { name: 'Image Details' }).getByRole('button', { name: 'Report' }).click();
    const report = reporterPage.getByRole('dialog', { name: 'Report image' });
    await report.getByRole('radio').first().waitFor();
    await report.getByRole('button', { name: 'Send report' }).click();
    await report.getByText('Please choose a reason.').waitFor();
    await audit(reporterPage, 'member /gallery (report dialog, error shown)');
    for (let step = 0; step < 10; step += 1) {
      await reporterPage.keyboard.press('Tab');
      expect(await reporterPage.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.getAttribute('data-testid'))).toBe(
        'report-dialog',
      );
    }
    await report.getByText('Spam', { exact: true }).click();
    await report.getByRole('button', { name: 'Send report' }).click();
    await reporterPage.getByText('Thanks — our moderators will review it.').waitFor();

    // A moderator: the queue with the case, an action's dialog, the audit log; at a phone width too.
    const moderatorContext = await openContext();
    const moderatorPage = await moderatorContext.newPage();
    await signUpViaApi(moderatorContext, moderatorPage);
    const answer = await moderatorContext.request.post(`${platform.url}/graphql`, { data: { query: '{ me { email } }' } });
    const { me } = ((await answer.json()) as { data: { me: { email: string } } }).data;
    await platform.bus.request(identityRpc.grantRole, { email: me.email, role: 'moderator', actorId: null, reason: 'a11y' }, {});
    // The gateway reuses a session's lookup for a moment (SESSION_CACHE_MS): wait until it reads the new role.
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const roleAnswer = await moderatorContext.request.post(`${platform.url}/graphql`, { data: { query: '{ me { role } }' } });
      if (((await roleAnswer.json()) as { data: { me: { role: string } } }).data.me.role === 'MODERATOR') break;
      await moderatorPage.waitForTimeout(100);
    }
    await visit(moderatorPage, '/moderation');
    await moderatorPage.locator(`[data-testid="moderation-case"][data-target-id="${imageId}"]`).waitFor();
    await audit(moderatorPage, 'moderator /moderation');
    await moderatorPage.getByRole('button', { name: 'Change rating' }).click();
    await moderatorPage.getByRole('dialog', { name: 'Change rating' }).getByRole('radio').first().waitFor();
    await audit(moderatorPage, 'moderator /moderation (change rating dialog)');
    await moderatorPage.keyboard.press('Escape');
    await moderatorPage.setViewportSize(PHONE);
    await audit(moderatorPage, `moderator ${PHONE.width}x${PHONE.height} /moderation`);
    expect(await moderatorPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await moderatorPage.setViewportSize(DESKTOP);
    await moderatorPage.getByRole('link', { name: 'Audit log' }).click();
    await moderatorPage.getByTestId('audit-log').or(moderatorPage.getByText('Nothing has been recorded yet.')).first().waitFor();
    await audit(moderatorPage, 'moderator /moderation/audit');
  });

  describe('keyboard', () => {
    it('reaches the skip link, the anchors, the language picker, Log in and Get started in order on the landing page', async () => {
      const page = await (await openContext()).newPage();
      await visit(page, '/');
      const order = [];
      for (let index = 0; index < 9; index += 1) {
        await page.keyboard.press('Tab');
        order.push(await focused(page));
      }
      expect(order).toEqual([
        expect.objectContaining({ tag: 'a', text: 'Skip to content', href: '#main-content' }),
        expect.objectContaining({ tag: 'a', href: '/' }), // the brand, home
        expect.objectContaining({ tag: 'a', text: 'Features', href: '#features' }),
        expect.objectContaining({ tag: 'a', text: 'Gallery', href: '#gallery' }),
        expect.objectContaining({ tag: 'a', text: 'Pricing', href: '#pricing' }),
        expect.objectContaining({ tag: 'a', text: 'About', href: '#about' }),
        expect.objectContaining({ tag: 'button', testId: 'language-picker' }),
        expect.objectContaining({ tag: 'a', text: 'Log in', href: '/signin' }),
        expect.objectContaining({ tag: 'a', text: 'Get started', href: '/signup' }),
      ]);

      // The skip link is visible when focused and moves focus to the main content.
      await page.getByRole('link', { name: 'Skip to content' }).focus();
      const box = await page.getByRole('link', { name: 'Skip to content' }).boundingBox();
      expect(box && box.y >= 0 && box.height > 0).toBe(true);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.id === 'main-content');
    });

    it('opens the language picker with Enter and Space, moves with the arrows, picks with Enter and closes with Escape', async () => {
      const page = await (await openContext()).newPage();
      await visit(page, '/');
      const picker = page.getByTestId('language-picker');
      const menu = page.getByRole('menu', { name: 'Language' });
      const highlighted = () => page.locator('[role="menuitemradio"][data-highlighted]').getAttribute('data-testid');

      await picker.focus();
      await page.keyboard.press('Enter');
      await menu.waitFor();
      await expect(picker.getAttribute('aria-expanded')).resolves.toBe('true');
      await page.waitForFunction(() => document.querySelector('[role="menuitemradio"][data-highlighted]') !== null);
      const start = await highlighted();
      await page.keyboard.press('ArrowDown');
      await page.waitForFunction((previous) => {
        const item = document.querySelector('[role="menuitemradio"][data-highlighted]');
        return item !== null && item.getAttribute('data-testid') !== previous;
      }, start);
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      await expect(picker.getAttribute('aria-expanded')).resolves.toBe('false');
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'language-picker');

      await page.keyboard.press('Space');
      await menu.waitFor();
      // Move to Deutsch (fourth in the list) from wherever the highlight starts.
      await page.keyboard.press('Home');
      for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowDown');
      await expect(highlighted()).resolves.toBe('language-option-de');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.documentElement.lang === 'de');
      await menu.waitFor({ state: 'hidden' });
      await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'language-picker');
    });

    it('opens the phone menu with Enter, tabs through its links and closes it with Escape back on the menu button', async () => {
      const page = await (await openContext({ viewport: PHONE })).newPage();
      await visit(page, '/');
      const toggle = page.locator('[aria-controls="landing-mobile-menu"]');
      await toggle.focus();
      await page.keyboard.press('Enter');
      const menu = page.getByTestId('landing-mobile-menu');
      await menu.waitFor();
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');

      const visited = [];
      for (let index = 0; index < 6; index += 1) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => Boolean(document.activeElement?.closest('#landing-mobile-menu')))).toBe(true);
        visited.push((await focused(page)).text);
      }
      expect(visited).toEqual(['Features', 'Gallery', 'Pricing', 'About', 'Log in', 'Get started']);

      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });
      expect(await focused(page)).toEqual(expect.objectContaining({ tag: 'button', text: 'Open menu' }));
      await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    });

    it('opens the Account menu with the keyboard and reaches Log out with the arrow keys', async () => {
      const context = await openContext();
      const page = await context.newPage();
      await signUpViaApi(context, page);
      const trigger = page.getByRole('button', { name: 'Account menu' });
      await trigger.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('menu').waitFor();
      await expect(trigger.getAttribute('aria-expanded')).resolves.toBe('true');
      const logOut = page.getByRole('menuitem', { name: 'Log out' });
      for (let step = 0; step < 4 && (await logOut.getAttribute('data-highlighted')) === null; step += 1) {
        await page.keyboard.press('ArrowDown');
      }
      expect(await logOut.getAttribute('data-highlighted')).not.toBeNull();
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: 'Log in' }).first().waitFor();
      expect((await context.request.get(`${platform.url}/api/user`)).status()).toBe(401);
    });
  });
});
