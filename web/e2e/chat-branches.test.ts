import type { Locator, Page } from 'playwright-core';
import { hasChromium } from './browser';
import { memberBrowser } from './member-browser';

jest.setTimeout(180_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** A conversation is a tree: versions of any message, deletions, branches from any message, continued replies. */
describeWithBrowser('chat message tree in Chromium', () => {
  // The demo responder streams slowly enough to see a reply being written.
  const members = memberBrowser({ CHAT_DEMO_CHUNK_DELAY_MS: '30' });
  const { newPage, signUp } = members;

  async function openNewChat(page: Page) {
    await page.goto(`${members.url}/chat`);
    await page.getByRole('button', { name: 'Start New Conversation' }).click();
    await page.waitForURL(/\/chat\/[0-9a-f-]{36}$/);
    await page.getByText('Start the conversation').waitFor();
  }

  const memberMessages = (page: Page) => page.locator('[data-testid="chat-message"][data-role="user"]');
  const replies = (page: Page) => page.locator('[data-testid="chat-message"][data-role="assistant"]');
  const lastReply = (page: Page) => replies(page).last();
  const textOf = async (message: Locator) => (await message.getByTestId('message-content').innerText()).trim();
  const counterOf = (message: Locator) => message.getByTestId('swipe-counter');
  const input = (page: Page) => page.getByRole('textbox', { name: 'Message' });

  function waitForMessageCount(page: Page, count: number) {
    return page.waitForFunction((n) => document.querySelectorAll('[data-testid="chat-message"]').length === n, count);
  }

  /** The last message is a reply, and it is finished. */
  function waitForLastReplyComplete(page: Page) {
    return page.waitForFunction(() => {
      const last = Array.from(document.querySelectorAll('[data-testid="chat-message"]')).pop();
      return last?.getAttribute('data-role') === 'assistant' && last.getAttribute('data-status') === 'complete';
    });
  }

  async function send(page: Page, text: string, countAfter: number) {
    await input(page).fill(text);
    await input(page).press('Enter');
    await waitForMessageCount(page, countAfter);
    await waitForLastReplyComplete(page);
    await page.getByTestId('typing-badge').waitFor({ state: 'hidden' });
  }

  /** The actions show on hover (and focus); a click hovers first, as a pointer would. */
  const action = (message: Locator, name: string) => message.getByRole('button', { name, exact: true });

  it('edits, switches versions, deletes, branches, keeps the branch across a reload and continues a reply', async () => {
    const page = await newPage();
    await signUp(page, 'Tali');
    await openNewChat(page);

    await send(page, 'Tell me about the sea.', 2);
    const firstReply = await textOf(lastReply(page));
    expect(firstReply).toContain('Tell me about the sea');
    // One version so far: no switcher.
    await expect(counterOf(memberMessages(page).first()).count()).resolves.toBe(0);

    // Editing the member's message sends it as a new version and a new reply streams.
    await action(memberMessages(page).first(), 'Edit message').click();
    const editor = page.getByRole('textbox', { name: 'Edit your message' });
    await expect(editor.inputValue()).resolves.toBe('Tell me about the sea.');
    await editor.fill('Tell me about the mountains.');
    await page.getByRole('button', { name: 'Send as new version' }).click();
    await counterOf(memberMessages(page).first()).getByText('2 / 2').waitFor();
    await expect(textOf(memberMessages(page).first())).resolves.toBe('Tell me about the mountains.');
    await waitForMessageCount(page, 2);
    await page.getByTestId('typing-badge').waitFor();
    await waitForLastReplyComplete(page);
    const editedReply = await textOf(lastReply(page));
    expect(editedReply).toContain('Tell me about the mountains');

    // Version 1 of the member's message comes back with the reply it had.
    await action(memberMessages(page).first(), 'Previous version').click();
    await counterOf(memberMessages(page).first()).getByText('1 / 2').waitFor();
    await expect(textOf(memberMessages(page).first())).resolves.toBe('Tell me about the sea.');
    await page.waitForFunction((text) => {
      const last = Array.from(document.querySelectorAll('[data-testid="chat-message"]')).pop();
      return last?.querySelector('[data-testid="message-content"]')?.textContent?.trim() === text;
    }, firstReply);
    await waitForMessageCount(page, 2);

    // Deleting a reply asks first, and says what goes with it.
    await send(page, 'And the ships?', 4);
    await action(lastReply(page), 'Delete message').click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this message?' });
    await confirm.getByText('The messages after it go too').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await waitForMessageCount(page, 3);
    await expect(textOf(memberMessages(page).last())).resolves.toBe('And the ships?');

    // Branch from the first reply: the branch shown ends there, and the notice says the next message starts a new one.
    await action(replies(page).first(), 'Branch from here').click();
    await waitForMessageCount(page, 2);
    const notice = page.getByTestId('branch-notice');
    await notice.getByText('your next message starts a new branch').waitFor();
    // Back to the latest branch, then branch again.
    await notice.getByRole('button', { name: 'Back to the latest messages' }).click();
    await waitForMessageCount(page, 3);
    await notice.waitFor({ state: 'hidden' });
    await action(replies(page).first(), 'Branch from here').click();
    await waitForMessageCount(page, 2);
    await notice.waitFor();

    // The new message is a second version after that reply: the switcher shows the new branch.
    await send(page, 'What about rivers?', 4);
    await notice.waitFor({ state: 'hidden' });
    await counterOf(memberMessages(page).last()).getByText('2 / 2').waitFor();
    await expect(textOf(memberMessages(page).last())).resolves.toBe('What about rivers?');
    const riversReply = await textOf(lastReply(page));
    expect(riversReply).toContain('What about rivers');

    // A reload shows the same branch.
    await page.reload();
    await waitForMessageCount(page, 4);
    await expect(textOf(memberMessages(page).last())).resolves.toBe('What about rivers?');
    await counterOf(memberMessages(page).last()).getByText('2 / 2').waitFor();
    await counterOf(memberMessages(page).first()).getByText('1 / 2').waitFor();
    await expect(textOf(lastReply(page))).resolves.toBe(riversReply);

    // Continue writes a new version of the reply that starts with its text and grows it.
    await action(lastReply(page), 'Continue reply').click();
    await counterOf(lastReply(page)).getByText('2 / 2').waitFor();
    await waitForLastReplyComplete(page);
    await page.getByTestId('typing-badge').waitFor({ state: 'hidden' });
    const continued = await textOf(lastReply(page));
    expect(continued.startsWith(riversReply)).toBe(true);
    expect(continued.length).toBeGreaterThan(riversReply.length);
    await waitForMessageCount(page, 4);
  });

  it('on a phone: actions always visible, a reply edited in place is marked edited, nothing overflows at 360 px', async () => {
    const page = await newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await signUp(page, 'Remy');
    await openNewChat(page);
    await send(page, 'A long question about everything that could possibly happen on a long walk through the hills?', 2);

    // Touch screens have no hover: the actions are shown.
    const actions = lastReply(page).getByTestId('message-actions');
    await expect(actions.evaluate((element) => getComputedStyle(element).opacity)).resolves.toBe('1');
    const noOverflow = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await expect(noOverflow()).resolves.toBe(true);

    // Escape closes the editor and gives the focus back to Edit.
    await action(lastReply(page), 'Edit message').click();
    const editor = page.getByRole('textbox', { name: 'Edit the reply' });
    await editor.waitFor();
    await expect(noOverflow()).resolves.toBe(true);
    await editor.press('Escape');
    await editor.waitFor({ state: 'hidden' });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Edit message');

    // A reply edited by the member is saved as written, as a new version marked "edited".
    await action(lastReply(page), 'Edit message').click();
    await editor.fill('*waves* Shorter answer: enjoy the walk.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await counterOf(lastReply(page)).getByText('2 / 2').waitFor();
    await lastReply(page).getByTestId('message-edited').waitFor();
    await expect(textOf(lastReply(page))).resolves.toBe('waves Shorter answer: enjoy the walk.');
    await expect(page.getByTestId('chat-token-count').innerText()).resolves.toBe('14');
    await action(lastReply(page), 'Previous version').click();
    await counterOf(lastReply(page)).getByText('1 / 2').waitFor();
    await expect(lastReply(page).getByTestId('message-edited').count()).resolves.toBe(0);
    await expect(noOverflow()).resolves.toBe(true);
  });
});
