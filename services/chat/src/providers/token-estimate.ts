/**
 * Rough token counts for context budgeting, without a tokenizer: about four characters per token for
 * alphabetic scripts (BPE tokenizers average ~4 characters of English per token), and one token per
 * character for Chinese, Japanese and Korean, which tokenizers split far more finely. It errs on the
 * high side so a prompt built with it fits the model's window.
 */

/** Han, kana, Hangul, CJK punctuation and full-width forms: ~1 token each. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/gu;

/** Estimated tokens in `text`: ceil(other characters / 4) + one per CJK character. */
export function estimateTokens(text: string): number {
  if (!text) return 0;
  const cjk = text.match(CJK)?.length ?? 0;
  let codePoints = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A surrogate pair is one character.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) index++;
    }
    codePoints++;
  }
  return cjk + Math.ceil((codePoints - cjk) / 4);
}

/** Tokens a chat-completions request adds around each message (role and separators), per OpenAI's cookbook. */
export const TOKENS_PER_MESSAGE = 4;
/** Tokens that prime the assistant's reply. */
export const TOKENS_PER_REPLY_PRIMING = 3;

/** Estimated prompt tokens of a list of chat messages, including per-message overhead. */
export function estimateMessagesTokens(messages: readonly { content: string }[]): number {
  let total = TOKENS_PER_REPLY_PRIMING;
  for (const message of messages) total += TOKENS_PER_MESSAGE + estimateTokens(message.content);
  return total;
}
