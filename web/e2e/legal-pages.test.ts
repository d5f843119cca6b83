import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(90_000);

const RELAUNCH_URL = 'https://new.example.test/';
const SUPPORT_EMAIL = 'help@example.test';
const LEGAL_JURISDICTION = 'England and Wales';
const describeWithBrowser = hasChromium() ? describe : describe.skip;

const TOS_SECTIONS = [
  '1. Agreement to Terms',
  '2. Age Verification',
  '3. Description of Service',
  '4. Acceptable Use',
  '5. AI-Generated Content',
  '6. Privacy',
  '7. Subscription and Payment',
  '8. Intellectual Property',
  '9. Limitation of Liability',
  '10. Account Termination',
  '11. Governing Law and Jurisdiction',
  '12. Changes to Terms',
  '13. Contact Information',
];

const PRIVACY_SECTIONS = [
  'Information We Collect',
  'How We Use Your Information',
  'Information Sharing',
  'Data Security',
  'Cookies and Tracking',
  'Your Privacy Rights',
  'International Users',
  'Contact Us',
  'Policy Updates',
];

describeWithBrowser('terms, privacy and relaunch pages in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0, operatorToken: 'operator-token-for-e2e-0123456789' },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', RELAUNCH_URL, SUPPORT_EMAIL, LEGAL_JURISDICTION },
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

  async function newPage(): Promise<Page> {
    const context = await browser.newContext();
    contexts.push(context);
    return context.newPage();
  }

  async function h2Texts(page: Page): Promise<string[]> {
    return page.locator('main h2').evaluateAll((headings) => headings.map((heading) => heading.textContent?.trim() ?? ''));
  }

  async function signUp(page: Page, firstName: string) {
    const password = 'a very good password';
    await page.goto(`${platform.url}/signup`);
    await page.getByLabel('Email').fill(`e2e-${randomUUID().slice(0, 8)}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByLabel('First name').fill(firstName);
    await page.getByLabel('Date of birth').fill('1990-05-17');
    await page.getByLabel('I am 18 or older and I accept the Terms of Service').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(`Welcome to Velvet AI, ${firstName}!`).waitFor();
  }

  describe('as a visitor', () => {
    it('shows the Terms of Service with its date, notice and 13 numbered sections', async () => {
      const page = await newPage();
      await page.goto(`${platform.url}/tos`);
      await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
      await page.waitForFunction(() => document.title.includes('Terms of Service'));
      expect(await page.title()).toContain('Terms of Service');
      expect(await page.locator('h1').count()).toBe(1);

      await page.getByText('Effective date: September 1, 2025').waitFor();

      const notice = page.getByRole('note', { name: 'Important Notice' });
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/18\+ only/);
      expect(await notice.textContent()).toMatch(/fictional/);
      expect(await notice.textContent()).toMatch(/responsible for your prompts/);

      const numbered = (await h2Texts(page)).filter((text) => /^\d+\. /.test(text));
      expect(numbered).toEqual(TOS_SECTIONS);
      for (const [index, title] of TOS_SECTIONS.entries()) {
        expect(await page.locator(`#section-${index + 1}`).textContent()).toBe(title);
      }

      // Key terms from the spec.
      const body = (await page.locator('main').textContent()) ?? '';
      expect(body).toContain('1 token = 1 AI generation');
      expect(body).toContain(`governed by the laws of ${LEGAL_JURISDICTION}`);
      expect(body).toContain(`The courts of ${LEGAL_JURISDICTION} have exclusive jurisdiction`);
      expect(body).toMatch(/12 months/);

      // The table of contents links to the section anchors.
      const toc = page.getByRole('navigation', { name: 'On this page' });
      expect(await toc.getByRole('link').count()).toBe(13);
      expect(await toc.getByRole('link', { name: '7. Subscription and Payment' }).getAttribute('href')).toBe('#section-7');

      // Privacy section links to /privacy; contact section links to the configured support address.
      expect(await page.locator('section:has(#section-6) a[href="/privacy"]').count()).toBeGreaterThan(0);
      expect(await page.locator(`section:has(#section-13) a[href="mailto:${SUPPORT_EMAIL}"]`).textContent()).toBe(SUPPORT_EMAIL);

      // Footer links.
      const footer = page.getByRole('navigation', { name: 'Legal documents' });
      expect(await footer.getByRole('link', { name: 'Home', exact: true }).getAttribute('href')).toBe('/');
      expect(await footer.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/tos');
      expect(await footer.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');

      await footer.getByRole('link', { name: 'Privacy Policy' }).click();
      await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    });

    it('leads back home from the Terms header', async () => {
      const page = await newPage();
      await page.goto(`${platform.url}/tos`);
      const header = page.locator('main header');
      expect(await header.getByRole('link', { name: 'Home', exact: true }).getAttribute('href')).toBe('/');
      await page.getByRole('link', { name: 'Back to Home' }).click();
      await page.waitForURL(`${platform.url}/`);
    });

    it('shows the Privacy Policy with its sections and buttons to the terms and home', async () => {
      const page = await newPage();
      await page.goto(`${platform.url}/privacy`);
      await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
      await page.waitForFunction(() => document.title.includes('Privacy Policy'));
      expect(await page.locator('h1').count()).toBe(1);
      await page.getByText('Last updated: July 18, 2025').waitFor();
      expect(await page.getByRole('note', { name: 'Age Restriction Notice' }).textContent()).toMatch(/18/);

      const headings = await h2Texts(page);
      expect(headings.filter((text) => PRIVACY_SECTIONS.includes(text))).toEqual(PRIVACY_SECTIONS);

      const body = (await page.locator('main').textContent()) ?? '';
      expect(body).toContain('within 30 days');
      expect(body).toContain('sid');
      expect(body).toContain('HttpOnly');
      expect(body).toMatch(/do not sell/i);
      expect(await page.locator(`section:has(#contact-us) a[href="mailto:${SUPPORT_EMAIL}"]`).count()).toBe(1);

      expect(await page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
      await page.getByRole('link', { name: 'View Terms of Service' }).click();
      await page.waitForURL(`${platform.url}/tos`);
      await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();

      await page.goBack();
      await page.getByRole('link', { name: 'Back to Platform' }).click();
      await page.waitForURL(`${platform.url}/`);
    });

    it("dates the documents in the reader's language", async () => {
      const page = await newPage();
      await page.goto(`${platform.url}/`);
      await page.evaluate(() => localStorage.setItem('language', 'fr'));
      await page.goto(`${platform.url}/tos`);
      await page.waitForFunction(() => document.documentElement.lang === 'fr');
      expect(await page.locator('main time[datetime="2025-09-01"]').textContent()).toBe('1 septembre 2025');
      await page.goto(`${platform.url}/privacy`);
      expect(await page.locator('main time[datetime="2025-07-18"]').textContent()).toBe('18 juillet 2025');
    });

    it('shows the relaunch notice with one button to the new platform in a new tab', async () => {
      const page = await newPage();
      await page.goto(`${platform.url}/relaunch`);
      await page.getByRole('heading', { level: 1, name: "We're relaunching on a new platform" }).waitFor();
      await page.waitForFunction(() => document.title.includes('relaunching'));

      const links = page.getByRole('link');
      expect(await links.count()).toBe(1);
      expect(await page.getByRole('button').count()).toBe(0);
      expect(await page.locator('form, input').count()).toBe(0);
      const visit = page.getByRole('link', { name: 'Visit the new platform' });
      expect(await visit.getAttribute('href')).toBe(RELAUNCH_URL);
      expect(await visit.getAttribute('target')).toBe('_blank');
      expect(await visit.getAttribute('rel')).toBe('noopener noreferrer');
    });
  });

  describe('as a signed-in member', () => {
    it('renders the Terms, the Privacy Policy and the relaunch notice', async () => {
      const page = await newPage();
      await signUp(page, 'Lena');

      await page.goto(`${platform.url}/tos`);
      await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
      await page.getByRole('navigation', { name: 'Main' }).first().waitFor({ state: 'attached' });
      expect((await h2Texts(page)).filter((text) => /^\d+\. /.test(text))).toEqual(TOS_SECTIONS);
      await page.getByRole('note', { name: 'Important Notice' }).waitFor();

      await page.goto(`${platform.url}/privacy`);
      await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
      await page.getByText('Last updated: July 18, 2025').waitFor();
      await page.getByRole('link', { name: 'Back to Platform' }).click();
      await page.getByText('Welcome to Velvet AI, Lena!').waitFor();

      await page.goto(`${platform.url}/relaunch`);
      await page.getByRole('heading', { level: 1, name: "We're relaunching on a new platform" }).waitFor();
      expect(await page.getByRole('link', { name: 'Visit the new platform' }).getAttribute('href')).toBe(RELAUNCH_URL);
    });
  });
});
