import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext } from 'playwright-core';
import { ME_QUERY } from '../src/lib/session-api';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(240_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;
const PASSWORD = 'a very good password';

interface SentOperation {
  operationName?: string;
  query?: string;
  extensions?: { persistedQuery?: { sha256Hash?: string } };
}

/** The web app sends its trusted documents by hash alone, and the gateway knows every one of them. */
describeWithBrowser('persisted queries in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'trusted-documents.json')))
      throw new Error('Build the web app first: npm run build:web');
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

  it('sends queries and mutations as hashes the gateway answers without asking for the document', async () => {
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const email = `hashes-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await context.request.post(`${platform.url}/api/auth/register`, {
      data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Ada', dateOfBirth: '1990-05-17', acceptTerms: true },
    });
    expect(registered.status()).toBe(201);
    const page = await context.newPage();
    const sent: SentOperation[] = [];
    const answers: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/graphql') && request.method() === 'POST') sent.push(request.postDataJSON() as SentOperation);
    });
    page.on('response', (response) => {
      if (response.url().endsWith('/graphql'))
        void response.text().then(
          (text) => answers.push(text),
          () => undefined,
        );
    });

    await page.goto(`${platform.url}/dashboard`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.goto(`${platform.url}/chat`);
    await page
      .getByRole('button', { name: /new conversation/i })
      .first()
      .click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.goto(`${platform.url}/gallery`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');

    // The page's first `me` is the shell's plain fetch (lib/session-api.ts), made before any GraphQL client loads.
    const byApollo = sent.filter((operation) => operation.query !== ME_QUERY);
    expect(byApollo.map((operation) => operation.operationName)).toEqual(
      expect.arrayContaining(['CreateConversation', 'Conversations', 'PublicImages']),
    );
    // Every other operation went by its hash alone, and not one came back asking for its document.
    expect(byApollo.filter((operation) => operation.query !== undefined || !operation.extensions?.persistedQuery?.sha256Hash)).toEqual([]);
    expect(answers.filter((answer) => answer.includes('PERSISTED_QUERY_NOT_FOUND'))).toEqual([]);
  });
});
