import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(180_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** PNG files start with these eight bytes. */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The image generator and the gallery, with the offline demo renderer (10 drawing steps, slowed
 * down so the progress can be watched). Each test signs up fresh members: the free plan allows 3
 * images a month.
 */
describeWithBrowser('image generator and gallery in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_DEMO_STEP_DELAY_MS: '200' },
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
    // A common laptop screen: the generation progress must show there without scrolling by hand.
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1366, height: 900 } });
    contexts.push(context);
    return context.newPage();
  }

  async function signUp(page: Page, firstName: string, lastName: string) {
    const password = 'a very good password';
    await page.goto(`${platform.url}/signup`);
    await page.getByLabel('Email').fill(`media-${randomUUID().slice(0, 8)}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByLabel('First name').fill(firstName);
    await page.getByLabel('Last name').fill(lastName);
    await page.getByLabel('Date of birth').fill('1990-05-17');
    await page.getByLabel('I am 18 or older and I accept the Terms of Service').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('token-balance').waitFor();
  }

  /** Client-side navigation through the nav bar, so nothing reloads. */
  async function navigateTo(page: Page, link: string) {
    await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).first().click();
  }

  const tokenCount = (page: Page) => page.getByTestId('generator-token-count');
  const promptBox = (page: Page) => page.getByLabel('Describe your image');
  const progressBar = (page: Page) => page.getByTestId('generation-progress').getByRole('progressbar');

  /** Records every distinct aria-valuenow the generation progress bar shows, from now on. */
  async function recordProgress(page: Page) {
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __progress: string[] }).__progress = seen;
      const sample = () => {
        const value = document.querySelector('[data-testid="generation-progress"] [role="progressbar"]')?.getAttribute('aria-valuenow');
        if (value != null && seen[seen.length - 1] !== value) seen.push(value);
      };
      new MutationObserver(sample).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['aria-valuenow'],
      });
    });
  }
  const recordedProgress = (page: Page) => page.evaluate(() => (window as unknown as { __progress: string[] }).__progress.map(Number));

  /** The element is wholly inside the viewport (the member sees it without scrolling). */
  const waitInView = (page: Page, testId: string) =>
    page.waitForFunction((id) => {
      const rect = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
      return rect != null && rect.height > 0 && rect.top >= 0 && rect.bottom <= window.innerHeight;
    }, testId);

  const waitForText = (page: Page, testId: string, text: string) =>
    page.waitForFunction(([id, expected]) => document.querySelector(`[data-testid="${id}"]`)?.textContent === expected, [testId, text]);

  it('generates with live progress, publishes, and another member finds, likes, searches and downloads it', async () => {
    const prompt = 'Moonlit Harbor with Copper Sailboats drifting past a Glass Lighthouse at midnight';
    const fileName = `${prompt.slice(0, 50)}.png`;
    expect(prompt.length).toBeGreaterThan(50);

    // Member A opens the generator: demo label, balance, defaults, three quick ideas.
    const pageA = await newPage();
    await signUp(pageA, 'Ada', 'Lovelace');
    await navigateTo(pageA, 'Generator');
    await pageA.getByRole('heading', { name: 'Image Generator', level: 1 }).waitFor();
    await expect(pageA.getByTestId('demo-renderer-notice').innerText()).resolves.toBe('Demo renderer — abstract pictures, not AI');
    await expect(tokenCount(pageA).innerText()).resolves.toBe('15');
    await expect(pageA.getByLabel('Size').inputValue()).resolves.toBe('SQUARE');
    await expect(pageA.getByLabel('Size').locator('option:checked').innerText()).resolves.toBe('1024x1024 (Square)');
    await expect(pageA.getByLabel('Quality').inputValue()).resolves.toBe('STANDARD');
    await expect(pageA.getByLabel('Style').inputValue()).resolves.toBe('VIVID');
    await expect(pageA.getByLabel('Size').locator('option').allInnerTexts()).resolves.toEqual([
      '1024x1024 (Square)',
      '1792x1024 (Landscape)',
      '1024x1792 (Portrait)',
    ]);
    await pageA.getByText('No images yet').waitFor();
    await expect(pageA.getByTestId('quick-idea').count()).resolves.toBe(3);

    // Blank prompts: the button is disabled, and Ctrl+Enter explains why.
    const generateButton = pageA.getByTestId('generate-button');
    await expect(generateButton.isDisabled()).resolves.toBe(true);
    await promptBox(pageA).fill('   ');
    await expect(generateButton.isDisabled()).resolves.toBe(true);
    await promptBox(pageA).press('Control+Enter');
    await pageA.getByText('Prompt Required').waitFor();
    await pageA.getByText('Please enter a description for your image.').waitFor();

    // A quick idea fills the prompt box.
    await pageA.getByTestId('quick-idea').first().click();
    await expect(promptBox(pageA).inputValue()).resolves.not.toBe('');
    await expect(generateButton.isDisabled()).resolves.toBe(false);

    // Generate: the button, the text and a progress bar that moves with the renderer's steps.
    await promptBox(pageA).fill(`  ${prompt}  `);
    await pageA.getByLabel('Size').selectOption('LANDSCAPE');
    await pageA.getByLabel('Quality').selectOption('HD');
    await recordProgress(pageA);
    await generateButton.click();
    await pageA.getByText('Creating your masterpiece...').waitFor();
    await waitInView(pageA, 'generation-progress');
    await expect(generateButton.innerText()).resolves.toBe('Generating...');
    await expect(generateButton.isDisabled()).resolves.toBe(true);
    await progressBar(pageA).waitFor();
    await pageA.getByText('Image Generated!').waitFor();
    await pageA.getByText('Your AI artwork has been created successfully.').waitFor();
    const seen = await recordedProgress(pageA);
    expect(new Set(seen).size).toBeGreaterThanOrEqual(2);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    await pageA.getByTestId('generation-progress').waitFor({ state: 'detached' });
    await expect(generateButton.innerText()).resolves.toBe('Generate Image');
    // The prompt was trimmed before it was sent.
    await expect(promptBox(pageA).inputValue()).resolves.toBe(prompt);

    // The latest creation: the picture in its own proportions, prompt and settings; the balance dropped live.
    const latest = pageA.getByTestId('latest-creation');
    await expect(latest.getByTestId('latest-prompt').innerText()).resolves.toBe(prompt);
    await expect(latest.getByTestId('latest-settings').innerText()).resolves.toBe('1792x1024 (Landscape) · hd · vivid');
    await latest.getByTestId('demo-badge').waitFor();
    await latest.locator('[data-testid="latest-image"][data-loaded="true"]').waitFor();
    const frame = await latest.getByTestId('latest-image').boundingBox();
    expect(frame!.width / frame!.height).toBeCloseTo(1792 / 1024, 1);
    await waitForText(pageA, 'generator-token-count', '14');
    await pageA.getByTestId('creation-item').first().waitFor();
    await expect(pageA.getByTestId('creation-item').count()).resolves.toBe(1);

    // The owner downloads the private image.
    const ownDownload = pageA.waitForEvent('download');
    await latest.getByRole('button', { name: 'Download' }).click();
    expect((await ownDownload).suggestedFilename()).toBe(fileName);

    // Make it public: the rating comes first.
    await latest.getByTestId('visibility-switch').click();
    await latest.getByTestId('publish-rating').getByText('Safe', { exact: true }).click();
    await latest.getByTestId('publish-rating').getByRole('button', { name: 'Publish' }).click();
    await pageA.getByText('Visibility Updated').waitFor();
    await pageA.getByText('Image visibility has been updated successfully.').waitFor();
    await latest.getByTestId('visibility-badge').getByText('Public').waitFor();
    await latest.getByTestId('rating-badge').getByText('Safe').waitFor();
    await expect(latest.getByRole('checkbox', { name: 'Public' }).isChecked()).resolves.toBe(true);

    // Member B sees it in the Public Gallery, with its creator, and likes it once.
    const pageB = await newPage();
    await signUp(pageB, 'Grace', 'Hopper');
    await navigateTo(pageB, 'Gallery');
    await pageB.getByRole('heading', { name: 'AI Gallery', level: 1 }).waitFor();
    await expect(pageB.getByRole('tab', { name: 'Public Gallery' }).getAttribute('aria-selected')).resolves.toBe('true');
    const card = pageB.getByTestId('gallery-card').filter({ hasText: prompt });
    await card.waitFor();
    await card.getByTestId('demo-badge').waitFor();
    await card.getByText('by Ada Lovelace').waitFor();
    await card.click();
    const dialog = pageB.getByRole('dialog', { name: 'Image Details' });
    await dialog.waitFor();
    await expect(dialog.getByTestId('details-prompt').innerText()).resolves.toBe(prompt);
    await expect(dialog.getByTestId('details-creator').innerText()).resolves.toBe('Ada Lovelace');
    await expect(dialog.getByTestId('details-model').innerText()).resolves.toBe('demo-renderer (demo, not AI)');
    await dialog.getByText('1792x1024 (Landscape)').waitFor();
    await dialog.getByText('hd', { exact: true }).waitFor();
    await expect(dialog.getByTestId('details-likes').innerText()).resolves.toBe('0 likes');
    await expect(dialog.getByRole('checkbox', { name: 'Public' }).count()).resolves.toBe(0);

    // One button, Like or Unlike, from likedByMe; each toast says what happened.
    const likeButton = dialog.getByTestId('like-button');
    await expect(likeButton.innerText()).resolves.toBe('Like');
    await likeButton.click();
    await pageB.getByText('Liked!').waitFor();
    await waitForText(pageB, 'details-likes', '1 like');
    await waitForText(pageB, 'like-button', 'Unlike');
    await expect(dialog.getByRole('button', { name: 'Like', exact: true }).count()).resolves.toBe(0);
    await likeButton.click();
    await pageB.getByText('Like removed').waitFor();
    await waitForText(pageB, 'details-likes', '0 likes');
    await waitForText(pageB, 'like-button', 'Like');
    await expect(dialog.getByRole('button', { name: 'Unlike' }).count()).resolves.toBe(0);
    await likeButton.click();
    await waitForText(pageB, 'details-likes', '1 like');
    await waitForText(pageB, 'like-button', 'Unlike');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect(card.getByTestId('card-likes').innerText()).resolves.toBe('1 like');

    // The server kept it: one like after a reload, too.
    await pageB.reload();
    await card.waitFor();
    await expect(card.getByTestId('card-likes').innerText()).resolves.toBe('1 like');

    // Server-side search: a substring of the prompt in another case finds it; other words find nothing.
    const search = pageB.getByRole('searchbox', { name: 'Search images' });
    await search.fill('copper SAILBOATS drift');
    await pageB.waitForResponse(
      (response) => response.url().endsWith('/graphql') && /copper SAILBOATS drift/.test(response.request().postData() ?? ''),
    );
    await card.waitFor();
    await expect(pageB.getByTestId('gallery-card').count()).resolves.toBe(1);
    await search.fill('zebra crossing');
    await pageB.getByText('No images match “zebra crossing”').waitFor();
    await search.fill('GLASS lighthouse');
    await card.waitFor();

    // List view shows the same card.
    await pageB.getByRole('button', { name: 'List view' }).click();
    await pageB.locator('[data-testid="gallery-grid"][data-view="list"]').waitFor();
    await expect(pageB.getByRole('button', { name: 'List view' }).getAttribute('aria-pressed')).resolves.toBe('true');
    await card.waitFor();

    // Download from the gallery: named after the first 50 characters of the prompt, a real PNG.
    await card.click();
    await dialog.waitFor();
    const downloading = pageB.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(fileName);
    const saved = fs.readFileSync((await download.path())!);
    expect(saved.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);

    // "Use these settings" opens the generator with the prompt and settings, the recorded seed included.
    const seed = await dialog.getByTestId('details-seed').innerText();
    expect(seed).toMatch(/^\d+$/);
    await dialog.getByRole('button', { name: 'Use these settings' }).click();
    await pageB.waitForURL(/\/generator$/);
    await expect(promptBox(pageB).inputValue()).resolves.toBe(prompt);
    await expect(pageB.getByLabel('Size').inputValue()).resolves.toBe('LANDSCAPE');
    await expect(pageB.getByLabel('Quality').inputValue()).resolves.toBe('HD');
    await expect(pageB.getByLabel('Style').inputValue()).resolves.toBe('VIVID');
    await expect(pageB.getByLabel('Seed').inputValue()).resolves.toBe(seed);
    await expect(tokenCount(pageB).innerText()).resolves.toBe('15');

    // Decision 040: the owner may like their own public image too, once.
    await navigateTo(pageA, 'Gallery');
    await pageA.getByTestId('gallery-card').filter({ hasText: prompt }).click();
    const ownPublicDialog = pageA.getByRole('dialog', { name: 'Image Details' });
    await expect(ownPublicDialog.getByRole('button', { name: 'Report' }).count()).resolves.toBe(0);
    await ownPublicDialog.getByTestId('like-button').click();
    await waitForText(pageA, 'details-likes', '2 likes');
    await waitForText(pageA, 'like-button', 'Unlike');
    await ownPublicDialog.getByRole('button', { name: 'Close' }).click();
    await ownPublicDialog.waitFor({ state: 'detached' });

    // Member A's own tab lists it as public; a stranger's empty My Images tab says so.
    await pageA.getByRole('tab', { name: 'My Images' }).click();
    const ownCard = pageA.getByTestId('gallery-card').filter({ hasText: prompt });
    await ownCard.getByTestId('visibility-badge').getByText('Public').waitFor();
    await navigateTo(pageB, 'Gallery');
    await pageB.getByRole('tab', { name: 'My Images' }).click();
    await pageB.getByText('No images yet').waitFor();
    await pageB.getByRole('link', { name: 'Create your first image' }).waitFor();

    // A makes it private again from the gallery: it leaves the public list.
    await ownCard.click();
    const ownDialog = pageA.getByRole('dialog', { name: 'Image Details' });
    await expect(ownDialog.getByRole('checkbox', { name: 'Public' }).isChecked()).resolves.toBe(true);
    await ownDialog.getByTestId('visibility-switch').click();
    await pageA.getByText('Visibility Updated').waitFor();
    await expect(ownDialog.getByRole('checkbox', { name: 'Public' }).isChecked()).resolves.toBe(false);
    await ownDialog.getByRole('button', { name: 'Close' }).click();
    await ownCard.getByTestId('visibility-badge').getByText('Private').waitFor();
    await pageA.getByRole('tab', { name: 'Public Gallery' }).click();
    await pageA.getByText('No public images yet').waitFor();

    // A deletes it: the first press only arms the button, the second removes the image for good.
    await pageA.getByRole('tab', { name: 'My Images' }).click();
    await ownCard.click();
    await ownDialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await ownDialog.getByRole('button', { name: 'Delete for good' }).waitFor();
    // Closing disarms it: reopened, the image asks twice again.
    await ownDialog.getByRole('button', { name: 'Close' }).click();
    await ownDialog.waitFor({ state: 'detached' });
    await ownCard.click();
    await expect(ownDialog.getByRole('button', { name: 'Delete for good' }).count()).resolves.toBe(0);
    await ownDialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await ownDialog.getByRole('button', { name: 'Delete for good' }).click();
    await pageA.getByText('Image Deleted').waitFor();
    await ownDialog.waitFor({ state: 'detached' });
    await pageA.getByText('No images yet').waitFor();
    await pageA.reload();
    await pageA.getByRole('tab', { name: 'My Images' }).click();
    await pageA.getByText('No images yet').waitFor();
  });

  it('picks the progress back up after a reload, and cancels with a refund', async () => {
    const page = await newPage();
    await signUp(page, 'Lin', 'Tan');
    await page.goto(`${platform.url}/generator`);
    await expect(tokenCount(page).innerText()).resolves.toBe('15');

    // Reload in the middle of a generation: the progress carries on and the image arrives.
    await promptBox(page).fill('A paper crane folded from a city map');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await page.waitForFunction(
      () => Number(document.querySelector('[data-testid="generation-progress"] [role="progressbar"]')?.getAttribute('aria-valuenow')) >= 20,
    );
    await page.reload();
    await progressBar(page).waitFor();
    await expect(page.getByTestId('generate-button').innerText()).resolves.toBe('Generating...');
    await page.getByText('Image Generated!').waitFor();
    await expect(page.getByTestId('latest-prompt').innerText()).resolves.toBe('A paper crane folded from a city map');
    await waitForText(page, 'generator-token-count', '14');

    // Cancel: the job stops and its token comes back.
    await promptBox(page).fill('A lantern festival over a quiet river');
    await page.getByRole('button', { name: 'Generate Image' }).click();
    await progressBar(page).waitFor();
    await waitForText(page, 'generator-token-count', '13');
    await page.getByTestId('generation-progress').getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Generation Cancelled').waitFor();
    await page.getByTestId('generation-progress').waitFor({ state: 'detached' });
    await waitForText(page, 'generator-token-count', '14');
    await expect(page.getByTestId('latest-prompt').innerText()).resolves.toBe('A paper crane folded from a city map');
    await expect(page.getByTestId('creation-item').count()).resolves.toBe(1);
  });
  it('offers the advanced settings the renderer honours, checks them, records them, and never calls a gallery with unloadable pictures empty', async () => {
    const page = await newPage();
    await signUp(page, 'Mae', 'Jemison');
    await page.goto(`${platform.url}/generator`);

    // Collapsed by default; the demo renderer honours only the seed, so no other setting is offered.
    const toggle = page.getByTestId('advanced-toggle');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.getByLabel('Seed').isVisible()).resolves.toBe(false);
    await toggle.click();
    await page.getByLabel('Seed').waitFor();
    await expect(page.getByLabel('Steps').count()).resolves.toBe(0);
    await expect(page.getByLabel('Negative prompt').count()).resolves.toBe(0);

    // An out-of-range seed is explained before anything is sent.
    await promptBox(page).fill('A brass telescope on a windowsill');
    await page.getByLabel('Seed').fill('-5');
    await page.getByTestId('generate-button').click();
    await page.getByText('Enter a whole number from 0 to 2147483647, or leave it empty for a random seed.').waitFor();
    await expect(page.getByTestId('generation-progress').count()).resolves.toBe(0);
    await expect(tokenCount(page).innerText()).resolves.toBe('15');

    await page.getByLabel('Seed').fill('424242');
    await page.getByTestId('generate-button').click();
    await page.getByText('Image Generated!').waitFor();

    // The image records the seed; "Use these settings" brings it back, with the section open.
    await navigateTo(page, 'Gallery');
    await page.getByRole('tab', { name: 'My Images' }).click();
    await page.getByTestId('gallery-card').first().click();
    const dialog = page.getByRole('dialog', { name: 'Image Details' });
    await expect(dialog.getByTestId('details-seed').innerText()).resolves.toBe('424242');
    await dialog.getByRole('button', { name: 'Use these settings' }).click();
    await page.waitForURL(/\/generator$/);
    await expect(page.getByTestId('advanced-toggle').getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(page.getByLabel('Seed').inputValue()).resolves.toBe('424242');

    // Pictures that cannot be loaded hide their cards, but the gallery does not claim to be empty.
    await page.route('**/*', (route) => (route.request().resourceType() === 'image' ? route.abort() : route.continue()));
    await page.goto(`${platform.url}/gallery?tab=mine`);
    await page.getByTestId('gallery-unavailable').waitFor();
    await expect(page.getByText('No images yet').count()).resolves.toBe(0);
    await page.goto(`${platform.url}/generator`);
    await page
      .getByTestId('creations-empty')
      .getByText('Your images are saved, but their pictures could not be loaded just now.')
      .waitFor();
    await expect(page.getByText('No images yet').count()).resolves.toBe(0);
  });

  it('explains a refused generation with the server\'s words under "Generation Failed"', async () => {
    const page = await newPage();
    await signUp(page, 'Noor', 'Haddad');
    // The free plan's three images this month, made through the API.
    const graphql = async <T>(query: string, variables: object = {}): Promise<T> => {
      const response = await page.request.post(`${platform.url}/graphql`, { data: { query, variables } });
      const body = (await response.json()) as { data: T; errors?: unknown };
      expect(body.errors).toBeUndefined();
      return body.data;
    };
    for (let index = 0; index < 3; index += 1) {
      await graphql('mutation($input: GenerateImageInput!) { generateImage(input: $input) { id } }', {
        input: { prompt: `A still life with ${index + 1} pears` },
      });
    }
    await page.goto(`${platform.url}/generator`);
    // The screen follows those jobs too until they are done.
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="creation-item"]').length === 3);
    await page.getByTestId('generation-progress').waitFor({ state: 'detached' });
    await promptBox(page).fill('One image too many');
    await page.getByTestId('generate-button').click();
    await page.getByText('Generation Failed').waitFor();
    const description = await page.locator('[data-scope="toast"][data-part="description"]').innerText();
    expect(description).toMatch(/^You have used all of this month's free image generations\. They start again on .+\.$/);
    // Nothing was queued: the form is ready again.
    await expect(page.getByTestId('generate-button').innerText()).resolves.toBe('Generate Image');
    await expect(page.getByTestId('generation-progress').count()).resolves.toBe(0);
  });
});
