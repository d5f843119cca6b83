import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { identityRpc } from '@app/schema';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(240_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

const DESKTOP = { width: 1280, height: 900 };
/** The narrowest phone the screens are made for. */
const PHONE = { width: 360, height: 780 };
const PASSWORD = 'a very good password';

/**
 * Trust and safety in the browser: ratings and blurring, a member's report, the moderators' queue
 * and audit log, the owner's notice, a signed-out visitor's takedown request, and a suspension.
 */
describeWithBrowser('moderation in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_GENERATIONS_PER_IP_PER_MINUTE: '1000', MEDIA_DEMO_STEP_DELAY_MS: '0' },
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

  async function newContext(viewport = DESKTOP): Promise<BrowserContext> {
    const context = await browser.newContext({ locale: 'en-US', viewport });
    contexts.push(context);
    return context;
  }

  /** Registers through `/api` (the context keeps the session cookie); answers the e-mail address. */
  async function register(context: BrowserContext, firstName: string, lastName: string): Promise<string> {
    const email = `mod-${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
    const response = await context.request.post(`${platform.url}/api/auth/register`, {
      data: { email, password: PASSWORD, confirmPassword: PASSWORD, firstName, lastName, dateOfBirth: '1990-05-17', acceptTerms: true },
    });
    expect(response.status()).toBe(201);
    return email;
  }

  async function graphql<T>(context: BrowserContext, query: string, variables: object = {}): Promise<T> {
    const response = await context.request.post(`${platform.url}/graphql`, { data: { query, variables } });
    const body = (await response.json()) as { data: T; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  /** One image through `/api`, waited for until it is stored; answers its id. */
  async function generateImage(context: BrowserContext, prompt: string): Promise<string> {
    const generated = await context.request.post(`${platform.url}/api/generate/image`, { data: { prompt }, timeout: 120_000 });
    expect(generated.status()).toBe(201);
    return ((await generated.json()) as { id: string }).id;
  }

  /** The operator's way to the first moderators: the identity service's grantRole with no acting admin (the command line). */
  async function makeModerator(email: string) {
    const user = await platform.bus.request(
      identityRpc.grantRole,
      { email, role: 'moderator', actorId: null, reason: 'e2e moderator' },
      {},
    );
    expect(user.role).toBe('moderator');
  }

  async function signIn(page: Page, email: string) {
    await page.goto(`${platform.url}/signin`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** A moderator in a browser of their own: registered, given the role, then signed in afresh. */
  async function moderatorPage(viewport = DESKTOP): Promise<{ page: Page; email: string }> {
    const setup = await newContext();
    const email = await register(setup, 'Mona', 'Moderator');
    await makeModerator(email);
    const page = await (await newContext(viewport)).newPage();
    await signIn(page, email);
    await page.getByTestId('token-balance').waitFor();
    return { page, email };
  }

  const noHorizontalOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  it('rates, blurs, reports, removes with a reason, tells the owner and keeps the audit log', async () => {
    const safePrompt = `Lighthouse keeper's cottage under a violet sky ${randomUUID().slice(0, 6)}`;
    const explicitPrompt = `Velvet boudoir study in candlelight ${randomUUID().slice(0, 6)}`;

    // Member A makes two images and publishes the first through the Image Details dialog: the rating comes first.
    const contextA = await newContext();
    await register(contextA, 'Ada', 'Lovelace');
    const safeId = await generateImage(contextA, safePrompt);
    const explicitId = await generateImage(contextA, explicitPrompt);
    await graphql(contextA, 'mutation($id: ID!) { setImageVisibility(id: $id, isPublic: true, rating: EXPLICIT) { id } }', {
      id: explicitId,
    });
    const pageA = await contextA.newPage();
    await pageA.goto(`${platform.url}/gallery?tab=mine`);
    await pageA.getByTestId('gallery-card').filter({ hasText: safePrompt }).click();
    const detailsA = pageA.getByRole('dialog', { name: 'Image Details' });
    await detailsA.getByTestId('visibility-switch').click();
    const ratingPanel = detailsA.getByTestId('publish-rating');
    await ratingPanel.waitFor();
    // Publishing without a rating is not possible; cancelling leaves the image private.
    await ratingPanel.getByRole('button', { name: 'Publish' }).click();
    await ratingPanel.getByText('Please choose a rating.').waitFor();
    await expect(ratingPanel.getByRole('radio', { name: 'Explicit' }).getAttribute('aria-describedby')).resolves.toBeTruthy();
    await ratingPanel.getByRole('button', { name: 'Cancel' }).click();
    await ratingPanel.waitFor({ state: 'detached' });
    await expect(detailsA.getByRole('checkbox', { name: 'Public' }).isChecked()).resolves.toBe(false);
    await detailsA.getByTestId('visibility-switch').click();
    // Focus moves into the choice, so a keyboard user can pick at once.
    await pageA.waitForFunction(() => document.activeElement?.getAttribute('type') === 'radio');
    await ratingPanel.getByText('Safe', { exact: true }).click();
    await ratingPanel.getByRole('button', { name: 'Publish' }).click();
    await pageA.getByText('Visibility Updated').waitFor();
    await detailsA.getByTestId('details-rating').getByText('Safe').waitFor();
    await expect(detailsA.getByRole('checkbox', { name: 'Public' }).isChecked()).resolves.toBe(true);
    // Her own pictures are never blurred and have no Report, on the public tab too.
    await detailsA.getByRole('button', { name: 'Close' }).click();
    await pageA.getByRole('tab', { name: 'Public Gallery' }).click();
    // In the Public Gallery's own panel: the My Images panel may still be leaving, holding the same card.
    const ownExplicit = pageA
      .getByRole('tabpanel', { name: 'Public Gallery' })
      .locator(`[data-testid="gallery-card"][data-image-id="${explicitId}"]`);
    await ownExplicit.waitFor();
    await expect(pageA.locator('[data-blurred="true"]').count()).resolves.toBe(0);
    await ownExplicit.click();
    await pageA.getByRole('dialog', { name: 'Image Details' }).waitFor();
    await expect(pageA.getByRole('button', { name: 'Report' }).count()).resolves.toBe(0);

    // Member B, on a phone: the safe picture shows with its badge, the explicit one is blurred until Show.
    const contextB = await newContext(PHONE);
    const emailB = await register(contextB, 'Grace', 'Hopper');
    const pageB = await contextB.newPage();
    await pageB.goto(`${platform.url}/gallery`);
    const safeCard = pageB.locator(`[data-testid="gallery-card"][data-image-id="${safeId}"]`);
    const explicitCard = pageB.locator(`[data-testid="gallery-card"][data-image-id="${explicitId}"]`);
    await safeCard.getByTestId('rating-badge').getByText('Safe').waitFor();
    await explicitCard.getByTestId('rating-badge').getByText('Explicit').waitFor();
    const explicitTile = pageB.locator('[data-blurred="true"]').filter({ has: explicitCard });
    await explicitTile.waitFor();
    await expect(pageB.locator('[data-blurred="true"]').count()).resolves.toBe(1);
    expect(await noHorizontalOverflow(pageB)).toBe(true);
    await explicitTile.getByRole('button', { name: 'Show Explicit content' }).click();
    await expect(pageB.locator('[data-blurred="true"]').count()).resolves.toBe(0);

    // Content preferences: hiding Explicit leaves that picture out (the server filters it).
    await pageB.getByRole('button', { name: 'Account menu' }).click();
    await pageB.getByRole('menuitem', { name: 'Content preferences' }).click();
    const preferences = pageB.getByRole('dialog', { name: 'Content preferences' });
    await expect(preferences.getByTestId('preference-explicit').getByRole('radio', { name: 'Blur' }).isChecked()).resolves.toBe(true);
    await preferences.getByTestId('preference-explicit').getByText('Hide', { exact: true }).click();
    await preferences.getByRole('button', { name: 'Save' }).click();
    await pageB.getByText('Preferences saved').waitFor();
    await explicitCard.waitFor({ state: 'detached' });
    await safeCard.waitFor();

    // B reports the safe picture from its details: a reason (each explained) and details.
    await safeCard.click();
    const detailsB = pageB.getByRole('dialog', { name: 'Image Details' });
    await detailsB.getByRole('button', { name: 'Report' }).click();
    const report = pageB.getByRole('dialog', { name: 'Report image' });
    await report.waitFor();
    await expect(report.getByRole('radio').count()).resolves.toBe(6);
    await report.getByRole('button', { name: 'Send report' }).click();
    await report.getByText('Please choose a reason.').waitFor();
    await report.getByText('Real person', { exact: true }).click();
    await report.getByLabel('Details').fill('This looks like a famous actress.');
    expect(await noHorizontalOverflow(pageB)).toBe(true);
    await report.getByRole('button', { name: 'Send report' }).click();
    await pageB.getByText('Thanks — our moderators will review it.').waitFor();
    await report.waitFor({ state: 'detached' });

    // B is no moderator: no Moderation link, and the screen does not exist for them.
    await pageB.goto(`${platform.url}/moderation`);
    await pageB.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    await expect(pageB.getByRole('link', { name: 'Moderation' }).count()).resolves.toBe(0);

    // The moderator finds the case in the queue, with the picture, the reason, the details and who reported it.
    const { page: pageM, email: moderatorEmail } = await moderatorPage();
    await pageM.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Moderation' }).click();
    await pageM.getByRole('heading', { name: 'Moderation', level: 1 }).waitFor();
    const reportCase = pageM.locator(`[data-testid="moderation-case"][data-target-id="${safeId}"]`);
    await reportCase.waitFor();
    await expect(reportCase.getByTestId('case-reason').innerText()).resolves.toBe('Real person');
    await expect(reportCase.getByTestId('case-details').innerText()).resolves.toBe('This looks like a famous actress.');
    await expect(reportCase.getByTestId('case-reporter').innerText()).resolves.toBe(`Grace Hopper · ${emailB}`);
    // The owner is not suspended: suspending is offered, unsuspending is not.
    await expect(reportCase.getByTestId('case-owner-suspended').count()).resolves.toBe(0);
    await reportCase.getByRole('button', { name: 'Suspend owner', exact: true }).waitFor();
    await expect(reportCase.getByRole('button', { name: 'Unsuspend owner' }).count()).resolves.toBe(0);
    await expect(reportCase.getByTestId('case-item-text').innerText()).resolves.toBe(safePrompt);
    await expect(reportCase.getByTestId('case-deadline').innerText()).resolves.toMatch(/^Due in \d+ hours$/);
    await pageM.waitForFunction((id) => {
      const picture = document.querySelector<HTMLImageElement>(`[data-target-id="${id}"] [data-testid="case-picture"]`);
      return Boolean(picture?.complete && picture.naturalWidth > 0);
    }, safeId);

    // Remove: a reason is required; then the case leaves the queue.
    await reportCase.getByRole('button', { name: 'Remove', exact: true }).click();
    const action = pageM.getByRole('dialog', { name: 'Remove' });
    await action.getByRole('button', { name: 'Confirm' }).click();
    await action.getByText('Please give a reason.').waitFor();
    const reason = 'Depicts a real person without consent';
    await action.getByLabel('Reason').fill(reason);
    await action.getByRole('button', { name: 'Confirm' }).click();
    await pageM.getByText('The action is recorded in the audit log.').waitFor();
    await reportCase.waitFor({ state: 'detached' });
    await pageM.getByTestId('queue-empty').waitFor();

    // Gone from B's public gallery.
    await pageB.goto(`${platform.url}/gallery`);
    await pageB.getByText('No public images yet').waitFor();

    // A is told why, and can dismiss the notice for good.
    await pageA.goto(`${platform.url}/`);
    const notice = pageA.getByTestId('member-notice');
    await expect(notice.innerText()).resolves.toBe(`A moderator removed your image “${safePrompt}”: ${reason}`);
    await notice.getByRole('button', { name: 'Dismiss notice' }).click();
    await notice.waitFor({ state: 'detached' });
    await pageA.reload();
    await pageA.getByTestId('token-balance').waitFor();
    await pageA.waitForLoadState('networkidle');
    await expect(pageA.getByTestId('member-notice').count()).resolves.toBe(0);

    // The audit log has the decision: who, what, on which item, why.
    await pageM.getByRole('link', { name: 'Audit log' }).click();
    await pageM.waitForURL(/\/moderation\/audit$/);
    const entry = pageM.getByTestId('audit-entry').first();
    await expect(entry.getByTestId('audit-action').innerText()).resolves.toBe('Remove');
    await expect(entry.getByTestId('audit-moderator').innerText()).resolves.toBe(moderatorEmail);
    await expect(entry.getByTestId('audit-target').innerText()).resolves.toContain(safeId);
    await expect(entry.getByTestId('audit-reason').innerText()).resolves.toBe(reason);
  });

  it('takes a signed-out takedown request with its deadlines to the queue, and a suspension keeps the owner out until lifted', async () => {
    // Member C publishes two pictures (rated safe); member D reports the second.
    const contextC = await newContext();
    const ownerEmail = await register(contextC, 'Cleo', 'Owner');
    const prompt = `Moonlit pier with paper lanterns ${randomUUID().slice(0, 6)}`;
    const imageId = await generateImage(contextC, prompt);
    const otherImageId = await generateImage(contextC, `Harbour crane at dawn ${randomUUID().slice(0, 6)}`);
    for (const id of [imageId, otherImageId]) {
      await graphql(contextC, 'mutation($id: ID!) { setImageVisibility(id: $id, isPublic: true, rating: SAFE) { id } }', { id });
    }
    const contextD = await newContext();
    await register(contextD, 'Dan', 'Reporter');
    await graphql(contextD, 'mutation($input: ReportInput!) { reportContent(input: $input) { caseId } }', {
      input: { targetKind: 'IMAGE', targetId: otherImageId, reason: 'SPAM' },
    });

    // A visitor on a phone reaches the form from the footer.
    const visitor = await (await newContext(PHONE)).newPage();
    await visitor.goto(`${platform.url}/signin`);
    await visitor.getByRole('contentinfo').getByRole('link', { name: 'Request content removal' }).click();
    await visitor.getByRole('heading', { name: 'Request content removal', level: 1 }).waitFor();
    expect(await noHorizontalOverflow(visitor)).toBe(true);

    // Nothing filled in: each problem is said where it is.
    await visitor.getByRole('button', { name: 'Send request' }).click();
    await visitor.getByText('Please choose what your request is about.').waitFor();
    await visitor.getByText('Please give the links to the content on this site.').waitFor();

    await visitor.getByText('Intimate image shared without consent', { exact: true }).click();
    await visitor.getByLabel('Links to the content on this site').fill('https://example.com/not-on-this-site');
    await visitor.getByText('I am the person shown').click();
    await visitor.getByLabel('Why was it shared without consent?').fill('It shows me and I never agreed to it being published.');
    await visitor.getByLabel('Full name').fill('Jo Requester');
    await visitor.getByLabel('Email').fill('jo.requester@example.com');
    await visitor.getByLabel('Electronic signature').fill('Jo Requester');
    await visitor.getByTestId('takedown-good-faith').click();
    expect(await noHorizontalOverflow(visitor)).toBe(true);

    // A link to nothing on this site: the server's field error shows under the links.
    await visitor.getByRole('button', { name: 'Send request' }).click();
    await visitor.getByText(/We could not find that content/).waitFor();

    await visitor.getByLabel('Links to the content on this site').fill(`${platform.url}/gallery?image=${imageId}`);
    const answered = visitor.waitForResponse((response) => response.url().endsWith('/api/takedown') && response.status() === 201);
    await visitor.getByRole('button', { name: 'Send request' }).click();
    const receipt = (await (await answered).json()) as { reference: string; removalDeadline: string; resolutionDeadline: string };
    await visitor.getByTestId('takedown-receipt').waitFor();
    await expect(visitor.getByTestId('takedown-reference').innerText()).resolves.toBe(receipt.reference);
    expect(receipt.reference).toMatch(/^TD-[0-9A-F]{10}$/);
    const hoursLeft = (Date.parse(receipt.removalDeadline) - Date.now()) / 3_600_000;
    expect(hoursLeft).toBeGreaterThan(47.5);
    expect(hoursLeft).toBeLessThanOrEqual(48);
    // The deadlines as dates and times in the visitor's language (and time zone).
    const formatted = await visitor.evaluate(
      (iso) => iso.map((value) => new Intl.DateTimeFormat('en', { dateStyle: 'full', timeStyle: 'short' }).format(new Date(value))),
      [receipt.removalDeadline, receipt.resolutionDeadline],
    );
    await expect(visitor.getByTestId('takedown-removal').innerText()).resolves.toBe(
      `We will remove the content within 48 hours, by ${formatted[0]}.`,
    );
    await expect(visitor.getByTestId('takedown-resolution').innerText()).resolves.toBe(
      `We will finish handling your request within 7 business days, by ${formatted[1]}.`,
    );
    expect(await noHorizontalOverflow(visitor)).toBe(true);

    // The moderator's queue has it, with its reference, requester and 48-hour deadline; on a phone too.
    const { page: pageM } = await moderatorPage(PHONE);
    await pageM.goto(`${platform.url}/moderation`);
    const takedownCase = pageM.locator(`[data-testid="moderation-case"][data-target-id="${imageId}"]`);
    await takedownCase.waitFor();
    await takedownCase.getByText('Takedown request', { exact: true }).waitFor();
    await expect(takedownCase.getByTestId('case-reason').innerText()).resolves.toBe('Intimate image shared without consent');
    await expect(takedownCase.getByTestId('case-reference').innerText()).resolves.toBe(receipt.reference);
    await expect(takedownCase.getByTestId('case-requester').innerText()).resolves.toContain('Jo Requester · jo.requester@example.com');
    // A takedown needs no account: no member reported it.
    await expect(takedownCase.getByTestId('case-reporter').count()).resolves.toBe(0);
    await expect(takedownCase.getByTestId('case-deadline').innerText()).resolves.toMatch(/^Due in 4[78] hours$/);
    expect(await noHorizontalOverflow(pageM)).toBe(true);

    // Suspending the owner resolves the case, and the owner can no longer sign in.
    await takedownCase.getByRole('button', { name: 'Suspend owner', exact: true }).click();
    const suspend = pageM.getByRole('dialog', { name: 'Suspend owner' });
    await suspend.getByLabel('Reason').fill('Published intimate imagery without consent');
    await suspend.getByRole('button', { name: 'Confirm' }).click();
    await takedownCase.waitFor({ state: 'detached' });

    const ownerPage = await (await newContext()).newPage();
    await signIn(ownerPage, ownerEmail);
    await ownerPage
      .getByTestId('form-error')
      .getByText(/^This account has been suspended, so you cannot sign in\. If you think this is a mistake, write to .+@.+\.$/)
      .waitFor();

    // The owner's other case says so, and offers unsuspension instead of suspension. On the phone the last toast lies
    // over the case's actions and stays while the pointer rests on it: the pointer moves away and the toast goes.
    await pageM.mouse.move(0, 0);
    await pageM.locator('[data-scope="toast"][data-part="root"]').waitFor({ state: 'detached' });
    const otherCase = pageM.locator(`[data-testid="moderation-case"][data-target-id="${otherImageId}"]`);
    await otherCase.getByTestId('case-owner-suspended').getByText('Owner suspended').waitFor();
    await expect(otherCase.getByRole('button', { name: 'Suspend owner', exact: true }).count()).resolves.toBe(0);
    await otherCase.getByRole('button', { name: 'Unsuspend owner', exact: true }).click();
    const unsuspend = pageM.getByRole('dialog', { name: 'Unsuspend owner' });
    await unsuspend.getByLabel('Reason').fill('Appeal upheld');
    await unsuspend.getByRole('button', { name: 'Confirm' }).click();
    await otherCase.waitFor({ state: 'detached' });

    await signIn(ownerPage, ownerEmail);
    await ownerPage.getByTestId('token-balance').waitFor();
  });
});
