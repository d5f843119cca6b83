import { STORY_LIMITS } from '@app/schema';
import { estimateMessagesTokens } from '../providers/token-estimate';
import {
  CHOICES_HEADING,
  NARRATOR_HEADER,
  OMITTED_NOTE,
  type PathPassage,
  type StoryPromptInput,
  buildStoryPrompt,
  finalizePassage,
} from './story-prompt';

describe('finalizePassage', () => {
  it('keeps the text before the choices heading as the passage and the numbered options as its choices', () => {
    const written = finalizePassage(
      `The door creaks open.\nA cold wind blows.\n\n${CHOICES_HEADING}\n1. Step inside\n2) Close the door\n3. **Call out**\n`,
    );
    expect(written).toEqual({
      content: 'The door creaks open.\nA cold wind blows.',
      choices: ['Step inside', 'Close the door', 'Call out'],
    });
  });

  it('offers no choices when the model wrote fewer than two (the reader writes an action)', () => {
    expect(finalizePassage('You wait.\n### Choices\n1. Keep waiting')).toEqual({ content: 'You wait.', choices: [] });
    expect(finalizePassage('You wait. Nothing happens.')).toEqual({ content: 'You wait. Nothing happens.', choices: [] });
  });

  it('cuts more than four choices, and each choice to the longest a choice may be', () => {
    const long = 'x'.repeat(STORY_LIMITS.choiceLength + 50);
    const { choices } = finalizePassage(`Text\n### Options\n1. a\n2. b\n3. ${long}\n4. d\n5. e`);
    expect(choices).toEqual(['a', 'b', 'x'.repeat(STORY_LIMITS.choiceLength), 'd']);
  });

  it('splits at the first line starting with ###, whatever it says', () => {
    expect(finalizePassage('Prose ### not a heading\n### What next?\n1. One\n2. Two')).toEqual({
      content: 'Prose ### not a heading',
      choices: ['One', 'Two'],
    });
  });
});

const passage = (index: number, extra: Partial<PathPassage> = {}): PathPassage => ({
  actionKind: index === 0 ? 'opening' : 'action',
  action: index === 0 ? null : `action ${index}`,
  content: `Passage ${index}. ${'word '.repeat(80)}`,
  isRemoved: false,
  ...extra,
});

const input = (extra: Partial<StoryPromptInput> = {}): StoryPromptInput => ({
  premise: 'A lighthouse keeper finds a message in a bottle.',
  genre: 'science_fiction',
  tone: 'dark',
  language: 'fr',
  characters: [{ id: 'c1', name: 'Mara', description: 'A retired pilot.', personality: 'calm', scenario: '' }],
  path: [],
  next: { actionKind: 'opening', action: null },
  contextTokens: 4096,
  maxReplyTokens: 300,
  ...extra,
});

describe('buildStoryPrompt', () => {
  it('tells the narrator the format, language, genre, tone and characters, then the premise and the request', () => {
    const prompt = buildStoryPrompt(input());
    expect(prompt[0]!.role).toBe('system');
    expect(prompt[0]!.content.startsWith(NARRATOR_HEADER)).toBe(true);
    expect(prompt[0]!.content).toContain(CHOICES_HEADING);
    expect(prompt[0]!.content).toContain('Language: French');
    expect(prompt[0]!.content).toContain('Genre: science fiction');
    expect(prompt[0]!.content).toContain('Tone: dark');
    expect(prompt[0]!.content).toContain('- Mara: A retired pilot. Personality: calm');
    expect(prompt.slice(1)).toEqual([
      { role: 'user', content: 'Premise: A lighthouse keeper finds a message in a bottle.' },
      { role: 'user', content: 'Begin the story.' },
    ]);
  });

  it('replays the branch as the reader’s actions and the narrator’s passages, ending with the new action', () => {
    const prompt = buildStoryPrompt(
      input({ path: [passage(0), passage(1, { actionKind: 'choice', action: 'Open it' })], next: { actionKind: 'action', action: 'Run' } }),
    );
    expect(prompt.slice(2).map((message) => [message.role, message.content.split('.')[0]])).toEqual([
      ['assistant', 'Passage 0'],
      ['user', 'The reader chooses: Open it'],
      ['assistant', 'Passage 1'],
      ['user', 'The reader does this: Run'],
    ]);
  });

  it('never reads a removed passage back to the model', () => {
    const prompt = buildStoryPrompt(input({ path: [passage(0), passage(1, { content: 'SECRET removed text', isRemoved: true })] }));
    expect(prompt.some((message) => message.content.includes('SECRET'))).toBe(false);
    expect(prompt.some((message) => message.content === 'The reader does this: action 1')).toBe(true);
  });

  it('fits the context: keeps the premise and the newest passages, leaving out the oldest ones', () => {
    const path = Array.from({ length: 60 }, (_unused, index) => passage(index));
    const prompt = buildStoryPrompt(
      input({ path, next: { actionKind: 'action', action: 'Go on' }, contextTokens: 2000, maxReplyTokens: 300 }),
    );
    expect(estimateMessagesTokens(prompt)).toBeLessThanOrEqual(2000 - 300);
    expect(prompt[1]!.content).toContain('lighthouse keeper');
    expect(prompt[2]).toEqual({ role: 'system', content: OMITTED_NOTE });
    const texts = prompt.map((message) => message.content);
    expect(texts.some((text) => text.startsWith('Passage 59.'))).toBe(true);
    expect(texts.some((text) => text.startsWith('Passage 0.'))).toBe(false);
    expect(texts[texts.length - 1]).toBe('The reader does this: Go on');
  });
});
