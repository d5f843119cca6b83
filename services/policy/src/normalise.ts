/**
 * Text folding shared by lexicon entries and checked text, so the two always agree. One pass over the text:
 * - NFKC and lower case; accents off Latin and Greek letters, but Cyrillic й, Devanagari matras and Hangul kept;
 * - zero-width and format characters (U+200B-U+200F, U+2060, U+FEFF, soft hyphen, ...) and Zalgo marks removed;
 * - leetspeak inside words undone ("s3xy", "n00dz", "@ss", "$ex"), while a word that starts with digits keeps them ("15yo");
 * - spelled-out words joined ("s e x", "n.u.d.e", "r-a-p-e", "s*e*x"), with a word boundary allowed between their letters;
 * - a new word wherever the script changes ("sex를", "12岁"), except between Latin, Cyrillic and Greek;
 * - words mixing Latin with Cyrillic or Greek lookalikes read both ways (see `alt`).
 * The result is words separated by single spaces. Work per character is constant, so the whole is linear.
 */

export interface FoldedText {
  /** Folded words, separated by single spaces. */
  text: string;
  /**
   * `text` with every mixed-script word (and every Cyrillic/Greek word made only of Latin lookalikes) read in the other
   * script, character for character, so positions agree with `text`; null when no word needed it.
   */
  alt: string | null;
  /** soft[i] === 1: a word boundary may be assumed before position i (inside a spelled-out word). null when none. */
  soft: Uint8Array | null;
}

const SEP = 0;
const DROP = 1;
const LETTER = 2;
const MARK = 3;
const DIGIT = 4;
const LEET = 5;

/** Script groups: a change of group inside a run of letters starts a new word. */
const ALPHA = 1;
const UNSEGMENTED = 2;
const HANGUL = 3;
const INDIC = 4;

/** Bit flags for a word's letters. */
const CYRILLIC = 1;
const GREEK = 2;

interface CharInfo {
  cls: number;
  group: number;
  fold: string;
  script: number;
}

/** Invisible characters that split words for the eye but not for the reader. \p{Cf} covers most; these are explicit. */
const INVISIBLE = new Set([0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x3164, 0xffa0]);

/** Leetspeak digits, undone when a letter came before them in the word. */
const LEET_DIGITS: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };
const LEET_SYMBOLS: Record<string, string> = { '@': 'a', $: 's', '!': 'i' };

/** Latin letters that NFKC and accent folding leave alone. */
const LATIN_SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  ı: 'i',
  þ: 'th',
  ħ: 'h',
  ŧ: 't',
  ɑ: 'a',
  ɡ: 'g',
  // Small capitals used to dodge filters ("ꜱᴇx").
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};

/** Cyrillic and Greek letters that pass for Latin ones (lower case; upper-case lookalikes arrive lower-cased). */
const TO_LATIN: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  һ: 'h',
  н: 'h',
  і: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  п: 'n',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  г: 'r',
  ѕ: 's',
  т: 't',
  ԝ: 'w',
  х: 'x',
  у: 'y',
  ү: 'y',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  μ: 'u',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ω: 'w',
};

/** Latin letters typed into Cyrillic words ("пoрнo" with Latin o). */
const TO_CYRILLIC: Record<string, string> = {
  a: 'а',
  b: 'в',
  c: 'с',
  e: 'е',
  h: 'н',
  i: 'і',
  k: 'к',
  m: 'м',
  n: 'п',
  o: 'о',
  p: 'р',
  r: 'г',
  t: 'т',
  x: 'х',
  y: 'у',
};

const BMP: (CharInfo | undefined)[] = new Array(0x10000);
const ASTRAL = new Map<number, CharInfo>();

function charInfo(cp: number): CharInfo {
  const table = cp < 0x10000 ? BMP[cp] : ASTRAL.get(cp);
  if (table) return table;
  const info = classify(cp);
  if (cp < 0x10000) BMP[cp] = info;
  else ASTRAL.set(cp, info);
  return info;
}

function classify(cp: number): CharInfo {
  const ch = String.fromCodePoint(cp);
  if (INVISIBLE.has(cp) || /\p{Cf}/u.test(ch)) return { cls: DROP, group: 0, fold: '', script: 0 };
  if (/\p{M}/u.test(ch)) return markInfo(cp, ch);
  if (/\p{Nd}/u.test(ch)) return { cls: DIGIT, group: ALPHA, fold: String(digitValue(cp)), script: 0 };
  if (/\p{L}/u.test(ch)) return letterInfo(ch);
  if (ch in LEET_SYMBOLS) return { cls: LEET, group: ALPHA, fold: LEET_SYMBOLS[ch]!, script: 0 };
  return { cls: SEP, group: 0, fold: ' ', script: 0 };
}

