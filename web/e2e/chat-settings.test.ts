import type { Locator, Page } from 'playwright-core';
import { hasChromium } from './browser';
import { type ContextOptions, memberBrowser } from './member-browser';

jest.setTimeout(120_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** A member's persona names them in greetings; a chat keeps its own reply settings; a reply shows what its prompt held. */
describeWithBrowser('chat persona, reply settings and context in Chromium', () => {
  const members = memberBrowser({ CHAT_DEMO_CHUNK_DELAY_MS: '5' });
  const newPage = (options: ContextOptions = {}) =>
    members.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...options });
  const { signUp } = members;

  async function createCharacter(page: Page, name: string, greeting: string) {
    await page.getByRole('button', { name: 'Create Character' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Character' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Description').fill('The quartermaster of a small airship.');
    await dialog.getByRole('button', { name: 'Advanced', exact: true }).click();
    await dialog.getByLabel('Greeting (first message)').fill(greeting);
    await dialog.getByRole('button', { name: 'Create Character' }).click();
    await page.getByText('Character Created!').waitFor();
    await dialog.waitFor({ state: 'hidden' });
  }

  const lastReply = (page: Page) => page.locator('[data-testid="chat-message"][data-role="assistant"]').last();

  function waitForLastReplyComplete(page: Page) {
    return page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-testid="chat-message"][data-role="assistant"]')).pop()?.getAttribute('data-status') ===
        'complete',
    );
  }

  /** Nothing wider than the dialog: no sideways scrolling on a phone. */
  const overflowsSideways = (dialog: Locator) => dialog.evaluate((element) => element.scrollWidth > element.clientWidth + 1);

  async function openReplySettings(page: Page) {
    await page.getByRole('button', { name: 'Chat settings' }).click();
    await page.getByRole('menuitem', { name: 'Reply settings for this chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reply settings for this chat' });
    await dialog.getByLabel('Temperature').waitFor();
    return dialog;
  }

  it('greets by the persona name, keeps a chat’s temperature, and shows what a reply’s prompt held', async () => {
    const page = await newPage();
    await signUp(page, 'Ines');

    // Profile: the persona starts as the first name; set another name.
    await page.goto(`${members.url}/profile`);
    const card = page.getByTestId('chat-persona');
    await card.getByRole('heading', { name: 'Chat persona' }).waitFor();
    await card.getByTestId('chat-persona-name').getByText('Ines', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Edit persona' }).click();
    const personaDialog = page.getByRole('dialog', { name: 'Your chat persona' });
    const nameInput = personaDialog.getByLabel('Name', { exact: true });
    await expect(nameInput.getAttribute('placeholder')).resolves.toBe('Ines');
    await nameInput.fill('Captain Nova');
    await personaDialog.getByLabel('About you').fill('A sky pirate who hates paperwork.');
    await personaDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Persona saved').waitFor();
    await personaDialog.waitFor({ state: 'hidden' });
    await card.getByTestId('chat-persona-name').getByText('Captain Nova', { exact: true }).waitFor();
    await card.getByText('A sky pirate who hates paperwork.').waitFor();

    // The greeting's {{user}} is the persona name.
    await page.goto(`${members.url}/characters`);
    await createCharacter(page, 'Quill', 'Welcome aboard, {{user}}! I am {{char}}.');
    await page.getByTestId('mine-character-card').filter({ hasText: 'Quill' }).getByRole('button', { name: 'Chat with Quill' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await lastReply(page).getByText('Welcome aboard, Captain Nova! I am Quill.').waitFor();

    // This chat's temperature: out of range is refused before saving; a good value is kept.
    let settings = await openReplySettings(page);
    await settings.getByLabel('Temperature').fill('3');
    await settings.getByText('Enter a number from 0 to 2.').waitFor();
    await expect(settings.getByRole('button', { name: 'Save' }).isDisabled()).resolves.toBe(true);
    await settings.getByLabel('Temperature').fill('0.7');
    await settings.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Reply settings saved').waitFor();
    await settings.waitFor({ state: 'hidden' });
    settings = await openReplySettings(page);
    await page.waitForFunction(
      () => (document.querySelector('[data-testid="sampler-temperature"]') as HTMLInputElement | null)?.value === '0.7',
    );
    await settings.getByRole('button', { name: 'Cancel' }).click();
    await settings.waitFor({ state: 'hidden' });

    // A reply's context: the messages it was written from.
    await page.getByRole('textbox', { name: 'Message' }).fill('What is our heading?');
    await page.getByRole('textbox', { name: 'Message' }).press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="chat-message"]').length === 3);
    await waitForLastReplyComplete(page);
    await lastReply(page).getByRole('button', { name: 'Context' }).click();
    const context = page.getByRole('dialog', { name: 'What this reply was written from' });
    await context.getByText('2 of 2 messages sent').waitFor();
    await context.getByText('No summary was sent.').waitFor();
    await expect(context.getByTestId('context-bar').getAttribute('aria-label')).resolves.toMatch(/context of [\d,]+ tokens/);
    await expect(context.getByTestId('context-legend').getByRole('listitem').count()).resolves.toBe(6);

    // On a phone the dialogs fit the screen.
    await page.setViewportSize({ width: 360, height: 740 });
    await expect(overflowsSideways(context.getByTestId('context-report'))).resolves.toBe(false);
    await context.getByRole('button', { name: 'Close' }).click();
    await context.waitFor({ state: 'hidden' });
    settings = await openReplySettings(page);
    await settings.getByRole('button', { name: 'Add setting' }).click();
    await settings.getByLabel('Name of extra setting 1').fill('max_tokens');
    await settings.getByText('That setting has its own field or cannot be changed.').waitFor();
    await expect(overflowsSideways(settings.getByTestId('sampler-fields'))).resolves.toBe(false);
    await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(360);
  });
});
