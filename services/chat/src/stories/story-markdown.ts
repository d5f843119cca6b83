import type { Story, StoryPassage } from '@app/schema';

/** How long a file name made from a title may be, before `.md`. */
const FILE_NAME_LENGTH = 60;

const humanize = (value: string) => value.charAt(0).toUpperCase() + value.slice(1).replace(/_/g, ' ');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const quoted = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => (line.trim() ? `> ${line}` : '>'))
    .join('\n');

/** A file name from the title: ASCII letters, digits and dashes only (accents dropped), `story.md` when none are left. */
export function storyFileName(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, FILE_NAME_LENGTH)
    .replace(/^-+|-+$/g, '');
  return `${base || 'story'}.md`;
}

function passageText(passage: StoryPassage): string {
  if (passage.moderationState === 'removed') return '*A moderator removed this passage.*';
  if (passage.content.trim()) return passage.content.trim();
  if (passage.status === 'streaming') return '*This passage is still being written.*';
  return '*This passage was not written.*';
}

/**
 * A branch of a story as a Markdown document: the title, the premise, genre and tone, then each passage with the
 * member's choice or action as a quoted line before it.
 */
export function storyMarkdown(story: Story, passages: readonly StoryPassage[]): { fileName: string; markdown: string } {
  const facts = [
    story.genre ? `**Genre:** ${humanize(story.genre)}` : null,
    story.tone ? `**Tone:** ${humanize(story.tone)}` : null,
    story.characterNames.length ? `**Characters:** ${story.characterNames.join(', ')}` : null,
  ].filter((fact): fact is string => fact !== null);
  const blocks = [`# ${oneLine(story.title) || 'Untitled story'}`, `**Premise:** ${story.premise.trim()}`];
  if (facts.length) blocks.push(facts.join('  \n'));
  blocks.push('---');
  for (const passage of passages) {
    if (passage.actionKind !== 'opening' && passage.action) blocks.push(quoted(passage.action));
    blocks.push(passageText(passage));
  }
  return { fileName: storyFileName(story.title), markdown: `${blocks.join('\n\n')}\n` };
}