/** Diacritics over Latin, Greek and Cyrillic letters (and Zalgo stacks) go; marks that are letters in Indic scripts stay. */
function markInfo(cp: number, ch: string): CharInfo {
  const diacritic =
    (cp >= 0x0300 && cp <= 0x036f) ||
    (cp >= 0x1ab0 && cp <= 0x1aff) ||
    (cp >= 0x1dc0 && cp <= 0x1dff) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe20 && cp <= 0xfe2f);
  // Nukta is optional in everyday Hindi typing (ज़ / ज); chandrabindu and anusvara are used interchangeably.
  if (diacritic || cp === 0x093c) return { cls: DROP, group: 0, fold: '', script: 0 };
  return { cls: MARK, group: 0, fold: cp === 0x0901 ? '\u0902' : ch, script: 0 };
}

/** Decimal digits of any script come in runs of ten, zero first. */
function digitValue(cp: number): number {
  let first = cp;
  while (first > 0 && cp - first < 60 && /\p{Nd}/u.test(String.fromCodePoint(first - 1))) first--;
  return (cp - first) % 10;
}

function letterInfo(ch: string): CharInfo {
  const lower = ch.toLowerCase();
  if (/\p{Script=Han}|\p{Script=Hiragana}|\p{Script=Katakana}|\p{Script=Bopomofo}/u.test(ch)) {
    return { cls: LETTER, group: UNSEGMENTED, fold: lower, script: 0 };
  }
  if (/\p{Script=Hangul}/u.test(ch)) return { cls: LETTER, group: HANGUL, fold: lower, script: 0 };
  if (/\p{Script=Devanagari}|\p{Script=Bengali}|\p{Script=Gurmukhi}|\p{Script=Gujarati}/u.test(ch)) {
    return { cls: LETTER, group: INDIC, fold: lower, script: 0 };
  }
  if (/\p{Script=Cyrillic}/u.test(ch)) return { cls: LETTER, group: ALPHA, fold: lower === 'ё' ? 'е' : lower, script: CYRILLIC };
  const greek = /\p{Script=Greek}/u.test(ch);
  if (greek || /\p{Script=Latin}/u.test(ch)) {
    const stripped = lower.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
    const fold = LATIN_SPECIAL[stripped] ?? (stripped === 'ς' ? 'σ' : stripped);
    return { cls: LETTER, group: ALPHA, fold, script: greek ? GREEK : 0 };
  }
  return { cls: LETTER, group: ALPHA, fold: lower, script: 0 };
}

/** Han, kana and bopomofo: text written without spaces. A high surrogate counts for its pair (CJK extensions). */
export function isUnsegmented(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3100 && code <= 0x312f) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xd840 && code <= 0xd87f)
  );
}

/** Collects folded words into the output line(s). */
class Output {
  text = '';
  alt: string | null = null;
  private softRanges: number[] = [];

  word(word: string, script: number, spelled: boolean): void {
    const before = this.text.length > 0 ? this.text + ' ' : '';
    const [primary, other] = script ? readBothWays(word) : [word, word];
    if (this.alt !== null) this.alt += (this.text.length > 0 ? ' ' : '') + other;
    else if (other !== primary) this.alt = before + other;
    this.text = before + primary;
    // Inside a spelled-out word every letter may start or end a word ("s e x w i t h a k i d").
    if (spelled) this.softRanges.push(before.length + 1, this.text.length);
  }

  result(): FoldedText {
    let soft: Uint8Array | null = null;
    if (this.softRanges.length > 0) {
      soft = new Uint8Array(this.text.length + 1);
      for (let r = 0; r < this.softRanges.length; r += 2) soft.fill(1, this.softRanges[r], this.softRanges[r + 1]);
    }
    return { text: this.text, alt: this.alt, soft };
  }
}

/** Joins runs of one-character words that share a separator ("n.u.d.e", "s e x") into one spelled-out word. */
class SpelledRuns {
  private run: string[] = [];
  private runSeparator = '';
  private runScript = 0;
  /** Every letter of the run is Han, kana or Hangul: two are enough ("强 奸", "섹.스"), as spaces never split their words. */
  private runCjk = true;
  private lastCjk = false;

  constructor(private readonly out: Output) {}

  push(word: string, separatorBefore: string, script: number, group: number): void {
    const single = word.length === 1 || (word.length === 2 && word.charCodeAt(0) >= 0xd800 && word.charCodeAt(0) <= 0xdbff);
    if (!single) {
      this.flush();
      this.out.word(word, script, false);
      return;
    }
    const joinable = separatorBefore.length >= 1 && separatorBefore.length <= 3;
    if (this.run.length > 0 && joinable && (this.run.length === 1 || separatorBefore === this.runSeparator)) {
      this.runSeparator = separatorBefore;
    } else if (this.run.length > 0 && joinable && !this.long()) {
      // The separator changed before the run was long enough: its last letter may start the next ("a k.i.d").
      const last = this.run.pop()!;
      this.flush();
      this.run.push(last);
      this.runCjk = this.lastCjk;
      this.runSeparator = separatorBefore;
    } else {
      this.flush();
    }
    this.run.push(word);
    this.runScript |= script;
    this.lastCjk = group === UNSEGMENTED || group === HANGUL;
    this.runCjk &&= this.lastCjk;
  }

