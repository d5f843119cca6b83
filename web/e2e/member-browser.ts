import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from './browser';

export type ContextOptions = Parameters<Browser['newContext']>[0];

export interface MemberBrowser {
  /** The platform's address, once started. */
  readonly url: string;
  readonly platform: EmbeddedPlatform;
  /** A page in a fresh browser context (its own cookies), closed after the test. */
  newPage(options?: ContextOptions): Promise<Page>;
  /** Signs a new member up through the sign-up screen and waits for the member shell. */
  signUp(page: Page, firstName: string): Promise<void>;
  /** Client-side navigation through the nav bar, so nothing reloads. */
  navigateTo(page: Page, link: string): Promise<void>;
}

/**
 * The set-up every browser suite of member screens shares: an embedded platform on in-memory storage (the demo providers,
 * `env` on top) and one Chromium, started before the suite's tests and stopped after; a fresh context per page.
 * Call it inside the suite's `describe`.
 */
export function memberBrowser(env: Record<string, string> = {}): MemberBrowser {
  let platform: EmbeddedPlatform | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', GRAPHQL_RATE_LIMIT_PER_ADDRESS: '0', GRAPHQL_RATE_LIMIT_PER_CREDENTIAL: '0', ...env },
    });
    browser = await launchChromium();
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const started = () => {
    if (!platform || !browser) throw new Error('The platform starts in beforeAll');
    return { platform, browser };
  };

  return {
    get url() {
      return started().platform.url;
    },
    get platform() {
      return started().platform;
    },
    async newPage(options: ContextOptions = {}) {
      const context = await started().browser.newContext(options);
      contexts.push(context);
      return context.newPage();
    },
    async signUp(page: Page, firstName: string) {
      const password = 'a very good password';
      await page.goto(`${started().platform.url}/signup`);
      await page.getByLabel('Email').fill(`e2e-${randomUUID().slice(0, 8)}@example.com`);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Confirm password').fill(password);
      await page.getByLabel('First name').fill(firstName);
      await page.getByLabel('Date of birth').fill('1990-05-17');
      await page.getByLabel('I am 18 or older and I accept the Terms of Service').check();
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByTestId('token-balance').waitFor();
    },
    async navigateTo(page: Page, link: string) {
      await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).first().click();
    },
  };
}
