import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(240_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;
const PASSWORD = 'a very good password';

/** A member makes a token for their own script, the script uses it, and the member revokes it: in the browser. */
describeWithBrowser('access tokens in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await platform?.stop();
  });

  /** What a third-party script does with the secret: no cookie, only the bearer header. */
  const asScript = (secret: string) =>
    fetch(`${platform.url}/api/user`, { headers: { authorization: `Bearer ${secret}` } }).then((response) => response.status);

  it('creates a token from the account menu, shows its secret once, and revokes it', async () => {
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const email = `tokens-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await context.request.post(`${platform.url}/api/auth/register`, {
      data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Ada', dateOfBirth: '1990-05-17', acceptTerms: true },
    });
    expect(registered.status()).toBe(201);
    const page = await context.newPage();
    await page.goto(`${platform.url}/dashboard`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Access tokens' }).click();
    await page.waitForURL('**/settings/tokens');
    await page.getByRole('heading', { level: 1, name: 'Access tokens' }).waitFor();
    await page.getByTestId('access-tokens-empty').waitFor();

    // Nothing named and nothing allowed: both are said, nothing is created.
    // The boxes are styled controls: a member clicks their labels.
    const form = page.getByTestId('access-token-form');
    await form.getByText('Read', { exact: true }).click();
    await expect(form.getByRole('checkbox', { name: /^Read/ }).isChecked()).resolves.toBe(false);
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByText('Give the token a name.').waitFor();
    await page.getByText('Choose at least one permission.').waitFor();

    await page.getByLabel('Name').fill('Nightly backup script');
    await form.getByText('Read', { exact: true }).click();
    await form.getByText('Chat', { exact: true }).click();
    await form.getByText('30 days', { exact: true }).click();
    await expect(form.getByRole('radio', { name: '30 days' }).isChecked()).resolves.toBe(true);
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('access-token-secret-value').textContent())!.trim();
    expect(secret).toMatch(/^cpat_[\w-]{43}$/);
    await page.getByText('Copy it now: it will not be shown again.', { exact: false }).waitFor();
    expect(await asScript(secret)).toBe(200);

    const row = page.getByTestId('access-token');
    await expect(row.textContent()).resolves.toMatch(/Nightly backup script/);
    await expect(row.textContent()).resolves.toContain(secret.slice(0, 9));
    await expect(row.textContent()).resolves.toMatch(/Read.*Chat/);
    await expect(row.textContent()).resolves.toMatch(/Expires /);
    await page.getByRole('button', { name: 'Done' }).click();
    // Once dismissed, the secret is nowhere on the page, and a reload does not bring it back.
    await page.reload();
    await row.first().waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Revoke Nightly backup script' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Revoke “Nightly backup script”?' });
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('access-tokens-empty').waitFor();
    expect(await asScript(secret)).toBe(401);
  });
});
