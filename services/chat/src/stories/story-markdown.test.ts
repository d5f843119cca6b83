import type { Story, StoryPassage } from '@app/schema';
import { storyFileName, storyMarkdown } from './story-markdown';

const story: Story = {
  id: '00000000-0000-4000-8000-000000000001',
  ownerId: '00000000-0000-4000-8000-000000000002',
  title: 'The Lighthouse: Part I',
  premise: 'A keeper finds a bottle.',
  genre: 'science_fiction',
  tone: 'dark',
  language: 'en',
  characterIds: ['00000000-0000-4000-8000-000000000003'],
  characterNames: ['Mara'],
  currentPassageId: null,
  passageCount: 3,
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  lastPlayedAt: '2025-01-01T00:00:00.000Z',
};

const passage = (extra: Partial<StoryPassage>): StoryPassage => ({
  id: '00000000-0000-4000-8000-000000000010',
  storyId: story.id,
  parentId: null,
  seq: 1,
  depth: 0,
  actionKind: 'opening',
  action: null,
  content: '',
  choices: [],
  status: 'complete',
  model: 'demo',
  errorCode: null,
  savePoint: null,
  moderationState: 'visible',
  createdAt: story.createdAt,
  updatedAt: story.createdAt,
  ...extra,
});

describe('storyMarkdown', () => {
  it('writes the title, premise, genre and tone, then each passage after the reader’s quoted action', () => {
    const { markdown, fileName } = storyMarkdown(story, [
      passage({ content: 'The bottle glows.' }),
      passage({ actionKind: 'choice', action: 'Open the bottle', content: 'A voice speaks.', depth: 1 }),
      passage({ actionKind: 'action', action: 'I answer.\nLoudly.', content: 'It laughs.', depth: 2 }),
    ]);
    expect(fileName).toBe('the-lighthouse-part-i.md');
    expect(markdown).toBe(
      [
        '# The Lighthouse: Part I',
        '**Premise:** A keeper finds a bottle.',
        '**Genre:** Science fiction  \n**Tone:** Dark  \n**Characters:** Mara',
        '---',
        'The bottle glows.',
        '> Open the bottle',
        'A voice speaks.',
        '> I answer.\n> Loudly.',
        'It laughs.',
      ].join('\n\n') + '\n',
    );
  });

  it('says so for a removed passage and one that was not written, without their text', () => {
    const { markdown } = storyMarkdown(story, [
      passage({ content: '', moderationState: 'removed' }),
      passage({ actionKind: 'action', action: 'Run', status: 'failed', depth: 1 }),
    ]);
    expect(markdown).toContain('*A moderator removed this passage.*');
    expect(markdown).toContain('> Run\n\n*This passage was not written.*');
  });
});

describe('storyFileName', () => {
  it('keeps safe characters only, drops accents, and falls back to story.md', () => {
    expect(storyFileName('Café ../../etc/passwd')).toBe('cafe-etc-passwd.md');
    expect(storyFileName('Тайна маяка')).toBe('story.md');
    expect(storyFileName('a'.repeat(200))).toBe(`${'a'.repeat(60)}.md`);
  });
});
