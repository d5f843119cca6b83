import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser } from 'playwright-core';
import { type LocalServer, a1111Routes, ollamaRoutes, startLocalServer } from '../../services/embedded/test/local-model-servers';
import { hasChromium, launchChromium } from './browser';
import { memberBrowser } from './member-browser';

jest.setTimeout(240_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;
const VIEWPORT = { width: 1280, height: 900 };

describeWithBrowser('the demo banner in Chromium', () => {
  const session = memberBrowser();

  it('says replies and pictures are placeholders with the one step to connect a model, and stays dismissed in this browser', async () => {
    const page = await session.newPage({ locale: 'en-US', viewport: VIEWPORT });
    await session.signUp(page, 'Dee');
    const banner = page.getByRole('region', { name: 'AI models' });
    await banner.getByText('Demo mode').waitFor();
    await banner.getByText('Chat replies and pictures are placeholders from the offline demo, not AI.').waitFor();
    await expect(banner.textContent()).resolves.toContain(
      'To connect a chat model, run Ollama on this computer and restart, or set CHAT_API_BASE_URL and CHAT_MODEL.',
    );
    await expect(banner.textContent()).resolves.toContain('A1111_URL or COMFYUI_URL');

    // Shown on every member screen until dismissed; dismissed, it stays gone after a reload and on other screens.
    await session.navigateTo(page, 'Gallery');
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Hide this message' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    await session.navigateTo(page, 'Characters');
    await page.waitForURL('**/characters**');
    await page.waitForLoadState('networkidle');
    expect(await banner.count()).toBe(0);
  });
});

describeWithBrowser('the banner naming what was found on this computer', () => {
  let ollama: LocalServer;
  let a1111: LocalServer;
  let platform: EmbeddedPlatform;
  let browser: Browser;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    ollama = await startLocalServer(ollamaRoutes({ running: 'ollama-ps' }));
    a1111 = await startLocalServer(a1111Routes());
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000' },
      probeLocalServers: { chat: [{ expected: 'Ollama', baseUrl: ollama.url }], images: [{ protocol: 'a1111', baseUrl: a1111.url }] },
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await ollama?.close();
    await a1111?.close();
  });

  it('names the chat and image models and their servers, without the demo label', async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: VIEWPORT });
    const password = 'a very good password';
    const registered = await context.request.post(`${platform.url}/api/auth/register`, {
      data: {
        email: `found-${randomUUID().slice(0, 8)}@example.com`,
        password,
        confirmPassword: password,
        firstName: 'Ola',
        dateOfBirth: '1990-05-17',
        acceptTerms: true,
      },
    });
    expect(registered.status()).toBe(201);
    const page = await context.newPage();
    await page.goto(`${platform.url}/dashboard`);
    const banner = page.getByRole('region', { name: 'AI models' });
    await banner.getByText('AI found on this computer').waitFor();
    await banner.getByText('Images: sd_xl_base_1.0.safetensors [31e35c80fc] via AUTOMATIC1111, found on this computer.').waitFor();
    await banner.getByText('Chat: llama3.2:3b via Ollama, found on this computer.').waitFor();
    expect(await banner.getByText('Demo mode').count()).toBe(0);
    await context.close();
  });
});
