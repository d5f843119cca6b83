import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';
import { pixelFloodPng, solidPng } from './pictures';

jest.setTimeout(180_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

const BUSY = JSON.stringify({ message: 'Many photos are being processed right now. Please try again in a moment.', code: 'UNAVAILABLE' });

/**
 * The Self-AI page's answers to the server's refusals in Chromium: an unreadable picture (INVALID_IMAGE) is named
 * in the member's language, and a busy server (503 with Retry-After) is asked again before anything is reported.
 */
describeWithBrowser('Self-AI upload refusals in Chromium', () => {
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
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  /** A signed-up member on the Self-AI page with both boxes ticked and Uppy's dialog open. */
  async function openDialogAsNewMember() {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const password = 'a very good password';
    await page.goto(`${platform.url}/signup`);
    await page.getByLabel('Email').fill(`self-ai-${randomUUID().slice(0, 8)}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Date of birth').fill('1990-05-17');
    await page.getByLabel('I am 18 or older and I accept the Terms of Service').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('token-balance').waitFor();
    await page.goto(`${platform.url}/my-self-ai`);
    await page.getByText('These photos are of me, and nobody else is in them').click();
    await page.getByText('I am 18 or older', { exact: true }).click();
    await page.getByTestId('self-ai-select').click();
    const dialog = page.getByRole('dialog', { name: 'Photo upload window (press Escape to close)' });
    await dialog.waitFor();
    return { page, dialog, input: dialog.locator('input.uppy-Dashboard-input').first() };
  }

  /** Answers the first `times` registrations 503 with `Retry-After: 1`, then lets them through; counts every attempt. */
  async function busyFor(page: Page, times: number): Promise<{ attempts: () => number }> {
    let attempts = 0;
    await page.route('**/api/upload-self-ai', async (route) => {
      attempts++;
      if (attempts <= times) {
        await route.fulfill({ status: 503, headers: { 'content-type': 'application/json', 'retry-after': '1' }, body: BUSY });
      } else await route.continue();
    });
    return { attempts: () => attempts };
  }

  it('names a pixel flood in the member’s language, and keeps nothing', async () => {
    const { page, dialog, input } = await openDialogAsNewMember();
    await input.setInputFiles([{ name: 'flood.png', mimeType: 'image/png', buffer: pixelFloodPng() }]);
    await dialog.getByRole('button', { name: 'Upload 1 file' }).click();
    await page.getByText('Upload Error').waitFor();
    await page
      .getByText('There was an error processing your upload. Please try again. This photo could not be read, or it has too many pixels.')
      .waitFor();
    await expect(page.getByTestId('self-ai-success').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('self-ai-photos-empty').waitFor();
  });

  it('registers the photo again after a busy answer’s Retry-After, and reports success', async () => {
    const { page, dialog, input } = await openDialogAsNewMember();
    const registrations = await busyFor(page, 2);
    await input.setInputFiles([{ name: 'me.png', mimeType: 'image/png', buffer: solidPng(48, 64, [90, 30, 200]) }]);
    await dialog.getByRole('button', { name: 'Upload 1 file' }).click();
    await dialog.locator('.uppy-StatusBar').getByText('The server is busy with other photos. Trying again in 1 second...').waitFor();
    await page.getByText('1 photo(s) uploaded successfully!').waitFor();
    expect(registrations.attempts()).toBe(3);
    await page.getByTestId('self-ai-photo').first().waitFor();
    await expect(page.getByText('Upload Error').count()).resolves.toBe(0);
  });

  it('reports Upload Error with the reason once a busy server has been asked three more times', async () => {
    const { page, dialog, input } = await openDialogAsNewMember();
    const registrations = await busyFor(page, Number.POSITIVE_INFINITY);
    await input.setInputFiles([{ name: 'me.png', mimeType: 'image/png', buffer: solidPng(48, 64, [10, 200, 30]) }]);
    await dialog.getByRole('button', { name: 'Upload 1 file' }).click();
    await page.getByText('Upload Error').waitFor();
    await page
      .getByText(
        'There was an error processing your upload. Please try again. The server is busy with other photos. Please try again in a moment.',
      )
      .waitFor();
    expect(registrations.attempts()).toBe(4);
    await expect(page.getByTestId('self-ai-success').count()).resolves.toBe(0);
  });
});
