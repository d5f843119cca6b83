import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { hasChromium, launchChromium } from './browser';

jest.setTimeout(120_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** Each test signs up a fresh member: the free plan allows 10 replies and 2 characters a month. */
describeWithBrowser('chat and characters in Chromium', () => {
  let platform: EmbeddedPlatform;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (!fs.existsSync(path.join(__dirname, '..', 'dist', 'index.html'))) throw new Error('Build the web app first: npm run build:web');
    platform = await startEmbedded({
      infra: { dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null },
      gateway: { port: 0 },
      // The demo responder streams slowly enough to watch a reply grow, stop it, and reload mid-reply.
      env: { SIGNUPS_PER_IP_PER_HOUR: '1000', CHAT_DEMO_CHUNK_DELAY_MS: '60' },
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

  async function newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
    const context = await browser.newContext(options);
    contexts.push(context);
    return context.newPage();
  }

  async function signUp(page: Page, firstName: string) {
    const password = 'a very good password';
    await page.goto(`${platform.url}/signup`);
    await page.getByLabel('Email').fill(`e2e-${randomUUID().slice(0, 8)}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    await page.getByLabel('First name').fill(firstName);
    await page.getByLabel('Date of birth').fill('1990-05-17');
    await page.getByLabel('I am 18 or older and I accept the Terms of Service').check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByTestId('token-balance').waitFor();
  }

  /** Client-side navigation through the nav bar, so nothing reloads. */
  async function navigateTo(page: Page, link: string) {
    await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).first().click();
  }

  interface NewCharacter {
    name: string;
    description: string;
    typedTrait: string;
    suggestedTrait: string;
    greeting?: string;
  }

  async function createCharacter(page: Page, character: NewCharacter) {
    await page.getByRole('button', { name: 'Create Character' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Character' });
    await dialog.getByLabel('Name', { exact: true }).fill(character.name);
    await dialog.getByLabel('Description').fill(character.description);
    await dialog.getByPlaceholder('Type a trait and press Enter').fill(character.typedTrait);
    await dialog.getByPlaceholder('Type a trait and press Enter').press('Enter');
    await dialog.getByRole('button', { name: character.suggestedTrait, exact: true }).click();
    await expect(dialog.getByRole('button', { name: character.suggestedTrait, exact: true }).isDisabled()).resolves.toBe(true);
    if (character.greeting) {
      await dialog.getByRole('button', { name: 'Advanced', exact: true }).click();
      await dialog.getByLabel('Greeting (first message)').fill(character.greeting);
    }
    await dialog.getByRole('button', { name: 'Create Character' }).click();
    await page.getByText('Character Created!').waitFor();
    await dialog.waitFor({ state: 'hidden' });
  }

  const messages = (page: Page) => page.getByTestId('chat-message');
  const lastReply = (page: Page) => page.locator('[data-testid="chat-message"][data-role="assistant"]').last();
  const replyText = async (reply: Locator) => (await reply.getByTestId('message-content').innerText()).trim();
  const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });

  async function waitForReplyText(reply: Locator, minLength = 1) {
    await reply
      .page()
      .waitForFunction(
        ({ element, min }) => (element?.querySelector('[data-testid="message-content"]')?.textContent?.trim().length ?? 0) >= min,
        { element: await reply.elementHandle(), min: minLength },
      );
  }

  function waitForMessageCount(page: Page, count: number) {
    return page.waitForFunction((n) => document.querySelectorAll('[data-testid="chat-message"]').length === n, count);
  }

  function waitForLastReplyComplete(page: Page) {
    return page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll('[data-testid="chat-message"][data-role="assistant"]')).pop()?.getAttribute('data-status') ===
        'complete',
    );
  }

  it('shows empty states to a new member, validates, edits, deletes and shares characters', async () => {
    const page = await newPage();
    await signUp(page, 'Ines');

    await page.goto(`${platform.url}/characters`);
    await page.getByRole('heading', { name: 'AI Characters', level: 1 }).waitFor();
    await page.getByText('No characters yet').waitFor();
    await page.getByRole('button', { name: 'Create First Character' }).waitFor();
    await page.getByText('No public characters yet').waitFor();

    // Name is required after trimming.
    await page.getByRole('button', { name: 'Create Character' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create Character' });
    await dialog.getByLabel('Name', { exact: true }).fill('   ');
    // A blank trait is not added; a repeated one is not added twice; clicking a chip removes it.
    await dialog.getByRole('button', { name: 'Add trait' }).click();
    await expect(dialog.getByTestId('chosen-traits').count()).resolves.toBe(0);
    await dialog.getByPlaceholder('Type a trait and press Enter').fill('Brave');
    await dialog.getByRole('button', { name: 'Add trait' }).click();
    await dialog.getByPlaceholder('Type a trait and press Enter').fill(' brave ');
    await dialog.getByPlaceholder('Type a trait and press Enter').press('Enter');
    await expect(dialog.getByTestId('chosen-traits').getByRole('button').count()).resolves.toBe(1);
    await dialog.getByRole('button', { name: 'Remove trait Brave' }).click();
    await expect(dialog.getByTestId('chosen-traits').count()).resolves.toBe(0);
    await expect(dialog.getByRole('button', { name: /Creative|Analytical/ }).count()).resolves.toBe(2);
    await dialog.getByRole('button', { name: 'Create Character' }).click();
    await page.getByText('Name Required').waitFor();
    await page.getByText('Please enter a name for your character.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await createCharacter(page, { name: 'Orin', description: 'A retired sailor.', typedTrait: 'Gruff', suggestedTrait: 'Wise' });
    const card = page.getByTestId('mine-character-card').filter({ hasText: 'Orin' });
    await card.getByText('A retired sailor.').waitFor();
    await card.getByText('Private').waitFor();
    await expect(card.getByTestId('character-traits').innerText()).resolves.toMatch(/Gruff\s+Wise/);

    // The form starts empty again after creating.
    await page.getByRole('button', { name: 'Create Character' }).click();
    await expect(dialog.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('');
    await expect(dialog.getByTestId('chosen-traits').count()).resolves.toBe(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Edit: prefilled; make it public with more traits (the card shows 3 and +N).
    await card.getByRole('button', { name: 'Edit Orin' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Character' });
    await expect(editDialog.getByLabel('Name', { exact: true }).inputValue()).resolves.toBe('Orin');
    await editDialog.getByLabel('Name', { exact: true }).fill('Captain Orin');
    for (const trait of ['Calm', 'Friendly', 'Mysterious']) await editDialog.getByRole('button', { name: trait, exact: true }).click();
    await editDialog.getByText('Public', { exact: true }).click();
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Character Updated!').waitFor();
    await editDialog.waitFor({ state: 'hidden' });
    const edited = page.getByTestId('mine-character-card').filter({ hasText: 'Captain Orin' });
    await edited.getByText('Public', { exact: true }).waitFor();
    await edited.getByText('+2').waitFor();

    // Public characters are discoverable, and Start Chat opens a chat with them.
    const discovered = page.getByTestId('discover-character-card').filter({ hasText: 'Captain Orin' });
    await discovered.waitFor();
    await discovered.getByRole('button', { name: 'Start Chat with Captain Orin' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.getByTestId('chat-title').getByText('Captain Orin').waitFor();

    // Export a card, refuse an oversized file, import the card back.
    await navigateTo(page, 'Characters');
    await edited.getByRole('button', { name: 'Export Captain Orin' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'JSON V2' }).click();
    const download = await downloading;
    const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8')) as { spec: string; data: { name: string } };
    expect(exported).toMatchObject({ spec: 'chara_card_v2', data: { name: 'Captain Orin' } });

    const fileInput = page.getByTestId('import-card-input');
    await fileInput.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(8 * 1024 * 1024 + 1) });
    await page.getByText('That file is larger than 8 MB. Character cards must be 8 MB or smaller.').waitFor();
    await fileInput.setInputFiles({ name: 'orin.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await page.getByText('Character Imported!').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="mine-character-card"]').length === 2);

    // The free plan's third character this month: the server's explanation is shown.
    await page.getByRole('button', { name: 'Create Character' }).click();
    await dialog.getByLabel('Name', { exact: true }).fill('One too many');
    await dialog.getByRole('button', { name: 'Create Character' }).click();
    await page.getByText("You have used all of this month's free character creations.").waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });

    // Delete asks first.
    await edited.first().getByRole('button', { name: 'Delete Captain Orin' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete Captain Orin?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Character Deleted').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="mine-character-card"]').length === 1);
  });

  it('creates a character, chats with it live, charges one token per reply, and finishes a reply across a reload', async () => {
    const page = await newPage();
    await signUp(page, 'Mira');
    await page.goto(`${platform.url}/characters`);
    await createCharacter(page, {
      name: 'Aria',
      description: 'A wandering bard with a quick wit.',
      typedTrait: 'Witty',
      suggestedTrait: 'Empathetic',
      greeting: '*tunes her lute* Well met, traveler! Sit by the fire.',
    });

    const card = page.getByTestId('mine-character-card').filter({ hasText: 'Aria' });
    await card.getByRole('button', { name: 'Chat with Aria' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    const greeting = lastReply(page);
    await greeting.getByText('Well met, traveler! Sit by the fire.').waitFor();
    await expect(greeting.locator('em').first().innerText()).resolves.toBe('tunes her lute');
    await page.getByTestId('demo-provider-notice').waitFor();
    await expect(page.getByTestId('demo-provider-notice').innerText()).resolves.toBe('Demo responder — scripted replies, not AI');
    await expect(page.getByTestId('chat-token-count').innerText()).resolves.toBe('15');
    await page.getByRole('link', { name: /Aria/ }).first().waitFor();

    await input(page).fill('Tell me about the road ahead.');
    await input(page).press('Enter');
    await page.getByTestId('typing-badge').waitFor();
    await waitForMessageCount(page, 3);
    const reply = lastReply(page);
    await waitForReplyText(reply);
    const early = await replyText(reply);
    await page.waitForTimeout(400);
    const later = await replyText(reply);
    expect(later.length).toBeGreaterThan(early.length);
    expect(later.startsWith(early)).toBe(true);
    await page.getByTestId('typing-badge').waitFor({ state: 'hidden' });
    await expect(reply.getAttribute('data-status')).resolves.toBe('complete');
    await expect(input(page).inputValue()).resolves.toBe('');
    // The balance drops live, without a reload.
    await page.waitForFunction(() => document.querySelector('[data-testid="chat-token-count"]')?.textContent === '14');

    // Reload in the middle of the next reply: it carries on and finishes.
    await input(page).fill('What waits in the forest?');
    await input(page).press('Enter');
    await waitForMessageCount(page, 5);
    const streaming = lastReply(page);
    await waitForReplyText(streaming, 10);
    const beforeReload = await replyText(streaming);
    await page.reload();
    const resumed = lastReply(page);
    await resumed.waitFor();
    await waitForMessageCount(page, 5);
    await waitForLastReplyComplete(page);
    await page.getByTestId('typing-badge').waitFor({ state: 'hidden' });
    const finalText = await replyText(lastReply(page));
    expect(finalText.length).toBeGreaterThan(beforeReload.length);
    expect(finalText.startsWith(beforeReload.slice(0, 10))).toBe(true);
    await expect(page.getByTestId('chat-token-count').innerText()).resolves.toBe('13');

    // Elsewhere in the app the live balance is the same (client-side navigation).
    await navigateTo(page, 'Home');
    await page.waitForFunction(() => document.querySelector('[data-testid="token-balance"]')?.textContent === '13');
  });

  it('sends with Enter only, never blank text, searches, renames, stops and regenerates replies', async () => {
    const page = await newPage();
    await signUp(page, 'Noor');
    await page.goto(`${platform.url}/chat`);
    await page.getByText('No conversations yet').waitFor();
    await page.getByRole('heading', { name: 'Welcome to AI Chat' }).waitFor();
    await page.getByRole('button', { name: 'Start New Conversation' }).waitFor();
    // Spec §5: nothing to send to yet.
    await input(page).fill('Hello?');
    await input(page).press('Enter');
    await page.getByText('No conversation selected').waitFor();
    await expect(input(page).inputValue()).resolves.toBe('Hello?');
    await page.getByRole('button', { name: 'Close notification' }).click();

    await page.getByRole('button', { name: 'Start First Chat' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.getByText('Start the conversation').waitFor();
    await expect(page.getByTestId('chat-title').innerText()).resolves.toBe('New Conversation');
    await expect(input(page).getAttribute('rows')).resolves.toBe('3');

    // Blank text is not sent.
    await input(page).fill('   ');
    await input(page).press('Enter');
    await page.waitForTimeout(500);
    await expect(messages(page).count()).resolves.toBe(0);
    await expect(page.getByTestId('typing-badge').count()).resolves.toBe(0);

    // Shift+Enter starts a new line; Enter sends both lines.
    await input(page).fill('line one');
    await input(page).press('Shift+Enter');
    await input(page).pressSequentially('line two');
    await expect(input(page).inputValue()).resolves.toBe('line one\nline two');
    await expect(messages(page).count()).resolves.toBe(0);
    await input(page).press('Enter');
    const sent = page.locator('[data-testid="chat-message"][data-role="user"]').first();
    await sent.waitFor();
    await expect(sent.getByTestId('message-content').innerText()).resolves.toBe('line one\nline two');
    await page.getByTestId('typing-badge').waitFor({ state: 'hidden' });

    // Stop keeps the text written so far.
    await input(page).fill('Tell me a long story, please.');
    await input(page).press('Enter');
    const stopped = lastReply(page);
    await waitForMessageCount(page, 4);
    await waitForReplyText(stopped, 5);
    await page.getByRole('button', { name: 'Stop reply' }).click();
    await stopped.getByTestId('reply-stopped').waitFor();
    await expect(stopped.getByTestId('reply-stopped').innerText()).resolves.toBe('Stopped');
    const kept = await replyText(stopped);
    expect(kept.length).toBeGreaterThan(0);
    await page.getByTestId('typing-badge').waitFor({ state: 'hidden' });

    // Regenerate writes version 2; the previous version is still there.
    await stopped.getByRole('button', { name: 'Regenerate reply' }).click();
    await lastReply(page).getByTestId('swipe-counter').getByText('2 / 2').waitFor();
    await waitForLastReplyComplete(page);
    await lastReply(page).getByRole('button', { name: 'Previous version' }).click();
    await lastReply(page).getByTestId('swipe-counter').getByText('1 / 2').waitFor();
    await expect(replyText(lastReply(page))).resolves.toBe(kept);
    await lastReply(page).getByTestId('reply-stopped').waitFor();
    await lastReply(page).getByRole('button', { name: 'Next version' }).click();
    await lastReply(page).getByTestId('swipe-counter').getByText('2 / 2').waitFor();

    // A second conversation, a rename, and the search box filtering by title.
    await page.getByRole('button', { name: 'New Chat' }).click();
    await page.getByText('Start the conversation').waitFor();
    const items = page.getByTestId('conversation-item');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation-item"]').length === 2);
    const active = page.locator('[data-testid="conversation-item"]:has(a[aria-current="page"])');
    await active.getByRole('button', { name: 'Options for New Conversation' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename conversation' });
    await rename.getByLabel('Title').fill('Dragon lore');
    await rename.getByRole('button', { name: 'Save' }).click();
    await rename.waitFor({ state: 'hidden' });
    await expect(page.getByTestId('chat-title').innerText()).resolves.toBe('Dragon lore');

    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('DRAGON');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation-item"]').length === 1);
    await expect(items.first().getByTestId('conversation-title').innerText()).resolves.toBe('Dragon lore');
    await search.fill('new conv');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation-item"]').length === 1);
    await expect(items.first().getByTestId('conversation-title').innerText()).resolves.toBe('New Conversation');
    await search.fill('zebra');
    await page.getByText('No conversations match “zebra”').waitFor();
    await search.fill('');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation-item"]').length === 2);

    // Deleting the open conversation leads back to the chat home.
    await active.getByRole('button', { name: 'Options for Dragon lore' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete conversation?' }).getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/chat$/);
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="conversation-item"]').length === 1);
  });

  it('says a conversation is not found for a malformed id as for an unknown one, with the way back to the list', async () => {
    const page = await newPage();
    await signUp(page, 'Ines');
    for (const id of ['not-a-uuid', randomUUID()]) {
      await page.goto(`${platform.url}/chat/${id}`);
      await page.getByRole('heading', { name: 'Conversation not found' }).waitFor();
      await expect(page.getByText('Check your connection and try again.').count()).resolves.toBe(0);
    }
    await page.getByRole('link', { name: 'Back to conversations' }).click();
    await page.waitForURL(/\/chat$/);
    await page.getByRole('heading', { name: 'Welcome to AI Chat' }).waitFor();
  });

  it('keeps the input on screen on a phone and opens the conversation list as a drawer', async () => {
    const page = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await signUp(page, 'Sol');
    // The demo-mode banner stays off the chat screen (the conversation labels demo replies itself), so nothing pushes the composer down.
    await page.goto(`${platform.url}/chat`);
    await page.getByRole('heading', { name: 'Welcome to AI Chat' }).waitFor();
    await page.getByRole('button', { name: 'Start New Conversation' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.getByText('Start the conversation').waitFor();

    const box = await input(page).boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThan(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    await input(page).fill('Hello from my phone');
    await input(page).press('Enter');
    await page.locator('[data-testid="chat-message"][data-role="user"]').getByText('Hello from my phone').waitFor();
    const after = await input(page).boundingBox();
    expect(after!.y + after!.height).toBeLessThanOrEqual(844);

    await page.getByRole('button', { name: 'Open conversations' }).click();
    const drawer = page.getByRole('dialog', { name: 'Your conversations' });
    await drawer.waitFor();
    await drawer.getByTestId('conversation-item').first().waitFor();
    await drawer.getByRole('link', { name: /New Conversation/ }).click();
    await drawer.waitFor({ state: 'hidden' });
  });
});
