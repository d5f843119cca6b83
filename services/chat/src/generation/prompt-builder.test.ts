import { buildPrompt, summaryRequest, systemPromptFor } from './prompt-builder';

const persona = {
  name: 'Luna',
  description: 'A moon witch from {{char}} Hollow.',
  personality: 'Calm, Wise',
  scenario: 'A quiet night on the tower.',
  exampleDialogue: '{{user}}: hi\n{{char}}: Hello, traveller.',
  systemPrompt: '',
  postHistoryInstructions: 'Stay in character as {{char}}.',
};

const turns = (count: number, size = 40) =>
  Array.from({ length: count }, (_, i) => ({
    seq: i + 1,
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    content: `${i} ${'word '.repeat(size)}`,
  }));

describe('prompt builder', () => {
  it('writes the persona, with {{char}}/{{user}} macros expanded', () => {
    const system = systemPromptFor(persona);
    expect(system).toContain('You are Luna.');
    expect(system).toContain('Name: Luna');
    expect(system).toContain('Description: A moon witch from Luna Hollow.');
    expect(system).toContain('Traits: Calm, Wise');
    expect(system).toContain('Scenario: A quiet night on the tower.');
    expect(system).toContain('User: hi\nLuna: Hello, traveller.');
    expect(systemPromptFor(null)).toContain('Name: AI Assistant');
  });

  it("names the member's persona for {{user}}, tells the character about them, and keeps {{original}} in a card's system prompt", () => {
    const member = { name: 'Kai', description: "A sailor who lost {{char}}'s map." };
    const system = systemPromptFor({ ...persona, systemPrompt: '{{original}} Speak in riddles to {{user}}.' }, member);
    expect(system.split('\n')[0]).toBe(
      'You are Luna. Stay in character, reply in the first person, and keep replies vivid and concise. Never speak for Kai. Speak in riddles to Kai.',
    );
    expect(system).toContain("About Kai: A sailor who lost Luna's map.");
    expect(system).toContain('Kai: hi\nLuna: Hello, traveller.');
    const plan = buildPrompt({
      persona,
      member,
      summary: null,
      summaryUptoSeq: null,
      history: turns(2),
      contextTokens: 8192,
      maxReplyTokens: 512,
    });
    expect(plan.messages.at(-1)!.content).toBe('Stay in character as Luna.');
  });

  it('inserts the lorebook entries the recent turns bring up, before or after the character, and reports them', () => {
    const characterBook = {
      entries: [
        {
          keys: ['lighthouse'],
          content: 'The lighthouse has been dark for ten years.',
          insertion_order: 10,
          enabled: true,
          comment: 'Lighthouse',
        },
        { keys: ['dragon'], content: 'Dragons never come this far south.', insertion_order: 20, enabled: true, comment: 'Dragons' },
        { keys: [], content: '{{char}} fears deep water.', constant: true, insertion_order: 5, enabled: true, position: 'before_char' },
      ],
    };
    const history = [
      { seq: 1, role: 'user' as const, content: 'Shall we climb the lighthouse tonight?' },
      { seq: 2, role: 'assistant' as const, content: 'Only if you hold my hand.' },
    ];
    const plan = buildPrompt({
      persona: { ...persona, characterBook },
      summary: null,
      summaryUptoSeq: null,
      history,
      contextTokens: 4096,
      maxReplyTokens: 256,
    });
    const system = plan.messages[0]!.content;
    expect(system).toContain('The lighthouse has been dark for ten years.');
    expect(system).not.toContain('Dragons');
    expect(system.indexOf('Luna fears deep water.')).toBeLessThan(system.indexOf('Name: Luna'));
    expect(system.indexOf('The lighthouse has been dark')).toBeGreaterThan(system.indexOf('Scenario:'));
    expect(plan.report.lore.map((entry) => entry.label)).toEqual(['#2', 'Lighthouse']);
    expect(plan.report.lore.find((entry) => entry.label === 'Lighthouse')!.keys).toEqual(['lighthouse']);
    expect(plan.report).toMatchObject({
      messagesIncluded: 2,
      messagesTotal: 2,
      contextTokens: 4096,
      replyTokens: 256,
      firstIncludedSeq: 1,
    });
    expect(plan.report.promptTokens).toBe(
      plan.report.characterTokens + plan.report.lore.reduce((sum, e) => sum + e.tokens, 0) + plan.report.messageTokens + 8,
    );
  });

  it('sends every turn when they fit, with post-history instructions last', () => {
    const plan = buildPrompt({ persona, summary: null, summaryUptoSeq: null, history: turns(4), contextTokens: 8192, maxReplyTokens: 512 });
    expect(plan.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'system']);
    expect(plan.messages.at(-1)!.content).toBe('Stay in character as Luna.');
    expect(plan.firstIncludedSeq).toBe(1);
    expect(plan.unsummarized).toEqual([]);
  });

  it('keeps the newest turns within the budget and reports older unsummarised ones', () => {
    const history = turns(40);
    const plan = buildPrompt({ persona, summary: null, summaryUptoSeq: null, history, contextTokens: 1200, maxReplyTokens: 300 });
    const sent = plan.messages.filter((m) => m.role !== 'system');
    expect(sent.length).toBeLessThan(40);
    expect(sent.at(-1)!.content).toBe(history.at(-1)!.content);
    expect(plan.firstIncludedSeq).toBe(40 - sent.length + 1);
    expect(plan.unsummarized.map((t) => t.seq)).toEqual(history.slice(0, 40 - sent.length).map((t) => t.seq));
    const total = plan.messages.reduce((sum, m) => sum + Math.ceil(m.content.length / 4) + 4, 0);
    expect(total).toBeLessThanOrEqual(1200 - 300);
  });

  it('includes the rolling summary and counts only turns after it as unsummarised', () => {
    const history = turns(40);
    const plan = buildPrompt({
      persona,
      summary: 'They met at the tower.',
      summaryUptoSeq: 10,
      history,
      contextTokens: 1200,
      maxReplyTokens: 300,
    });
    expect(plan.messages[1]).toEqual({ role: 'system', content: 'Summary of the earlier conversation: They met at the tower.' });
    expect(plan.unsummarized.every((t) => t.seq > 10)).toBe(true);
  });

  it('always sends the newest turn, cut to fit when it alone is too long', () => {
    const plan = buildPrompt({
      persona: null,
      summary: null,
      summaryUptoSeq: null,
      history: [{ seq: 1, role: 'user', content: 'x'.repeat(50_000) }],
      contextTokens: 2000,
      maxReplyTokens: 500,
    });
    expect(plan.messages).toHaveLength(2);
    expect(plan.messages[1]!.content.length).toBeLessThan(50_000);
  });

  it('asks for a summary of the dropped turns, building on the previous one', () => {
    const request = summaryRequest('Earlier.', turns(2, 1));
    expect(request[0]!.content).toMatch(/^Summarize/);
    expect(request[1]).toEqual({ role: 'user', content: 'Summary so far: Earlier.' });
    expect(request).toHaveLength(4);
  });
});
