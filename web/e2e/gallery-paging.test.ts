import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { APIRequestContext, Browser, BrowserContext } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(240_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** Members who publish three images each (the free plan's month): 27 images, more than one page of 24. */
const PUBLISHERS = 9;
const IMAGES_EACH = 3;

/**
 * The public gallery past its first page: the next page arrives as the end of the grid scrolls into
 * view, every image once, and the cards keep their place while pictures load (ThumbHash placeholders
 * sized from each image's width and height).
 */
describeWithBrowser('gallery paging in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const prompts: string[] = [];

  async function register(request: APIRequestContext, firstName: string) {
    const password = 'a very good password';
    const response = await request.post(`${platform.url}/api/auth/register`, {
      data: {
        email: `paging-${randomUUID().slice(0, 8)}@example.com`,
        password,
        confirmPassword: password,
        firstName,
        dateOfBirth: '1990-05-17',
        acceptTerms: true,
      },
    });
    expect(response.status()).toBe(201);
  }

  /** One member makes three images through `/api` and publishes them. */
  async function publishThree(index: number) {
    const context = await browser.newContext();
    contexts.push(context);
    await register(context.request, `Painter${index}`);
    for (let image = 0; image < IMAGES_EACH; image += 1) {
      const prompt = `Harbour study number ${index * IMAGES_EACH + image + 1} at dusk`;
      const generated = await context.request.post(`${platform.url}/api/generate/image`, { data: { prompt }, timeout: 120_000 });
      expect(generated.status()).toBe(201);
      const { id } = (await generated.json()) as { id: string };
      const published = await context.request.put(`${platform.url}/api/images/${id}/visibility`, { data: { isPublic: true } });
      expect(published.status()).toBe(200);
      prompts.push(prompt);
    }
  }

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_GENERATIONS_PER_IP_PER_MINUTE: '1000', MEDIA_DEMO_STEP_DELAY_MS: '0' },
    });
    browser = await launchChromium();
    // One publisher at a time: all at once, the gateway's load shedding may answer 503 on a busy machine.
    for (let index = 0; index < PUBLISHERS; index += 1) await publishThree(index);
  });
  afterAll(async () => {
    for (const context of contexts.splice(0)) await context.close();
    await browser?.close();
    await platform?.stop();
  });

  it('loads the next page at the end of the grid, shows every image once, and does not shift the layout', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    await register(context.request, 'Viewer');
    const page = await context.newPage();
    // Layout shifts not caused by input, summed as the browser reports them (cumulative layout shift).
    await page.addInitScript(() => {
      const scope = window as unknown as { layoutShift: number };
      scope.layoutShift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
          if (!entry.hadRecentInput) scope.layoutShift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });

    await page.goto(`${platform.url}/gallery`);
    const cards = page.getByTestId('gallery-card');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="gallery-card"]').length >= 24);
    // The first page is 24 images; the rest wait for the scroll.
    await expect(cards.count()).resolves.toBe(24);
    // Every picture of the first page has loaded (the frames were sized before it arrived).
    await page.waitForFunction(() => {
      const images = Array.from(document.querySelectorAll<HTMLImageElement>('[data-testid="gallery-card"] img'));
      return (
        images.length > 0 &&
        images.filter((image) => image.getBoundingClientRect().top < window.innerHeight).every((image) => image.complete)
      );
    });
    const shiftOnLoad = await page.evaluate(() => (window as unknown as { layoutShift: number }).layoutShift);
    expect(shiftOnLoad).toBeLessThan(0.1);

    await page.getByTestId('infinite-scroll-sentinel').scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (total) => document.querySelectorAll('[data-testid="gallery-card"]').length === total,
      PUBLISHERS * IMAGES_EACH,
    );
    const shown = await page.getByTestId('card-prompt').allInnerTexts();
    expect([...shown].sort()).toEqual([...prompts].sort());
    // Newest first, in the server's order.
    const listed = await context.request.get(`${platform.url}/api/images/public?limit=100`);
    const serverOrder = ((await listed.json()) as { prompt: string }[]).map((image) => image.prompt);
    expect(shown).toEqual(serverOrder);
    // The end is the end: nothing more to load.
    await expect(page.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
  });
});
