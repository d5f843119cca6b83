import { contextParts, messagesLeftOut, type PromptReportValue } from './prompt-report-model';

const report: PromptReportValue = {
  contextTokens: 1000,
  replyTokens: 200,
  promptTokens: 500,
  characterTokens: 92,
  summaryTokens: 50,
  messagesIncluded: 6,
  messagesTotal: 10,
  messageTokens: 300,
  firstIncludedSeq: 5,
  lore: [
    { label: 'Harbour', tokens: 40, keys: ['harbour'] },
    { label: 'Guild', tokens: 10, keys: [] },
  ],
  loreSkipped: [{ label: 'Dragons', reason: 'budget' }],
};

describe('context bar', () => {
  it('splits the context into character, summary, lore, messages, reply room and free room', () => {
    const parts = contextParts(report);
    expect(parts.map((part) => [part.segment, part.tokens])).toEqual([
      ['character', 100],
      ['summary', 50],
      ['lore', 50],
      ['messages', 300],
      ['reply', 200],
      ['free', 300],
    ]);
    expect(parts.reduce((sum, part) => sum + part.share, 0)).toBeCloseTo(1);
  });

  it('makes the bar as long as what was used when the prompt overflows', () => {
    const parts = contextParts({ ...report, contextTokens: 600 });
    expect(parts.find((part) => part.segment === 'free')?.tokens).toBe(0);
    expect(parts.reduce((sum, part) => sum + part.share, 0)).toBeCloseTo(1);
  });

  it('counts the messages left out of the prompt', () => {
    expect(messagesLeftOut(report)).toBe(4);
    expect(messagesLeftOut({ ...report, messagesIncluded: 10 })).toBe(0);
  });
});
