import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(90_000);

const OPERATOR_TOKEN = 'operator-token-for-e2e-0123456789';
const describeWithBrowser = hasChromium() ? describe : describe.skip;

describeWithBrowser('app shell in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0, operatorToken: OPERATOR_TOKEN },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const newMember = () => ({ email: `e2e-${randomUUID().slice(0, 8)}@example.com`, password: 'a very good password' });

  async function signUp(page: Page, member: { email: string; password: string }, firstName: string) {
    await page.goto(`${platform.url}/signup`);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByLabel('Confirm password').fill(member.password);
    await page.getByLabel('First name').fill(firstName);
    await page.getByLabel('Date of birth').fill('1990-05-17');
    await page.getByLabel('I am 18 or older and I accept the Terms of Service').check();
    await page.getByRole('button', { name: 'Create account' }).click();
  }

  it('signs up, greets the member with their balance, signs out, and /api/user is then 401', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const member = newMember();
    await signUp(page, member, 'Mira');
    await page.getByText('Welcome to Velvet AI, Mira!').waitFor();
    await expect(page.getByTestId('token-balance').textContent()).resolves.toBe('15');

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).first().waitFor();
    const response = await page.request.get(`${platform.url}/api/user`);
    expect(response.status()).toBe(401);
    expect(await response.text()).toContain('Unauthorized');
    await context.close();
  });

  it('shows sign-up validation messages from the spec', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${platform.url}/signup`);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('different');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByText('Password must be at least 8 characters').waitFor();
    await page.getByText("Passwords don't match").waitFor();
    await context.close();
  });

  it('updates the balance live in a second browser when an operator grants tokens', async () => {
    const member = newMember();
    const first = await browser.newContext();
    const firstPage = await first.newPage();
    await signUp(firstPage, member, 'Noor');
    await firstPage.getByText('Welcome to Velvet AI, Noor!').waitFor();

    const second = await browser.newContext();
    const secondPage = await second.newPage();
    await secondPage.goto(`${platform.url}/signin`);
    await secondPage.getByLabel('Email').fill(member.email);
    await secondPage.getByLabel('Password').fill(member.password);
    await secondPage.getByRole('button', { name: 'Sign in' }).click();
    await secondPage.getByText('Welcome to Velvet AI, Noor!').waitFor();
    await expect(secondPage.getByTestId('token-balance').textContent()).resolves.toBe('15');
    await secondPage.waitForTimeout(500);

    const grant = await fetch(`${platform.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${OPERATOR_TOKEN}` },
      body: JSON.stringify({ query: `mutation { grantTokens(email: "${member.email}", amount: 25, reason: "Gift") { balance } }` }),
    });
    expect(await grant.json()).toEqual({ data: { grantTokens: { balance: 40 } } });
    await secondPage.waitForFunction(() => document.querySelector('[data-testid="token-balance"]')?.textContent === '40');
    await firstPage.waitForFunction(() => document.querySelector('[data-testid="token-balance"]')?.textContent === '40');
    await first.close();
    await second.close();
  });

  it('shows the not-found page for unknown paths', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${platform.url}/no-such-page`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    // A visitor here has no navigation bar: the page itself offers the languages.
    await page.getByRole('button', { name: 'Language' }).click();
    await page.getByRole('menuitemradio', { name: 'Deutsch' }).click();
    await page.getByRole('heading', { name: '404 – Seite nicht gefunden' }).waitFor();
    await page.getByRole('link', { name: 'Anmelden' }).waitFor();
    await context.close();
  });

  it('leads a visitor who opens a member page to sign in and back to that page', async () => {
    const member = newMember();
    const setup = await browser.newContext();
    const setupPage = await setup.newPage();
    await signUp(setupPage, member, 'Noor');
    await setupPage.getByRole('button', { name: 'Account menu' }).waitFor();
    await setup.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${platform.url}/gallery?tab=mine`);
    await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
    await page.getByText('Did you forget to add the page to the router?').waitFor();
    expect(await page.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');

    await page.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL(`${platform.url}/signin?next=${encodeURIComponent('/gallery?tab=mine')}`);
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${platform.url}/gallery?tab=mine`);
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    expect(await page.getByRole('heading', { name: '404 Page Not Found' }).count()).toBe(0);
    await context.close();
  });

  it('never sends a member off the site after signing in, whatever the link says', async () => {
    const member = newMember();
    const context = await browser.newContext();
    const signUpPage = await context.newPage();
    await signUp(signUpPage, member, 'Ines');
    await signUpPage.getByRole('button', { name: 'Account menu' }).waitFor();
    const page = await context.newPage();
    await page.goto(`${platform.url}/signin?next=${encodeURIComponent('//evil.example/gallery')}`);
    await page.waitForURL(`${platform.url}/`);
    await context.close();

    const visitor = await browser.newContext();
    const signIn = await visitor.newPage();
    await signIn.goto(`${platform.url}/signin?next=${encodeURIComponent('https://evil.example/')}`);
    await signIn.getByLabel('Email').fill(member.email);
    await signIn.getByLabel('Password').fill(member.password);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.waitForURL(`${platform.url}/`);
    await signIn.getByTestId('token-balance').waitFor();
    await visitor.close();
  });

  it("names the operator's place of business in the Terms when no jurisdiction is configured", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${platform.url}/tos`);
    const governingLaw = page.locator('section:has(#section-11)');
    await governingLaw.getByText("the laws of the operator's place of business", { exact: false }).waitFor();
    expect(await governingLaw.textContent()).not.toContain('[');
    await context.close();
  });
});
