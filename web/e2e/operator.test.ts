import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityRpc } from '@app/schema';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(240_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;
const PASSWORD = 'a very good password';

/** axe-core from a same-origin path, as a11y.test.ts serves it (the app's CSP allows no inline script). */
const AXE_PATH = '/__e2e__/axe.min.js';
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** Admins watch the platform from /operator: its instances and circuits, and the events as members act. */
describeWithBrowser('the operator screen in Chromium', () => {
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

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    await context.route(`${platform.url}${AXE_PATH}`, (route) =>
      route.fulfill({ contentType: 'application/javascript', body: AXE_SOURCE }),
    );
    return context;
  }

  /** Registers through `/api` (the context keeps the session cookie); answers the e-mail address. */
  async function register(context: BrowserContext, firstName: string): Promise<string> {
    const email = `op-${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
    const response = await context.request.post(`${platform.url}/api/auth/register`, {
      data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName, dateOfBirth: '1990-05-17', acceptTerms: true },
    });
    expect(response.status()).toBe(201);
    return email;
  }

  async function graphql<T>(context: BrowserContext, query: string): Promise<T> {
    const response = await context.request.post(`${platform.url}/graphql`, { data: { query } });
    const body = (await response.json()) as { data: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  /** An admin in a browser of their own: registered, given the role by the command line's way, then signed in afresh. */
  async function adminPage(): Promise<Page> {
    const email = await register(await newContext(), 'Ada');
    const admin = await platform.bus.request(identityRpc.grantRole, { email, role: 'admin', actorId: null, reason: 'e2e operator' }, {});
    expect(admin.role).toBe('admin');
    const page = await (await newContext()).newPage();
    await page.goto(`${platform.url}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('token-balance').waitFor();
    return page;
  }

  /** Serious and critical axe violations on the page, one line each (a11y.test.ts holds the full audit). */
  async function axeViolations(page: Page): Promise<string[]> {
    if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ url: AXE_PATH });
    return page.evaluate(async () => {
      type Result = { id: string; impact: string | null; nodes: { target: unknown[] }[] };
      const { axe } = window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Result[] }> } };
      const { violations } = await axe.run(document);
      return violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes.map((node) => node.target))}`);
    });
  }

  const events = (page: Page) => page.getByTestId('operator-event');

  /**
   * Does `act` until an event of `type` shows: the stream starts "from now on", and the screen cannot
   * tell when the server has begun listening, so the first actions may come too early.
   */
  async function actUntilShown(page: Page, type: string, act: () => Promise<unknown>) {
    const row = page.locator(`[data-testid="operator-event"][data-type="${type}"]`);
    for (let attempt = 0; attempt < 20 && (await row.count()) === 0; attempt += 1) {
      await act();
      await row
        .first()
        .waitFor({ timeout: 1_000 })
        .catch(() => undefined);
    }
    await row.first().waitFor({ timeout: 1_000 });
    return row;
  }

  it('shows the instances with their circuits, and the events live, filtered by subject', async () => {
    const page = await adminPage();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Operator' }).click();
    await page.waitForURL('**/operator');
    await page.getByRole('heading', { level: 1, name: 'Operator' }).waitFor();

    // Every service of the embedded platform answers, each instance with its circuits as words, not colour alone.
    for (const service of ['identity', 'chat', 'media']) {
      const group = page.locator(`[data-testid="service-group"][data-service="${service}"]`);
      await group.getByRole('heading', { level: 3, name: service }).waitFor();
      await group.getByTestId('service-instance').first().waitFor();
    }
    const service = (name: string) => page.locator(`[data-testid="service-group"][data-service="${name}"]`);
    await service('chat').locator('[data-testid="circuit"][data-state="CLOSED"]').getByText('chat-provider: Closed').waitFor();
    await service('media').locator('[data-testid="circuit"][data-state="CLOSED"]').getByText('image-provider: Closed').waitFor();
    await service('media').getByTestId('queue').filter({ hasText: 'media.image-jobs.waiting' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await service('media').getByTestId('service-instance').first().waitFor();

    // A member signs up: the event shows, by its actor, with its fields on demand.
    const member = await newContext();
    const registered = await actUntilShown(page, 'evt.identity.user.registered', () => register(member, 'Mira'));
    const { me } = await graphql<{ me: { id: string } }>(member, '{ me { id } }');
    const own = registered.filter({ hasText: `by ${me.id.slice(0, 8)}` });
    await own.getByRole('button', { name: 'Show data' }).click();
    await expect(own.getByTestId('operator-event-data').textContent()).resolves.toContain(`"userId": "${me.id}"`);
    await own.getByRole('button', { name: 'Hide data' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Only chat: a new list, where a member's sign-up no longer shows but their new conversation does.
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(page.getByLabel('Subject pattern').inputValue()).resolves.toBe('evt.chat.>');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByTestId('operator-events-empty').waitFor();
    const newConversation = () => graphql(member, 'mutation { createConversation { id } }');
    await actUntilShown(page, 'evt.chat.conversation.created', newConversation);
    const shown = await events(page).count();
    await register(await newContext(), 'Noor');
    await newConversation();
    await page.waitForFunction((before) => document.querySelectorAll('[data-testid="operator-event"]').length > before, shown);
    await expect(page.locator('[data-testid="operator-event"]:not([data-type^="evt.chat."])').count()).resolves.toBe(0);

    // Paused, the list stands still and says what is waiting; Resume shows it, Clear empties the list.
    const beforePause = await events(page).count();
    await page.getByRole('button', { name: 'Pause' }).click();
    await newConversation();
    await page
      .getByTestId('operator-events-waiting')
      .getByText(/^Paused: [1-9]\d* new events? (is|are) waiting\.$/)
      .waitFor();
    expect(await events(page).count()).toBe(beforePause);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForFunction((before) => document.querySelectorAll('[data-testid="operator-event"]').length > before, beforePause);
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByTestId('operator-events-empty').waitFor();

    // A pattern the server cannot read is said at its field.
    await page.getByLabel('Subject pattern').fill('evt.>.chat');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('This is not a subject pattern.', { exact: false }).waitFor();
    await expect(page.getByLabel('Subject pattern').getAttribute('aria-invalid')).resolves.toBe('true');
  });

  it('does not exist for a member who is not an admin', async () => {
    const context = await newContext();
    await register(context, 'Mo');
    const page = await context.newPage();
    await page.goto(`${platform.url}/operator`);
    await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();
    await expect(page.getByRole('menuitem', { name: 'Operator' }).count()).resolves.toBe(0);
    // The server refuses too, whatever the screen shows.
    const response = await context.request.post(`${platform.url}/graphql`, { data: { query: '{ operatorServices { id } }' } });
    const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