  flush(): void {
    if (this.long()) this.out.word(undoLeet(this.run.join('')), this.runScript, true);
    else for (const word of this.run) this.out.word(word, this.runScript, false);
    this.run = [];
    this.runScript = 0;
    this.runCjk = true;
  }

  private long(): boolean {
    return this.run.length >= (this.runCjk ? 2 : 3);
  }
}

/** Digits after the first letter of a word are leetspeak ("s3x", "l0l1"); leading digits are numbers ("15yo"). */
function undoLeet(word: string): string {
  let out = '';
  let letters = false;
  for (const ch of word) {
    const leet = letters ? LEET_DIGITS[ch] : undefined;
    out += leet ?? ch;
    if (!(ch >= '0' && ch <= '9')) letters = true;
  }
  return out;
}

/** [primary, alternative] readings of a word with Cyrillic or Greek letters; both have the word's length. */
function readBothWays(word: string): [string, string] {
  let latin = 0;
  let lookalike = 0;
  let other = 0;
  let cyrillic = false;
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    if (code >= 0x61 && code <= 0x7a) latin++;
    else if (LATIN_OF[code]) lookalike++;
    else if (code >= 0x370 && code <= 0x52f) other++;
    if (code >= 0x400 && code <= 0x52f) cyrillic = true;
  }
  if (latin > 0 && lookalike > 0) return [mapChars(word, LATIN_OF), cyrillic ? mapChars(word, CYRILLIC_OF) : word];
  // An all-lookalike Cyrillic word ("ѕех") may be Latin in disguise; genuine Russian keeps its own reading first.
  if (latin === 0 && other === 0 && lookalike >= 3 && lookalike === word.length) return [word, mapChars(word, LATIN_OF)];
  if (latin > 0 && other > 0 && cyrillic) return [word, mapChars(word, CYRILLIC_OF)];
  return [word, word];
}

/** Code-unit tables of TO_LATIN and TO_CYRILLIC (0: no lookalike), as every mapping is one BMP unit to one. */
const LATIN_OF = table(TO_LATIN);
const CYRILLIC_OF = table(TO_CYRILLIC);

function table(map: Record<string, string>): Uint16Array {
  const codes = new Uint16Array(0x600);
  for (const [from, to] of Object.entries(map)) codes[from.charCodeAt(0)] = to.charCodeAt(0);
  return codes;
}

function mapChars(word: string, codes: Uint16Array): string {
  const out = new Array<string>(word.length);
  for (let i = 0; i < word.length; i++) {
    const code = word.charCodeAt(i);
    out[i] = String.fromCharCode((code < codes.length && codes[code]) || code);
  }
  return out.join('');
}

/** Folds text (or a lexicon entry) into words; see the file comment. */
export function foldText(input: string): FoldedText {
  const text = input.normalize('NFKC').toLowerCase();
  const out = new Output();
  const runs = new SpelledRuns(out);
  let word = '';
  let group = 0;
  let letters = false;
  let script = 0;
  let separator = '';
  let wordSeparator = '';

  const endWord = () => {
    if (word) runs.push(word, wordSeparator, script, group);
    word = '';
    group = 0;
    letters = false;
    script = 0;
  };
  const append = (fold: string, charGroup: number) => {
    if (word && group !== charGroup) endWord();
    if (!word) {
      wordSeparator = separator;
      separator = '';
    }
    word += fold;
    group = charGroup;
  };

  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        i++;
      }
    }
    const info = charInfo(cp);
    if (info.cls === LETTER) {
      append(info.fold, info.group);
      letters = true;
      script |= info.script;
    } else if (info.cls === DIGIT) {
      append((letters && LEET_DIGITS[info.fold]) || info.fold, ALPHA);
    } else if (info.cls === MARK) {
      if (word) word += info.fold;
    } else if (info.cls === LEET && leetAsLetter(info.fold, letters && group === ALPHA, text, i)) {
      append(info.fold, ALPHA);
      letters = true;
    } else if (info.cls !== DROP) {
      endWord();
      if (separator.length < 4) separator += text[i];
    }
  }
  endWord();
  runs.flush();
  return out.result();
}

/** "@" and "$" are letters next to a letter ("@ss", "$ex", "a$$"); "!" only between letters ("k!d"). */
function leetAsLetter(fold: string, afterLetter: boolean, text: string, i: number): boolean {
  const next = i + 1 < text.length ? charInfo(text.charCodeAt(i + 1)) : undefined;
  if (fold === 'i') return afterLetter && next?.cls === LETTER;
  return afterLetter || next?.cls === LETTER || next?.cls === LEET;
}

/** The folded words of `text`, separated by single spaces. */
export function normalise(text: string): string {
  return foldText(text).text;
}
