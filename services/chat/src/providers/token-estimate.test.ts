import { TOKENS_PER_MESSAGE, TOKENS_PER_REPLY_PRIMING, estimateMessagesTokens, estimateTokens } from './token-estimate';

describe('estimateTokens', () => {
  it('is zero for empty text', () => {
    expect(estimateTokens('')).toBe(0);
  });

  it('counts about four characters per token, rounded up', () => {
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('Hello, how are you today?')).toBe(7); // 25 characters
    expect(estimateTokens('x'.repeat(4000))).toBe(1000);
  });

  it('counts Chinese, Japanese and Korean characters as about one token each', () => {
    expect(estimateTokens('你好世界')).toBe(4);
    expect(estimateTokens('こんにちは')).toBe(5);
    expect(estimateTokens('カタカナ')).toBe(4);
    expect(estimateTokens('안녕하세요')).toBe(5);
    expect(estimateTokens('你好。')).toBe(3); // CJK punctuation too
  });

  it('adds CJK and other characters in mixed text', () => {
    // 4 CJK + 'Hi ' (3) + ' ok' (3) = 4 + ceil(6 / 4) = 6
    expect(estimateTokens('Hi 你好世界 ok')).toBe(6);
  });

  it('counts characters, not UTF-16 units (an emoji is one character)', () => {
    expect(estimateTokens('🎉🎉🎉🎉')).toBe(1);
    expect(estimateTokens('🎉🎉🎉🎉🎉')).toBe(2);
  });

  it('is fast on large input', () => {
    const text = 'lorem ipsum 你好 '.repeat(20_000);
    const started = performance.now();
    expect(estimateTokens(text)).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('estimateMessagesTokens', () => {
  it('adds per-message overhead and reply priming', () => {
    expect(estimateMessagesTokens([])).toBe(TOKENS_PER_REPLY_PRIMING);
    expect(estimateMessagesTokens([{ content: 'abcd' }, { content: '你好' }])).toBe(
      TOKENS_PER_REPLY_PRIMING + 2 * TOKENS_PER_MESSAGE + 1 + 2,
    );
  });
});
