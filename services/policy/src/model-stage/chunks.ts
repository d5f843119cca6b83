/**
 * Long texts are checked in pieces: moderation endpoints and guard models take a bounded input. Pieces end on
 * whitespace where there is some in their second half, and each repeats the last words of the one before, so a
 * statement cut in two is still seen whole by one check.
 */

export const DEFAULT_MAX_CHUNK_CHARS = 8_000;
/** How much of the previous chunk the next one repeats (at most a quarter of a chunk). */
export const CHUNK_OVERLAP_CHARS = 300;

/** `text` in chunks of at most `maxChars` UTF-16 units (never splitting a surrogate pair); `[text]` when it fits. */
export function splitIntoChunks(text: string, maxChars = DEFAULT_MAX_CHUNK_CHARS, overlapChars = CHUNK_OVERLAP_CHARS): string[] {
  const max = Math.max(16, Math.floor(maxChars));
  if (text.length <= max) return [text];
  const overlap = Math.max(0, Math.min(Math.floor(overlapChars), Math.floor(max / 4)));
  const chunks: string[] = [];
  let start = 0;
  for (;;) {
    let end = start + max;
    if (end >= text.length) {
      chunks.push(text.slice(start));
      return chunks;
    }
    const space = lastWhitespace(text, start + Math.ceil(max / 2), end);
    end = space > start ? space : safeCut(text, end);
    chunks.push(text.slice(start, end));
    // The next chunk starts `overlap` back, at the start of a word; it always moves at least a quarter of a chunk on.
    start = nextWordStart(text, end - overlap, end);
  }
}

/** Index of the last whitespace character in [from, to), or -1. */
function lastWhitespace(text: string, from: number, to: number): number {
  for (let index = to - 1; index >= from; index--) if (isWhitespace(text.charCodeAt(index))) return index;
  return -1;
}

/** The first index after whitespace in [from, to), or `from` itself when there is none (moved off a pair's low half). */
function nextWordStart(text: string, from: number, to: number): number {
  for (let index = from; index < to; index++) {
    if (isWhitespace(text.charCodeAt(index)) && index + 1 < to && !isWhitespace(text.charCodeAt(index + 1))) return index + 1;
  }
  return safeCut(text, from);
}

/** `index`, or one less when it would split a surrogate pair. */
function safeCut(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff && index > 0 ? index - 1 : index;
}

function isWhitespace(code: number): boolean {
  return code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000 || (code >= 0x2000 && code <= 0x200a);
}
