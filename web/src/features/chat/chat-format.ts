/**
 * The little markdown roleplay chats use: `*actions*` in italics, `**emphasis**` in bold, line
 * breaks kept. Parsed into plain segments (never HTML), so message text cannot inject markup.
 */

export interface TextSegment {
  text: string;
  italic?: boolean;
  bold?: boolean;
}

/** One line of a message. */
export type FormattedLine = TextSegment[];

// `**bold**` first, then `*italic*` / `_italic_`; markers must hug the text (`2 * 3 * 4` stays plain).
const INLINE = /\*\*(?=\S)([^*]*?\S)\*\*|\*(?=\S)([^*]*?\S)\*|(?<![\p{L}\p{N}])_(?=\S)([^_]*?\S)_(?![\p{L}\p{N}])/gu;

function parseLine(line: string): FormattedLine {
  const segments: TextSegment[] = [];
  let last = 0;
  for (const match of line.matchAll(INLINE)) {
    const start = match.index;
    if (start > last) segments.push({ text: line.slice(last, start) });
    const [, bold, italicStar, italicUnderscore] = match;
    if (bold !== undefined) segments.push({ text: bold, bold: true });
    else segments.push({ text: italicStar ?? italicUnderscore ?? '', italic: true });
    last = start + match[0].length;
  }
  if (last < line.length) segments.push({ text: line.slice(last) });
  return segments;
}

/** An action still being written (`*leans in` with no closing star yet) is shown in italics already. */
function openAction(line: FormattedLine): FormattedLine {
  const last = line[line.length - 1];
  if (!last || last.italic || last.bold) return line;
  const match = /(?<!\*)\*(?=[^\s*])([^*]*)$/.exec(last.text);
  if (!match) return line;
  const before = last.text.slice(0, match.index);
  return [...line.slice(0, -1), ...(before ? [{ text: before }] : []), { text: match[1]!, italic: true }];
}

/**
 * Splits a message into lines of segments. Finished text shows an unmatched `*` as typed; while a
 * reply streams, the open action on its last line is already italic, so the text does not jump.
 */
export function formatMessage(content: string, { streaming = false }: { streaming?: boolean } = {}): FormattedLine[] {
  const lines = content.replace(/\r\n?/g, '\n').split('\n').map(parseLine);
  if (streaming && lines.length > 0) lines[lines.length - 1] = openAction(lines[lines.length - 1]!);
  return lines;
}
