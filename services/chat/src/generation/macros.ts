import { createHash } from 'node:crypto';

/**
 * Card macros ("curly braced syntaxes"): the Character Card V2/V3 subset SillyTavern and RisuAI cards rely on.
 *
 * - `{{char}}`, `<BOT>`, `<CHAR>`: the character's display name (V3 `nickname`, else `name`; see displayNameOf).
 * - `{{user}}`, `<USER>`: the member's display name.
 * - `{{original}}`: in a card's `system_prompt` / `post_history_instructions`, the default prompt the card replaces
 *   (V2 spec); empty anywhere else.
 * - `{{newline}}` → a line break; `{{trim}}` → removes itself and the line breaks around it; `{{noop}}` → nothing.
 * - `{{// A}}`, `{{comment: A}}`, `{{hidden_key: A}}` → nothing (V3: never sent to the model).
 * - `{{reverse:A}}`, `{{random:A,B,C}}` / `{{random::A::B}}`, `{{pick:A,B,C}}` (stable for the same text and seed),
 *   `{{roll:6}}` / `{{roll:d6}}` / `{{roll:2d6+1}}` (V3, with `\,` escaping a comma in a list).
 *
 * Names are case-insensitive. Macros nest (`{{reverse:{{char}}}}`), and a substituted value is never scanned again,
 * so a member named `{{char}}` stays `{{char}}`. Anything else in braces (SillyTavern's `{{time}}`, `{{getvar}}`,
 * `{{lastMessage}}`, …) is left as written.
 */
export interface MacroContext {
  char: string;
  user: string;
  /** The default prompt a card's system_prompt / post_history_instructions overrides; absent elsewhere. */
  original?: string;
  /** Makes `{{pick}}` differ between conversations while staying the same within one (e.g. the conversation id). */
  pickSeed?: string;
  /** For `{{random}}` and `{{roll}}`; Math.random by default. */
  random?: () => number;
}

/** Deeper nesting is left as written: no card needs it, and it bounds the recursion. */
const MAX_NESTING = 16;
/** Dice limits for `{{roll}}`: anything larger is not a roll a card means. */
const MAX_DICE = 100;
const MAX_SIDES = 1_000_000;

const LEGACY_NAMES = /<(user|bot|char)>/gi;
/** An opening `{{` is the last two braces of a run (`{{{char}}}` → `{Luna}`), a closing `}}` the first two. */
const BRACES = /\{{2,}|\}\}/g;
const SIMPLE_MACRO = /^\s*(char|user|original|newline|trim|noop)\s*$/i;
const SILENT_MACRO = /^(?:\/\/|(?:comment|hidden_key)\s*:)/i;
const LIST_MACRO = /^(random|pick)\s?::?/i;
const ROLL_MACRO = /^roll[\s:]/i;
const REVERSE_MACRO = /^reverse:/i;

/** Expands the card macros in `text` (see MacroContext). */
export function expandMacros(text: string, context: MacroContext): string {
  if (!text) return '';
  if (!text.includes('{{')) return replaceLegacyNames(text, context);
  return new MacroExpander(text, context).expand(0, text.length, 0);
}

/**
 * The name `{{char}}` stands for: the V3 `nickname` when the card has one (kept in `extra` by the card parser), else
 * its `name`, else `fallbackName` (e.g. the character row's name when `card` is the stored card fields).
 */
export function displayNameOf(
  card: { name?: unknown; nickname?: unknown; extra?: Record<string, unknown> | null } | null | undefined,
  fallbackName: string,
): string {
  const nickname = card?.extra?.nickname ?? card?.nickname;
  if (typeof nickname === 'string' && nickname.trim()) return nickname.trim();
  if (typeof card?.name === 'string' && card.name.trim()) return card.name.trim();
  return fallbackName;
}

function replaceLegacyNames(text: string, context: MacroContext): string {
  // A function replacement: a name containing `$&` must come out as written.
  return text.replace(LEGACY_NAMES, (_, which: string) => (which.toLowerCase() === 'user' ? context.user : context.char));
}

class MacroExpander {
  /** Position of each matched `{{` → position of its `}}`, and the matched openers in order. */
  private readonly closeOf = new Map<number, number>();
  private readonly opens: number[] = [];

  constructor(
    private readonly text: string,
    private readonly context: MacroContext,
  ) {
    const stack: number[] = [];
    for (const match of text.matchAll(BRACES)) {
      if (match[0].startsWith('{')) stack.push(match.index + match[0].length - 2);
      else if (stack.length > 0) this.closeOf.set(stack.pop()!, match.index);
    }
    this.opens = [...this.closeOf.keys()].sort((a, b) => a - b);
  }

