import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(240_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;
const PASSWORD = 'a very good password';
const SECTIONS = ['authentication', 'scopes', 'limits', 'errors', 'pagination', 'subscriptions', 'examples'];
const EXPLORER_QUERY = '{ publicImages(first: 1) { nodes { id } } }';

const memoryInfra = () => ({ dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null });

/** Content-Security-Policy refusals the page reports (Chromium logs each as a console error). */
function watchCspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** Until GraphiQL's response pane shows `text` (Monaco renders it as many small spans). */
async function waitForResult(page: Page, text: string): Promise<void> {
  await page.waitForFunction((wanted) => document.querySelector('.result-window')?.textContent?.includes(wanted), text);
}

/** The API documentation and the GraphQL explorer, for visitors and members, and both turned off by configuration. */
describeWithBrowser('API documentation and GraphQL explorer in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  const newPage = async () => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    return { context, page: await context.newPage() };
  };

  beforeAll(async () => {
    for (const page of ['index.html', 'explorer.html']) {
      if (!fs.existsSync(path.join(__dirname, '..', 'dist', page))) throw new Error('Build the web app first: npm run build:web');
    }
    platform = await startEmbedded({ infra: memoryInfra(), gateway: { port: 0 }, env: { SIGNUPS_PER_IP_PER_HOUR: '1000' } });
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('shows a visitor every section, the error codes and examples written for this site', async () => {
    const { page } = await newPage();
    await page.goto(`${platform.url}/developers`);
    await page.getByTestId('developers-page').waitFor();
    await page.getByRole('heading', { level: 1 }).waitFor();
    for (const section of SECTIONS) {
      await page.getByTestId(`developers-section-${section}`).getByRole('heading', { level: 2 }).waitFor();
      await page.locator(`nav a[href="#${section}"]`).waitFor();
    }
    const errorCodes = page.getByTestId('developers-error-codes');
    await errorCodes.getByRole('row', { name: /RATE_LIMITED/ }).waitFor();
    expect(await errorCodes.locator('tbody tr').count()).toBeGreaterThanOrEqual(27);
    await page
      .getByTestId('developers-rate-limit-headers')
      .getByRole('row', { name: /RateLimit-Remaining/ })
      .waitFor();

    const curl = await page.getByTestId('developers-example-curl-query').textContent();
    expect(curl).toContain(`curl -s ${platform.url}/graphql`);
    expect(curl).toContain('Authorization: Bearer $API_TOKEN');
    const client = await page.getByTestId('developers-example-graphql-ws').textContent();
    expect(client).toContain(`url: '${platform.url.replace('http', 'ws')}/graphql'`);
    expect(client).toContain('connectionParams: { authorization: `Bearer ${token}` }');
    expect(await page.getByTestId('developers-auth-http').textContent()).toBe('Authorization: Bearer cpat_…');
  });

  it('opens the explorer from the page; it loads under the CSP, documents the schema and runs queries with the session', async () => {
    const { context, page } = await newPage();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const violations = watchCspViolations(page);
    await page.goto(`${platform.url}/developers`);
    await page.getByTestId('developers-explorer').getByRole('link').click();
    await page.waitForURL('**/developers/explorer');
    await page.locator('.graphiql-container').waitFor();
    expect(await page.title()).toBe('GraphQL explorer');

    // The schema comes with the explorer: the Docs pane lists the root types without an introspection request.
    await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor();

    // Pasted, as typing into the editor would close each bracket a second time.
    await page.locator('.graphiql-query-editor .monaco-editor').first().click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.evaluate((query) => navigator.clipboard.writeText(query), EXPLORER_QUERY);
    await page.keyboard.press('ControlOrMeta+V');
    // GraphiQL takes in an edit (the operation to run) 100 ms later, when it also stores the query.
    await page.waitForFunction((query) => localStorage.getItem('graphiql:query') === query, EXPLORER_QUERY);
    const run = page.getByRole('button', { name: /^Execute query/ });

    // Signed out, the API answers, but as to a visitor.
    await run.click();
    await waitForResult(page, '"UNAUTHENTICATED"');

    // Signed in (the session cookie is this browser's), the same query runs as the member.
    const email = `explorer-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await context.request.post(`${platform.url}/api/auth/register`, {
      data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Ada', dateOfBirth: '1990-05-17', acceptTerms: true },
    });
    expect(registered.status()).toBe(201);
    await run.click();
    await waitForResult(page, '"nodes"');
    const result = await page.locator('.result-window').textContent();
    expect(result).toContain('"publicImages"');
    expect(result).not.toContain('"errors"');
    expect(violations).toEqual([]);
  });

  it('shows a member the page in the member shell, with the way to their tokens', async () => {
    const { context, page } = await newPage();
    const email = `developers-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await context.request.post(`${platform.url}/api/auth/register`, {
      data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName: 'Ada', dateOfBirth: '1990-05-17', acceptTerms: true },
    });
    expect(registered.status()).toBe(201);
    await page.goto(`${platform.url}/developers`);
    await page.getByTestId('developers-page').waitFor();
    await page.getByRole('button', { name: 'Account menu' }).waitFor();
    await page.getByTestId('developers-section-authentication').locator('a[href="/settings/tokens"]').click();
    await page.waitForURL('**/settings/tokens');
    await page.getByRole('heading', { level: 1, name: 'Access tokens' }).waitFor();
  });

  describe('turned off by configuration', () => {
    let closed: EmbeddedPlatform;

    beforeAll(async () => {
      closed = await startEmbedded({
        infra: memoryInfra(),
        gateway: { port: 0 },
        env: { API_DOCS_ENABLED: 'false', GRAPHQL_EXPLORER_ENABLED: 'false' },
      });
    });
    afterAll(async () => {
      await closed?.stop();
    });

    it('answers the explorer with a 404 and the documentation with the not-found page', async () => {
      const { page } = await newPage();
      const explorer = await page.goto(`${closed.url}/developers/explorer`);
      expect(explorer?.status()).toBe(404);
      await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
      expect(await page.locator('.graphiql-container').count()).toBe(0);

      await page.goto(`${closed.url}/developers`);
      await page.getByRole('heading', { level: 1, name: '404 Page Not Found' }).waitFor();
      expect(await page.getByTestId('developers-page').count()).toBe(0);
    });
  });
});
