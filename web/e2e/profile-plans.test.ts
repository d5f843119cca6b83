import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(180_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** The day the free tokens are next topped up: the 1st of the next UTC month, as the Plans screen writes it. */
function nextTopUpDay(now = new Date()): string {
  const firstOfNextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(firstOfNextMonth);
}

/** A member who made one image and sent one chat message sees the right numbers on Profile and Plans. */
describeWithBrowser('profile and plans in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', MEDIA_DEMO_STEP_DELAY_MS: '20', CHAT_DEMO_CHUNK_DELAY_MS: '5' },
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
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US', acceptDownloads: true });
    contexts.push(context);
    return context.newPage();
  }

  const password = 'a very good password';

  /** Signs up; `name: null` leaves both (optional) name fields empty. */
  async function signUp(page: Page, email: string, name: { first: string; last: string } | null = { first: 'Ada', last: 'Lovelace' }) {
    await page.goto(`${platform.url}/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    if (name) {
      await page.getByLabel('First name').fill(name.first);
      await page.getByLabel('Last name').fill(name.last);
    }
    await page.getByLabel('Date of birth').fill('1990-05-17');
    await page.getByLabel('I am 18 or older and I accept the Terms of Service').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('token-balance').waitFor();
  }

  const navigateTo = (page: Page, link: string) =>
    page.getByRole('navigation').getByRole('link', { name: link, exact: true }).first().click();

  const textOf = (page: Page, testId: string) => page.getByTestId(testId).first().innerText();

  /** Waits until the element shows exactly `expected` (numbers arrive with the projections, a moment after the action). */
  const waitForText = (page: Page, testId: string, expected: string) =>
    page.waitForFunction(
      ([id, text]) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() === text,
      [testId, expected],
      { timeout: 20_000 },
    );

  async function generateOneImage(page: Page) {
    await navigateTo(page, 'Generator');
    await page.getByLabel('Describe your image').fill('A copper lighthouse over a quiet harbour');
    await page.getByTestId('generate-button').click();
    await page.getByText('Image Generated!').waitFor();
  }

  async function sendOneMessage(page: Page) {
    await navigateTo(page, 'Chat');
    await page.getByRole('button', { name: 'Start First Chat' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    // The URL changes as the navigation starts; the conversation's own composer comes with its view.
    await page.getByTestId('conversation-view').waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('Hello there');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-testid="chat-message"][data-role="assistant"]')).pop()?.getAttribute('data-status') ===
        'complete',
    );
    return new URL(page.url()).pathname;
  }

  it('shows the profile header, stats, achievements and recent activity, edits the name, and shows the plans with this month’s use', async () => {
    const page = await newPage();
    const email = `profile-${randomUUID().slice(0, 8)}@example.com`;
    await signUp(page, email);
    // A brand-new account is welcomed, not welcomed back.
    await page.getByRole('heading', { level: 1, name: /^Welcome to .+, Ada!$/ }).waitFor();
    await generateOneImage(page);
    // The achievement is announced live, after the toast of the generation that earned it.
    await page.getByText('Achievement unlocked: First Creation').waitFor({ timeout: 20_000 });
    const conversationPath = await sendOneMessage(page);

    // Header.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL(/\/profile$/);
    await expect(textOf(page, 'profile-name')).resolves.toBe('Ada Lovelace');
    await expect(textOf(page, 'profile-email')).resolves.toBe(email);
    const today = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date());
    await expect(textOf(page, 'profile-joined')).resolves.toBe(`Joined ${today}`);
    const header = page.getByTestId('profile-header');
    await header.getByText('Pro Creator').waitFor();
    await header.getByText('Active', { exact: true }).waitFor();
    await expect(header.getByRole('link', { name: 'Logout' }).getAttribute('href')).resolves.toBe('/api/logout');

    // Overview: counts, the average to one decimal, the rate as a percentage, and the two earned achievements.
    await waitForText(page, 'stat-imagesGenerated', '1');
    await waitForText(page, 'stat-chatMessages', '1');
    await expect(textOf(page, 'stat-charactersCreated')).resolves.toBe('0');
    await expect(textOf(page, 'stat-totalLikes')).resolves.toBe('0');
    await expect(textOf(page, 'stat-publicImages')).resolves.toBe('0');
    await expect(textOf(page, 'stat-averageLikes')).resolves.toBe('0.0');
    await expect(textOf(page, 'stat-visibilityRate')).resolves.toBe('0%');
    const overview = page.getByTestId('overview-achievements');
    await overview.getByText('First Creation').waitFor();
    await overview.getByText('Conversation Starter').waitFor();
    await expect(overview.getByTestId('achievement').count()).resolves.toBe(2);

    // Statistics: this month against 100 images and 1000 messages.
    await page.getByRole('tab', { name: 'Statistics' }).click();
    await page.getByTestId('statistics-images').waitFor();
    await expect(textOf(page, 'statistics-images-value')).resolves.toBe('1 / 100');
    await expect(textOf(page, 'statistics-chat-value')).resolves.toBe('1 / 1,000');

    // Achievements: all six, two earned.
    await page.getByRole('tab', { name: 'Achievements' }).click();
    const achievementsPanel = page.getByRole('tabpanel', { name: 'Achievements' });
    await achievementsPanel.getByTestId('achievements-summary').waitFor();
    await expect(achievementsPanel.locator('[data-testid="achievement"][data-earned="true"]').count()).resolves.toBe(2);
    await expect(achievementsPanel.locator('[data-testid="achievement"][data-earned="false"]').count()).resolves.toBe(4);
    await expect(achievementsPanel.getByTestId('achievement-state').allInnerTexts()).resolves.toEqual([
      'Earned',
      'Earned',
      'Locked',
      'Locked',
      'Locked',
      'Locked',
    ]);
    await expect(textOf(page, 'achievements-summary')).resolves.toBe('2 of 6 earned');

    // Recent activity: the image and the conversation, each leading to its screen.
    await page.getByRole('tab', { name: 'Recent Activity' }).click();
    await page.getByTestId('recent-image').waitFor();
    await expect(page.getByTestId('recent-image').count()).resolves.toBe(1);
    await expect(page.getByTestId('recent-conversation').count()).resolves.toBe(1);
    await expect(page.getByTestId('recent-conversation').getByRole('link').getAttribute('href')).resolves.toBe(conversationPath);
    await page.getByTestId('recent-conversation').getByText('New Conversation').waitFor();

    // Edit Profile: the new name shows in the header and in the navigation's account menu at once.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await expect(dialog.getByLabel('First name').inputValue()).resolves.toBe('Ada');
    await dialog.getByLabel('First name').fill('Augusta');
    await dialog.getByLabel('Last name').fill('King');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated').waitFor();
    await waitForText(page, 'profile-name', 'Augusta King');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await waitForText(page, 'user-menu-name', 'Augusta King');
    await page.keyboard.press('Escape');

    // A profile picture: only JPG and PNG; once saved, the navigation avatar shows its small rendition.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const pictureInput = dialog.getByTestId('profile-picture-input');
    await pictureInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') });
    await dialog.getByText('Only JPG and PNG photos are accepted.').waitFor();
    const png = await sharp({ create: { width: 96, height: 96, channels: 3, background: '#8040c0' } })
      .png()
      .toBuffer();
    await pictureInput.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await dialog.getByText('Selected: me.png').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated').waitFor();
    const navAvatar = page.getByRole('button', { name: 'Account menu' }).locator('img');
    await navAvatar.waitFor();
    await expect(navAvatar.getAttribute('src')).resolves.toMatch(/^\/api\/media\/avatars\//);

    // The balance the dashboard shows is the one Plans shows.
    await navigateTo(page, 'Home');
    const balance = (await textOf(page, 'token-balance')).trim();

    // Plans: the spec's texts, Pro not yet on sale, this month's use, balance and renewal.
    await page.goto(`${platform.url}/subscribe`);
    await page.getByRole('heading', { name: 'Choose Your Plan', level: 1 }).waitFor();
    const free = page.getByTestId('free-plan');
    await free.getByRole('heading', { name: 'Free' }).waitFor();
    await free.getByText('Current Plan').first().waitFor();
    await expect(free.getByTestId('free-plan-features').innerText()).resolves.toContain('3 image generations per month');
    await expect(free.getByTestId('free-plan-features').innerText()).resolves.toContain('10 chat messages per month');
    const pro = page.getByTestId('pro-plan');
    await pro.getByRole('heading', { name: 'Pro' }).waitFor();
    await pro.getByText('$29').waitFor();
    await pro.getByText('Coming Soon', { exact: true }).first().waitFor();
    await expect(pro.getByTestId('pro-plan-features').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/Unlimited generations\s+HD quality\s+Priority support\s+Early access to new features/),
    ]);
    await expect(textOf(page, 'pro-launch')).resolves.toBe('Launching September 2025');
    await expect(page.getByTestId('pro-plan-button').isDisabled()).resolves.toBe(true);
    const premium = page.getByTestId('premium-features');
    await premium.getByRole('heading', { name: 'Premium Features Coming Soon' }).waitFor();
    await expect(premium.getByRole('link', { name: /Join the community chat/ }).getAttribute('href')).resolves.toMatch(/^https:\/\//);
    await expect(premium.getByRole('link', { name: /Follow us on social media/ }).getAttribute('href')).resolves.toMatch(/^https:\/\//);
    await expect(textOf(page, 'current-account-email')).resolves.toBe(email);
    await page.getByText('You are on the Free plan.', { exact: false }).waitFor();

    await waitForText(page, 'plan-usage-IMAGE', 'Image generations1 of 3');
    await expect(page.getByTestId('plan-usage-IMAGE').getByTestId('plan-usage-value').innerText()).resolves.toBe('1 of 3');
    await expect(page.getByTestId('plan-usage-CHAT').getByTestId('plan-usage-value').innerText()).resolves.toBe('1 of 10');
    await expect(textOf(page, 'plan-balance')).resolves.toBe(`${balance} tokens`);
    await expect(textOf(page, 'plan-renews')).resolves.toBe(`Renews on ${nextTopUpDay()}`);
    await expect(textOf(page, 'plan-token-rule')).resolves.toMatch(
      /^1 token = 1 generation\. The Free plan tops your balance up to \d+ tokens/,
    );
    await expect(page.getByTestId('plan-reason').count()).resolves.toBe(0);

    // Sent here by an empty balance: the screen says what happened and what to do.
    await page.goto(`${platform.url}/subscribe?reason=tokens`);
    const callout = page.getByTestId('plan-reason');
    await callout.getByText('You are out of tokens').waitFor();
    await callout.getByText(nextTopUpDay(), { exact: false }).waitFor();
  });

  it('names a member without a name by e-mail once, in the account menu and on Profile', async () => {
    const page = await newPage();
    const email = `nameless-${randomUUID().slice(0, 8)}@example.com`;
    await signUp(page, email, null);
    await page.getByRole('heading', { level: 1, name: /^Welcome to .+, Creator!$/ }).waitFor();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await waitForText(page, 'user-menu-name', email);
    await expect(page.getByRole('menu').getByText(email, { exact: true }).count()).resolves.toBe(1);
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL(/\/profile$/);
    await waitForText(page, 'profile-name', email);
    await expect(page.getByTestId('profile-header').getByText(email, { exact: true }).count()).resolves.toBe(1);
  });

  /** The toast on screen (one at a time, SPEC §9), found by its title. */
  const toastTitled = (page: Page, title: string) =>
    page.locator('[data-scope="toast"][data-part="root"]').filter({ has: page.getByText(title, { exact: true }) });

  /** The stored balance, set behind the platform's back (the embedded identity database), as if the member had spent it. */
  async function setBalance(page: Page, tokens: number) {
    const { id } = (await (await page.request.get(`${platform.url}/api/user`)).json()) as { id: string };
    const identity = platform.services.find((service) => service.name === 'identity')!;
    await identity.db.execute(`UPDATE "identity"."users" SET "token_balance" = $2 WHERE "id" = $1`, [id, tokens]);
  }

  it('explains a used-up free allowance with a toast whose "See plans" opens Plans with the reason and the usage', async () => {
    const page = await newPage();
    await signUp(page, `allowance-${randomUUID().slice(0, 8)}@example.com`);
    await navigateTo(page, 'Generator');
    const generateButton = page.getByTestId('generate-button');
    await page.getByLabel('Describe your image').fill('A copper lighthouse over a quiet harbour');
    // The Free plan's three images of the month; each one is listed under Your Creations once it is done.
    for (let made = 1; made <= 3; made += 1) {
      await generateButton.click();
      await page.waitForFunction((count) => document.querySelectorAll('[data-testid="creation-item"]').length === count, made, {
        timeout: 20_000,
      });
      await page.waitForFunction(() => document.querySelector('[data-testid="generate-button"]')?.textContent?.trim() === 'Generate Image');
      // The live achievement toast of the first image would otherwise replace the refusal's toast below.
      if (made === 1) await page.getByText('Achievement unlocked: First Creation').waitFor({ timeout: 20_000 });
    }
    await waitForText(page, 'generator-token-count', '12');

    // A fourth: refused, with what happened, when it renews and the way to Plans.
    await generateButton.click();
    const toast = toastTitled(page, 'Generation Failed');
    await toast.waitFor();
    await expect(toast.innerText()).resolves.toContain(
      `You have used all of this month's free image generations. They start again on ${nextTopUpDay()}.`,
    );
    await expect(page.getByTestId('creation-item').count()).resolves.toBe(3);
    await toast.getByRole('button', { name: 'See plans' }).click();
    await page.waitForURL(`${platform.url}/subscribe?reason=quota`);
    await toast.waitFor({ state: 'detached' });

    const callout = page.getByTestId('plan-reason');
    await callout.getByText("You reached this month's Free plan limit").waitFor();
    await callout.getByText(nextTopUpDay(), { exact: false }).waitFor();
    await waitForText(page, 'plan-usage-IMAGE', 'Image generations3 of 3');
    await expect(page.getByTestId('plan-usage-IMAGE').getByRole('progressbar').getAttribute('aria-valuenow')).resolves.toBe('100');
    await expect(textOf(page, 'plan-balance')).resolves.toBe('12 tokens');
  });

  it('shows the out-of-tokens notice in the chat composer when a reply is refused, with its way to Plans', async () => {
    const page = await newPage();
    await signUp(page, `empty-${randomUUID().slice(0, 8)}@example.com`);
    await navigateTo(page, 'Chat');
    await page.getByRole('button', { name: 'Start First Chat' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    // The URL changes as the navigation starts; the conversation's own composer comes with its view.
    await page.getByTestId('conversation-view').waitFor();
    await setBalance(page, 0);
    // The empty conversation has loaded: the box now keeps what is typed.
    await page.getByText('Start the conversation').waitFor();

    await page.getByRole('textbox', { name: 'Message' }).fill('Hello there');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    const toast = toastTitled(page, 'Not enough tokens');
    await toast.waitFor();
    await expect(toast.innerText()).resolves.toContain(`Your balance is empty. Free tokens are topped up on ${nextTopUpDay()}.`);
    const notice = page.getByTestId('insufficient-tokens-notice');
    await notice.getByText('You are out of tokens.').waitFor();
    // Nothing was sent: the text stays in the box to send again later.
    await expect(page.getByRole('textbox', { name: 'Message' }).inputValue()).resolves.toBe('Hello there');
    await expect(page.locator('[data-testid="chat-message"]').count()).resolves.toBe(0);

    const plansLink = notice.getByRole('link', { name: 'See plans' });
    await expect(plansLink.getAttribute('href')).resolves.toBe('/subscribe?reason=tokens');
    await plansLink.click();
    await page.waitForURL(`${platform.url}/subscribe?reason=tokens`);
    const callout = page.getByTestId('plan-reason');
    await callout.getByText('You are out of tokens').waitFor();
    await callout.getByText(nextTopUpDay(), { exact: false }).waitFor();
    await expect(textOf(page, 'plan-balance')).resolves.toBe('0 tokens');
  });

  it('fits Profile and Plans on a 360-pixel phone, and shows Edit Profile as a centred card on a wide screen', async () => {
    const page = await newPage();
    await signUp(page, `narrow-${randomUUID().slice(0, 8)}@example.com`);
    await page.goto(`${platform.url}/profile`);
    const dialog = page.getByRole('dialog', { name: 'Edit Profile' });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    const card = (await dialog.boundingBox())!;
    expect(card.height).toBeLessThan(900 / 2);
    expect(card.y).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    await page.setViewportSize({ width: 360, height: 800 });
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    for (const tab of ['Overview', 'Statistics', 'Achievements', 'Recent Activity']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel', { name: tab }).waitFor();
      await expect(overflow()).resolves.toBe(0);
    }
    await page.goto(`${platform.url}/subscribe?reason=quota`);
    await page.getByTestId('plan-usage').waitFor();
    await expect(overflow()).resolves.toBe(0);
    // The balance and the monthly allowance stay side by side.
    const balance = (await page.getByTestId('plan-balance').boundingBox())!;
    const allowance = (await page.getByTestId('plan-allowance').boundingBox())!;
    expect(allowance.y).toBe(balance.y);
  });

  it('downloads everything the member owns and deletes the account after the password', async () => {
    const page = await newPage();
    const email = `leaving-${randomUUID().slice(0, 8)}@example.com`;
    await signUp(page, email);
    await page.goto(`${platform.url}/profile`);
    const yourData = page.getByTestId('your-data');

    const download = page.waitForEvent('download');
    await yourData.getByRole('link', { name: 'Export my data' }).click();
    expect((await download).suggestedFilename()).toMatch(/^account-export-.+\.zip$/);

    await yourData.getByRole('button', { name: 'Delete account' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete your account?' });
    await confirm.getByLabel('Password').fill('not my password');
    await confirm.getByRole('button', { name: 'Delete my account' }).click();
    await confirm.getByText('The password is not correct.').waitFor();
    await confirm.getByLabel('Password').fill(password);
    await confirm.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${platform.url}/`);
    await page
      .getByRole('link', { name: /Log in/i })
      .first()
      .waitFor();
  });
});