  /** The expansion of text[start, end), whose macros are nested `depth` deep. */
  expand(start: number, end: number, depth: number): string {
    let out = '';
    let trimLeadingBreaks = false;
    const push = (piece: string) => {
      const kept = trimLeadingBreaks ? piece.replace(/^(?:\r?\n)+/, '') : piece;
      if (kept) trimLeadingBreaks = false;
      out += kept;
    };
    let at = start;
    for (let next = this.firstOpenAtOrAfter(start); next < this.opens.length && this.opens[next]! < end; next++) {
      const open = this.opens[next]!;
      if (open < at) continue; // inside a macro already handled
      const close = this.closeOf.get(open)!;
      push(replaceLegacyNames(this.text.slice(at, open), this.context));
      at = close + 2;
      if (depth < MAX_NESTING && SIMPLE_MACRO.exec(this.text.slice(open + 2, close))?.[1]?.toLowerCase() === 'trim') {
        out = out.replace(/(?:\r?\n)+$/, '');
        trimLeadingBreaks = true;
        continue;
      }
      push(this.evaluate(open, close, depth));
    }
    push(replaceLegacyNames(this.text.slice(at, end), this.context));
    return out;
  }

  private firstOpenAtOrAfter(position: number): number {
    let low = 0;
    let high = this.opens.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.opens[middle]! < position) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** The value of the macro text[open, close + 2). */
  private evaluate(open: number, close: number, depth: number): string {
    const bodyStart = open + 2;
    const body = this.text.slice(bodyStart, close);
    if (depth >= MAX_NESTING) return this.text.slice(open, close + 2);
    const simple = SIMPLE_MACRO.exec(body)?.[1]?.toLowerCase();
    if (simple === 'char') return this.context.char;
    if (simple === 'user') return this.context.user;
    if (simple === 'original') return this.context.original ?? '';
    if (simple === 'newline') return '\n';
    if (simple === 'noop') return '';
    if (SILENT_MACRO.test(body)) return '';
    const list = LIST_MACRO.exec(body);
    if (list) return this.choose(list[1]!.toLowerCase() as 'random' | 'pick', bodyStart + list[0].length, close, open, depth);
    const roll = ROLL_MACRO.exec(body);
    if (roll) return rollDice(this.expand(bodyStart + roll[0].length, close, depth + 1), this.random);
    const reverse = REVERSE_MACRO.exec(body);
    if (reverse)
      return Array.from(this.expand(bodyStart + reverse[0].length, close, depth + 1))
        .reverse()
        .join('');
    return `{{${this.expand(bodyStart, close, depth + 1)}}}`;
  }

  private get random(): () => number {
    return this.context.random ?? Math.random;
  }

  /** `{{random:…}}` / `{{pick:…}}`: items split on `::` when present, else on unescaped commas (then trimmed). */
  private choose(kind: 'random' | 'pick', start: number, end: number, open: number, depth: number): string {
    const byColons = this.splitTopLevel(start, end, '::');
    const ranges = byColons.length > 1 ? byColons : this.splitTopLevel(start, end, ',');
    const items = ranges.map(([from, to]) => {
      const item = this.expand(from, to, depth + 1);
      return byColons.length > 1 ? item : item.trim().replace(/\\,/g, ',');
    });
    const fraction = kind === 'random' ? this.random() : this.pickFraction(open);
    return items[Math.min(items.length - 1, Math.floor(fraction * items.length))]!;
  }

  /** Ranges of text[start, end) between separators that are not inside a nested macro nor escaped (`\,`). */
  private splitTopLevel(start: number, end: number, separator: string): [number, number][] {
    const ranges: [number, number][] = [];
    let from = start;
    for (let at = start; at < end; at++) {
      const close = this.closeOf.get(at);
      if (close !== undefined && close < end) {
        at = close + 1;
      } else if (this.text[at] === '\\' && separator === ',') {
        at++;
      } else if (this.text.startsWith(separator, at)) {
        ranges.push([from, at]);
        from = at + separator.length;
        at = from - 1;
      }
    }
    ranges.push([from, end]);
    return ranges;
  }

  /** V3: a pick should stay the same for the same prompt, so it is drawn from the seed, the text and its place. */
  private pickFraction(open: number): number {
    const digest = createHash('sha256')
      .update(`${this.context.pickSeed ?? ''}\u0000${open}\u0000${this.text}`)
      .digest();
    return digest.readUInt32BE(0) / 2 ** 32;
  }
}

/** `N`, `dN`, `XdN`, `XdN+K` / `XdN-K` → the total of the roll; anything else → nothing (as SillyTavern). */
function rollDice(formula: string, random: () => number): string {
  const dice = /^(\d*)d(\d+)([+-]\d+)?$/i.exec(formula.replace(/\s+/g, ''));
  const plain = /^\d+$/.test(formula.trim());
  const count = plain ? 1 : Number(dice?.[1] || 1);
  const sides = plain ? Number(formula.trim()) : Number(dice?.[2] ?? 0);
  if ((!plain && !dice) || count < 1 || count > MAX_DICE || sides < 1 || sides > MAX_SIDES) return '';
  let total = plain ? 0 : Number(dice?.[3] ?? 0);
  for (let die = 0; die < count; die++) total += 1 + Math.min(sides - 1, Math.floor(random() * sides));
  return String(total);
}
