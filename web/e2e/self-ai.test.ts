import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';
import { solidPng } from './pictures';

jest.setTimeout(180_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

const png = (name: string, colour: [number, number, number]) => ({ name, mimeType: 'image/png', buffer: solidPng(48, 64, colour) });

/**
 * The Self-AI page in Chromium with the real Uppy dialog: attestation, upload through the server's
 * single-use targets, registration, the member's photos (owner-only files), deleting one, and the
 * refusals (too many files, too large a file, a text file named .png).
 */
describeWithBrowser('Self-AI upload page in Chromium', () => {
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

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    return context.newPage();
  }

  async function signUp(page: Page) {
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
  }

  /** Opens the Self-AI page and ticks both confirmations; the select button works only after that. */
  async function openPageAndAttest(page: Page) {
    await page.goto(`${platform.url}/my-self-ai`);
    await page.getByRole('heading', { name: 'Self AI', level: 1 }).waitFor();
    const select = page.getByTestId('self-ai-select');
    await expect(select.isDisabled()).resolves.toBe(true);
    await page.getByText('These photos are of me, and nobody else is in them').click();
    await expect(select.isDisabled()).resolves.toBe(true);
    await page.getByText('I am 18 or older', { exact: true }).click();
    await expect(select.isEnabled()).resolves.toBe(true);
  }

  /** Opens Uppy's dialog and answers its parts. */
  async function openDialog(page: Page) {
    await page.getByTestId('self-ai-select').click();
    const dialog = page.getByRole('dialog', { name: 'Photo upload window (press Escape to close)' });
    await dialog.waitFor();
    return {
      dialog,
      input: dialog.locator('input.uppy-Dashboard-input').first(),
      // Uppy renders its informer in two places; either shows the message.
      informer: (text: string) => dialog.locator('.uppy-Informer').getByText(text).first(),
    };
  }

  const photoCards = (page: Page): Locator => page.getByTestId('self-ai-photo');

  it('shows the page as the spec describes', async () => {
    const page = await newPage();
    await signUp(page);
    await page.goto(`${platform.url}/my-self-ai`);
    await page.getByRole('heading', { name: 'Self AI', level: 1 }).waitFor();
    await expect(page.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).resolves.toBe('/');
    await page.getByText('Supported formats: JPG, PNG • Max size: 10MB per file').waitFor();
    await expect(page.getByTestId('self-ai-feature').locator('h3').allInnerTexts()).resolves.toEqual([
      'Secure Photo Upload',
      'AI Face Mapping',
      'Custom Scenarios',
      'Private & Secure',
    ]);
    await page.getByRole('heading', { name: 'How It Works' }).waitFor();
    await expect(page.getByTestId('self-ai-steps').locator('h3').allInnerTexts()).resolves.toEqual([
      'Upload photos',
      'AI processing',
      'Generate content',
    ]);
    await page.getByText('Your photos are encrypted, never shared with anyone, and can be deleted at any time.').waitFor();
    await page.getByTestId('self-ai-photos-empty').waitFor();

    // The dialog: Uppy's, with the page's note.
    await openPageAndAttest(page);
    const { dialog } = await openDialog(page);
    await dialog.getByText('Upload your photos to create personalized AI content').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('uploads two PNGs, lists them for their owner only, and deletes one for good', async () => {
    const page = await newPage();
    await signUp(page);
    await openPageAndAttest(page);

    const { dialog, input } = await openDialog(page);
    await input.setInputFiles([png('first.png', [200, 40, 120]), png('second.png', [30, 160, 90])]);
    await dialog.getByText('2 files selected').waitFor();
    const registrations: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/upload-self-ai')) registrations.push(request.postData() ?? '');
    });
    // No automatic start: nothing is sent until the member presses Upload.
    expect(registrations).toEqual([]);
    // Registration is held back a moment so the processing state can be seen, on the page and in the dialog.
    await page.route('**/api/upload-self-ai', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await dialog.getByRole('button', { name: 'Upload 2 files' }).click();
    await page.getByTestId('self-ai-processing').getByText('Processing your upload...').waitFor();
    await dialog.locator('.uppy-StatusBar').getByText('Processing your upload...').waitFor();

    await page.getByText('2 photo(s) uploaded successfully!').waitFor();
    await page.getByText("AI processing has begun. You'll be notified when your personalized content is ready.").waitFor();
    await page.getByText('Upload Successful!').waitFor();
    await page.getByText('Your photos have been uploaded. AI generation will begin shortly.').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect(registrations).toHaveLength(2);
    for (const body of registrations) expect(JSON.parse(body)).toMatchObject({ attestation: { ofSelf: true, adult: true } });

    // Listed, and still listed after a reload (from GET /api/self-ai/photos).
    await expect(photoCards(page).count()).resolves.toBe(2);
    await page.reload();
    await photoCards(page).nth(1).waitFor();
    await expect(photoCards(page).count()).resolves.toBe(2);
    const urls = await photoCards(page)
      .locator('img')
      .evaluateAll((images) => images.map((image) => image.getAttribute('src')!));
    // Both pictures load in the page, from their owner-only addresses.
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="self-ai-photo"] img')).every((image) => image.naturalWidth > 0),
    );

    // The owner reads the bytes; another member gets 404.
    const own = await page.request.get(`${platform.url}${urls[0]}`);
    expect(own.status()).toBe(200);
    expect(own.headers()['cache-control']).toContain('no-store');
    const stranger = await newPage();
    await signUp(stranger);
    await expect(stranger.request.get(`${platform.url}${urls[0]}`).then((response) => response.status())).resolves.toBe(404);

    // Delete one, after confirming: it leaves the grid and its address stops answering.
    const firstCard = photoCards(page).first();
    const deletedUrl = await firstCard.locator('img').getAttribute('src');
    await firstCard.getByRole('button', { name: /^Delete/ }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this photo?' });
    await confirm.getByRole('button', { name: 'Delete photo' }).click();
    await page.getByText('Photo Deleted').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="self-ai-photo"]').length === 1);
    await expect(page.request.get(`${platform.url}${deletedUrl}`).then((response) => response.status())).resolves.toBe(404);
    const kept = await page.request.get(`${platform.url}${urls[1]}`);
    expect(kept.status()).toBe(200);
  });

  it('refuses a sixth file, an 11 MB file and a text file named .png, each with its reason', async () => {
    const page = await newPage();
    await signUp(page);
    await openPageAndAttest(page);

    // Uppy's restrictions, in the page's words: at most 5 files, each at most 10 MB.
    let { dialog, input, informer } = await openDialog(page);
    const colours: [number, number, number][] = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 0],
      [0, 255, 255],
    ];
    const five = colours.map((colour, index) => png(`photo-${index + 1}.png`, colour));
    // Six at once: refused as a whole (with 5 chosen, the dialog offers no way to add another).
    await input.setInputFiles([...five, png('photo-6.png', [255, 0, 255])]);
    await informer('You can only upload 5 files').waitFor();
    await expect(dialog.locator('.uppy-Dashboard-Item').count()).resolves.toBe(0);
    await input.setInputFiles(five);
    await dialog.getByText('5 files selected').waitFor();
    await expect(dialog.getByRole('button', { name: 'Add more' }).count()).resolves.toBe(0);

    await page.reload();
    await openPageAndAttest(page);
    ({ dialog, input, informer } = await openDialog(page));
    await input.setInputFiles([{ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(11 * 1024 * 1024, 1) }]);
    await informer('huge.png exceeds maximum allowed size of 10 MB').waitFor();
    await expect(dialog.locator('.uppy-Dashboard-Item').count()).resolves.toBe(0);

    // A text file named .png passes the browser's checks; the server reads its bytes and refuses it.
    await input.setInputFiles([
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are not the pixels you are looking for\n') },
    ]);
    await dialog.getByRole('button', { name: 'Upload 1 file' }).click();
    await page.getByText('Upload Error').waitFor();
    await page.getByText('There was an error processing your upload. Please try again. Only JPG and PNG photos are accepted.').waitFor();
    await informer('Failed to upload notes.png').waitFor();
    // The dialog stays open with the refused file marked; nothing was added to the member's photos.
    await expect(dialog.isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('self-ai-success').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('self-ai-photos-empty').waitFor();
  });
});
