import { buildStoryPrompt, finalizePassage } from '../stories/story-prompt';
import { composeDemoPassage, isNarratorPrompt } from './demo-story';
import { DemoChatProvider } from './demo.provider';

const prompt = (next: { actionKind: 'opening' | 'choice' | 'action'; action: string | null }) =>
  buildStoryPrompt({
    premise: 'A lighthouse keeper finds a message in a bottle. It is addressed to her.',
    genre: 'mystery',
    tone: 'suspenseful',
    language: 'en',
    characters: [{ id: 'c1', name: 'Mara', description: '', personality: '', scenario: '' }],
    path: next.actionKind === 'opening' ? [] : [{ actionKind: 'opening', action: null, content: 'The bottle glows.', isRemoved: false }],
    next,
    contextTokens: 4096,
    maxReplyTokens: 200,
  });

describe('the demo narrator', () => {
  it('recognises a narrator prompt and nothing else', () => {
    expect(isNarratorPrompt(prompt({ actionKind: 'opening', action: null }))).toBe(true);
    expect(isNarratorPrompt([{ role: 'system', content: 'You are Mara.' }])).toBe(false);
  });

  it('opens with the premise and offers three choices in the narrator’s format', () => {
    const { content, choices } = finalizePassage(composeDemoPassage(prompt({ actionKind: 'opening', action: null })));
    expect(content).toContain('A lighthouse keeper finds a message in a bottle.');
    expect(content).toContain('Mara');
    expect(choices).toHaveLength(3);
    expect(new Set(choices).size).toBe(3);
  });

  it('continues from the reader’s action', () => {
    const { content, choices } = finalizePassage(composeDemoPassage(prompt({ actionKind: 'action', action: 'I read the letter aloud.' })));
    expect(content).toContain('You decide: "I read the letter aloud."');
    expect(choices).toHaveLength(3);
  });

  it('streams a story passage from the demo provider', async () => {
    const stream = new DemoChatProvider(0).stream({ messages: prompt({ actionKind: 'choice', action: 'Open the door' }) });
    let step = await stream.next();
    while (!step.done) step = await stream.next();
    expect(finalizePassage(step.value.text).choices).toHaveLength(3);
  });
});
