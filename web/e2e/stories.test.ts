import type { Locator, Page } from 'playwright-core';
import { hasChromium } from './browser';
import { type ContextOptions, memberBrowser } from './member-browser';

jest.setTimeout(180_000);

const describeWithBrowser = hasChromium() ? describe : describe.skip;

/** A member plays a story with the demo narrator: its passages end with `### Choices` and three options. */
describeWithBrowser('stories in Chromium', () => {
  // The demo narrator streams slowly enough to watch a passage grow.
  const members = memberBrowser({ CHAT_DEMO_CHUNK_DELAY_MS: '60' });
  const newPage = (options: ContextOptions = {}) =>
    members.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US', ...options });
  const signUp = (page: Page) => members.signUp(page, 'Scheherazade');

  const passages = (page: Page) => page.getByTestId('story-passage');
  const choices = (page: Page) => page.getByTestId('story-choice');
  const proseLength = async (passage: Locator) => (await passage.getByTestId('story-passage-text').innerText()).trim().length;

  /** The newest passage streams: it is seen with some text while still being written, then with more. */
  async function watchLastPassageStream(page: Page, count: number) {
    await page.waitForFunction(
      (n) => {
        const all = document.querySelectorAll('[data-testid="story-passage"]');
        const last = all[all.length - 1];
        return (
          all.length === n &&
          last?.getAttribute('data-status') === 'streaming' &&
          (last.querySelector('[data-testid="story-passage-text"]')?.textContent?.trim().length ?? 0) > 0
        );
      },
      count,
      { timeout: 30_000 },
    );
    const last = passages(page).nth(count - 1);
    const early = await proseLength(last);
    await page.waitForFunction(
      ({ n, min }) => {
        const passage = document.querySelectorAll('[data-testid="story-passage"]').item(n - 1);
        return (passage?.querySelector('[data-testid="story-passage-text"]')?.textContent?.trim().length ?? 0) > min;
      },
      { n: count, min: early },
      { timeout: 30_000 },
    );
    // The choices block never shows as prose, not even while it streams.
    await expect(last.getByTestId('story-passage-text').innerText()).resolves.not.toContain('###');
    await page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="story-passage"]')[n - 1]?.getAttribute('data-status') === 'complete',
      count,
      { timeout: 30_000 },
    );
    await expect(last.getByTestId('story-passage-text').innerText()).resolves.not.toContain('###');
  }

  async function choiceTexts(page: Page): Promise<string[]> {
    await choices(page).first().waitFor();
    const texts = await choices(page).allInnerTexts();
    // "1.\nLook around" → "Look around"; an explored badge is not part of the choice.
    return texts.map((text) =>
      text
        .replace(/^\d+\.\s*/, '')
        .replace(/\s*Explored$/, '')
        .trim(),
    );
  }

  async function noHorizontalOverflow(page: Page) {
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  }

  it('starts a story from a starter, streams passages, branches from an earlier passage and keeps both branches across a reload', async () => {
    const page = await newPage();
    await signUp(page);

    // Through the navigation: an empty list invites the first story and shows the month's allowance.
    await page.getByRole('navigation').getByRole('link', { name: 'Stories', exact: true }).first().click();
    await page.waitForURL(/\/stories$/);
    await page.getByRole('heading', { name: 'Stories', level: 1 }).waitFor();
    await page.getByText('No stories yet').waitFor();
    await expect(page.getByTestId('story-allowance').innerText()).resolves.toBe('0 / 2 free stories this month');

    await page.getByTestId('new-story-button').click();
    const dialog = page.getByRole('dialog', { name: 'New story' });
    await expect(dialog.getByTestId('story-starter').count()).resolves.toBe(8);
    await dialog.getByRole('button', { name: /The Last Lantern/ }).click();
    await expect(dialog.getByLabel('How does your story begin?').inputValue()).resolves.toContain('last enchanted lantern');
    await dialog.getByRole('button', { name: 'Start story' }).click();
    await page.waitForURL(/\/stories\/[0-9a-f-]{36}$/);
    const storyPath = new URL(page.url()).pathname;
    await page.getByRole('heading', { name: 'The Last Lantern', level: 1 }).waitFor();

    // The opening streams, then offers its choices; the demo narrator is labelled as a demo, never as AI.
    await watchLastPassageStream(page, 1);
    await page.getByTestId('story-demo-notice').waitFor();
    const openingChoices = await choiceTexts(page);
    expect(openingChoices.length).toBeGreaterThanOrEqual(2);
    expect(openingChoices.length).toBeLessThanOrEqual(4);

    // Take the first choice: the member's move and a new streaming passage follow the opening.
    await choices(page).first().click();
    await watchLastPassageStream(page, 2);
    await expect(passages(page).nth(1).getByTestId('story-member-move').innerText()).resolves.toContain(openingChoices[0]);

    // Go back to the opening and take another choice: a second branch; the first one is kept.
    await passages(page).first().getByTestId('story-go-back').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="story-passage"]').length === 1);
    await choices(page).first().getByText('Explored').waitFor();
    await choices(page).nth(1).click();
    await watchLastPassageStream(page, 2);
    await expect(passages(page).nth(1).getByTestId('story-member-move').innerText()).resolves.toContain(openingChoices[1]);

    // After a reload the second branch is still the one being read, and the map shows both branches.
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="story-passage"][data-status="complete"]').length === 2);
    await expect(passages(page).nth(1).getByTestId('story-member-move').innerText()).resolves.toContain(openingChoices[1]);
    await page.getByTestId('story-map-toggle').click();
    const map = page.getByTestId('story-map');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="story-map-node"]').length === 3);
    const nodeTexts = await map.getByTestId('story-map-node').allInnerTexts();
    expect(nodeTexts[0]).toContain('Opening');
    expect(nodeTexts.filter((text) => text.includes(openingChoices[0]!))).toHaveLength(1);
    expect(nodeTexts.filter((text) => text.includes(openingChoices[1]!))).toHaveLength(1);
    const current = map.locator('[data-testid="story-map-node"][aria-current="location"]');
    await expect(current.innerText()).resolves.toContain(openingChoices[1]);

    // The map is keyboard accessible: from the current node (the second branch), Up then Enter goes to the first branch.
    await current.focus();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (text) => document.querySelectorAll('[data-testid="story-member-move"]')[0]?.textContent?.includes(text) ?? false,
      openingChoices[0]!,
    );

    // The list shows the story with its passages and the allowance it used.
    await page.goto(`${members.url}/stories`);
    const card = page.getByTestId('story-card');
    await card.first().waitFor();
    await expect(card.count()).resolves.toBe(1);
    await expect(card.innerText()).resolves.toContain('The Last Lantern');
    await expect(card.innerText()).resolves.toContain('3 passages');
    await page.getByTestId('story-allowance').getByText('1 / 2 free stories this month').waitFor();

    // On a phone nothing scrolls sideways, and the map is a drawer.
    const phone = await newPage({ viewport: { width: 360, height: 740 }, storageState: await page.context().storageState() });
    await phone.goto(`${members.url}/stories`);
    await phone.getByTestId('story-card').waitFor();
    await noHorizontalOverflow(phone);
    await phone.goto(`${members.url}${storyPath}`);
    await phone.waitForFunction(() => document.querySelectorAll('[data-testid="story-passage"][data-status="complete"]').length === 2);
    await choices(phone).first().waitFor();
    await noHorizontalOverflow(phone);
    await phone.getByTestId('story-map-toggle').click();
    await phone.getByTestId('story-map-drawer').getByTestId('story-map-node').first().waitFor();
    await noHorizontalOverflow(phone);
  });
});
