import { Automaton } from './automaton';
import { LEXICONS } from './lexicons';
import type { Lexicon, PolicyCategory } from './lexicons/lexicon';
import { type FoldedText, foldText, isUnsegmented, normalise } from './normalise';

/**
 * The offline lexical stage of the content policy: every lexicon compiled into one Aho-Corasick automaton, run over the
 * folded text (and, for mixed-script words, over its other reading). Matches are then read in one pass: benign phrases
 * switch off the entries inside them, numbers next to age words become ages, and a sexual term within a window of a minor,
 * age, non-consent or real-person term of the same lexicon (or the international one) refuses the text.
 * See lexicons/lexicon.ts for the rules lexicon authors rely on.
 */

export interface LexicalVerdict {
  allowed: boolean;
  category: PolicyCategory | null;
  /** The lexicon that decided ('intl' for the international terms), or null when allowed. */
  language: string | null;
  /** Matched entries ("en:sexual:nude", "en:age:14 (years old)"), for audit logs only. */
  evidence: string[];
}

export interface LexicalStage {
  check(text: string): LexicalVerdict;
}

export interface LexicalStageOptions {
  lexicons?: readonly Lexicon[];
  /** Operator additions to the real-people names, matched in every language. */
  realPeople?: string[];
  /** How close, in words, a sexual term and a risk term must be (a Han or kana character counts 2/3 of a word). */
  window?: number;
}

export const DEFAULT_WINDOW = 40;

/** A word is 3 units and a Han/kana character 2, so a window of 40 words is 60 characters of Chinese. */
const WORD_UNITS = 3;
const CHAR_UNITS = 2;
const CATEGORIES: readonly PolicyCategory[] = ['minors', 'non_consent', 'real_person'];
const allowed = (): LexicalVerdict => ({ allowed: true, category: null, language: null, evidence: [] });

type Kind =
  | 'sexual'
  | 'minor'
  | 'school'
  | 'nonConsent'
  | 'cue'
  | 'person'
  | 'absolute'
  | 'benign'
  | 'number'
  | 'tens'
  | 'after'
  | 'before'
  | 'copula'
  | 'unit';

interface Pattern {
  source: number;
  kind: Kind;
  /** The entry as its author wrote it (evidence). */
  entry: string;
  /** The folded form searched for. */
  text: string;
  /** A word boundary is required before / after the match. */
  left: boolean;
  right: boolean;
  category: PolicyCategory | null;
  value: number;
  /** "en:sexual:nude": what the audit log shows. */
  evidence: string;
}

/** A lexicon (or the operator's names) as the engine sees it. */
interface Source {
  language: string;
  wordBoundaries: boolean;
  /** Characters of its number words: a number touching one is part of a larger number ("二十岁" is not 十岁). */
  numberChars: Set<number>;
  /** Length of its longest folded number word and unit word, to bound the search for them next to an age word. */
  longestNumber: number;
  longestUnit: number;
}

interface Compiled {
  automaton: Automaton;
  patterns: Pattern[];
  sources: Source[];
  intl: number;
  windowUnits: number;
}

interface Hit {
  pattern: number;
  start: number;
  end: number;
  /** Position in window units (words x 3, Han characters x 2) at the end of the match. */
  units: number;
}

export function createLexicalStage(options: LexicalStageOptions = {}): LexicalStage {
  const compiled = compile(options.lexicons ?? LEXICONS, options.realPeople ?? [], options.window ?? DEFAULT_WINDOW);
  return { check: (text) => check(compiled, text) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Compilation (once per stage)

function compile(lexicons: readonly Lexicon[], realPeople: string[], window: number): Compiled {
  const list = new PatternList();
  const sources: Source[] = lexicons.map((lexicon, index) => compileLexicon(list, lexicon, index));
  sources.push(compileOperatorNames(list, realPeople, sources.length));
  for (const p of list.patterns) {
    const source = sources[p.source]!;
    p.evidence = `${source.language}:${p.kind}:${p.entry}`;
    if (p.kind === 'number') source.longestNumber = Math.max(source.longestNumber, p.text.length);
    if (p.kind === 'unit') source.longestUnit = Math.max(source.longestUnit, p.text.length);
  }
  return {
    automaton: new Automaton(list.patterns.map((p) => p.text)),
    patterns: list.patterns,
    sources,
    intl: lexicons.findIndex((lexicon) => lexicon.language === 'intl'),
    windowUnits: window * WORD_UNITS,
  };
}

class PatternList {
  readonly patterns: Pattern[] = [];
  private readonly seen = new Set<string>();

  add(
    source: number,
    boundaries: boolean,
    kind: Kind,
    entry: string,
    extra: { category?: PolicyCategory; value?: number; suffixes?: readonly string[]; openEnd?: boolean } = {},
  ): void {
    const trimmed = entry.trim();
    const stem = trimmed.endsWith('*');
    const text = normalise(stem ? trimmed.slice(0, -1) : trimmed);
    if (!text) return;
    // Numbers and tens are checked against their neighbours when read; age words may touch their number ("15yo").
    const left = boundaries && kind !== 'after' && kind !== 'unit';
    const right = boundaries && !stem && kind !== 'number' && kind !== 'tens' && !extra.openEnd;
    for (const form of stem ? [text] : withSuffixes(text, extra.suffixes ?? [])) {
      const key = `${source}|${kind}|${form}|${left}|${right}|${extra.category}|${extra.value}`;
      if (this.seen.has(key)) continue;
      this.seen.add(key);
      const pattern = { source, kind, entry: trimmed, text: form, left, right, evidence: '' };
      this.patterns.push({ ...pattern, category: extra.category ?? null, value: extra.value ?? 0 });
    }
  }
}

/** The entry and its inflections: endings go on the last word; a final "e" drops before a vowel ("rape" → "raping"). */
function withSuffixes(text: string, suffixes: readonly string[]): string[] {
  const last = text.slice(text.lastIndexOf(' ') + 1);
  if (suffixes.length === 0 || last.length < 3 || !/\p{L}$/u.test(last)) return [text];
  const forms = [text];
  for (const suffix of suffixes) {
    forms.push(text + suffix);
    if (text.endsWith('e') && /^[aeiou]/.test(suffix)) forms.push(text.slice(0, -1) + suffix);
  }
  return forms;
}

function compileLexicon(list: PatternList, lexicon: Lexicon, index: number): Source {
  const b = lexicon.wordBoundaries;
  const suffixes = lexicon.suffixes ?? [];
  const lists: [Kind, string[]][] = [
    ['sexual', lexicon.sexual],
    ['minor', lexicon.minor],
    ['school', lexicon.school],
    ['nonConsent', lexicon.nonConsent],
    ['benign', lexicon.benign],
  ];
  for (const [kind, entries] of lists) for (const entry of entries) list.add(index, b, kind, entry, { suffixes });
  // Cues name one person ("actress"); plurals ("sexiest actors alive") are listed only where meant.
  for (const cue of lexicon.realPersonCues) list.add(index, b, 'cue', cue);
  for (const name of lexicon.realPeople) list.add(index, b, 'person', name);
  for (const { term, category } of lexicon.absolute) list.add(index, b, 'absolute', term, { category, suffixes });
  const numberChars = compileAges(list, lexicon, index);
  return { language: lexicon.language, wordBoundaries: b, numberChars, longestNumber: 0, longestUnit: 0 };
}

/** Adds the age grammar's words; returns the characters its number words are made of. */
function compileAges(list: PatternList, lexicon: Lexicon, index: number): Set<number> {
  const b = lexicon.wordBoundaries;
  const ages = lexicon.ages;
  const numberChars = new Set<number>();
  const addNumber = (kind: Kind, word: string, value?: number) => {
    list.add(index, b, kind, word, { value });
    for (const ch of normalise(word)) if (ch !== ' ') numberChars.add(ch.charCodeAt(0));
  };
  for (const [word, value] of Object.entries(ages.numbers)) {
    if (value >= 1 && value <= 17) addNumber('number', word, value);
    else if (value >= 18) addNumber('tens', word);
  }
  for (const word of ages.tens ?? []) addNumber('tens', word);
  for (const word of ages.after) list.add(index, b, 'after', word);
  for (const word of ages.before) list.add(index, b, 'before', word);
  for (const word of ages.copulas ?? []) list.add(index, b, 'copula', word);
  for (const word of ages.units ?? []) list.add(index, b, 'unit', word);
  for (const form of ages.compounds) {
    const at = form.indexOf('{n}');
    if (at < 0) continue;
    const after = form.slice(at + 3);
    if (normalise(after.replace(/\*$/, ''))) list.add(index, b, 'after', after);
    else list.add(index, b, 'before', form.slice(0, at), { openEnd: true });
  }
  return numberChars;
}

/** Operator names: whole words, except in scripts written without spaces or with attached particles. */
function compileOperatorNames(list: PatternList, names: string[], index: number): Source {
  for (const name of names) {
    const boundaries = !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(name);
    list.add(index, boundaries, 'person', name);
  }
  return { language: 'operator', wordBoundaries: true, numberChars: new Set(), longestNumber: 0, longestUnit: 0 };
}

// ---------------------------------------------------------------------------------------------------------------------
// Checking

function check(c: Compiled, text: string): LexicalVerdict {
  const folded = foldText(text);
  if (!folded.text) return allowed();
  const hits = findHits(c, folded);
  if (hits.length === 0) return allowed();
  const reader = new HitReader(c, folded.text, hits);
  const judge = new Judge(c);
  for (let i = 0; i < hits.length && !judge.decisive(); i++) reader.read(i, judge);
  return judge.verdict();
}

/** Matches in both readings of the text, boundaries checked, in order of their end, each with its window position. */
function findHits(c: Compiled, folded: FoldedText): Hit[] {
  const primary = scanStream(c, folded.text, folded.soft);
  const hits = folded.alt === null ? primary : mergeHits(primary, scanStream(c, folded.alt, folded.soft));
  let cursor = 0;
  let units = 0;
  for (const hit of hits) {
    for (; cursor < hit.end; cursor++) {
      const code = folded.text.charCodeAt(cursor);
      if (code === 32) units += WORD_UNITS;
      else if (isUnsegmented(code)) units += CHAR_UNITS;
    }
    hit.units = units;
  }
  return hits;
}

function scanStream(c: Compiled, stream: string, soft: Uint8Array | null): Hit[] {
  const hits: Hit[] = [];
  c.automaton.scan(stream, (pattern, end) => {
    const p = c.patterns[pattern]!;
    const start = end - p.text.length;
    if (p.left && !boundaryAt(stream, soft, start)) return;
    if (p.right && !boundaryAt(stream, soft, end)) return;
    hits.push({ pattern, start, end, units: 0 });
  });
  return hits;
}

/** A word may start or end at `i`: at either end of the text, next to a space, or inside a spelled-out word. */
function boundaryAt(s: string, soft: Uint8Array | null, i: number): boolean {
  return i === 0 || i === s.length || s.charCodeAt(i - 1) === 32 || s.charCodeAt(i) === 32 || (soft !== null && soft[i] === 1);
}

/** Both lists are in end order; the result is too, without the matches both readings share (same pattern, same end). */
function mergeHits(a: Hit[], b: Hit[]): Hit[] {
  const merged: Hit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const end = Math.min(a[i]?.end ?? Infinity, b[j]?.end ?? Infinity);
    const fromA = merged.length;
    while (i < a.length && a[i]!.end === end) merged.push(a[i++]!);
    for (; j < b.length && b[j]!.end === end; j++) {
      if (!sharesPattern(merged, fromA, b[j]!.pattern)) merged.push(b[j]!);
    }
  }
  return merged;
}

function sharesPattern(hits: Hit[], from: number, pattern: number): boolean {
  for (let k = from; k < hits.length; k++) if (hits[k]!.pattern === pattern) return true;
  return false;
}

const isDigit = (code: number) => code >= 48 && code <= 57;

/**
 * Turns matches into evidence for the judge: skips what benign phrases contain, and reads ages from numbers next to
 * age words. Neighbours are found by walking the end-ordered matches a bounded distance from the current one (a
 * number, tens word or unit is at most as long as the longest such entry), so reading stays linear.
 */
class HitReader {
  /** reach[i]: the furthest end of a benign phrase starting at or before i (null: no benign phrase matched). */
  private readonly reach: Int32Array | null = null;

  constructor(
    private readonly c: Compiled,
    private readonly s: string,
    private readonly hits: Hit[],
  ) {
    const benign = hits.filter((hit) => c.patterns[hit.pattern]!.kind === 'benign');
    if (benign.length > 0) this.reach = benignReach(s.length, benign);
  }

  read(i: number, judge: Judge): void {
    const hit = this.hits[i]!;
    const p = this.c.patterns[hit.pattern]!;
    if (p.kind === 'benign' || this.isCovered(hit)) return;
    switch (p.kind) {
      case 'absolute':
        return judge.absolute(p);
      case 'sexual':
        return judge.sexual(hit.units, p.source, p.evidence);
      case 'minor':
      case 'school':
        return judge.risk(hit.units, p.source, 0, p.evidence);
      case 'nonConsent':
        return judge.risk(hit.units, p.source, 1, p.evidence);
      case 'cue':
        return judge.risk(hit.units, p.source, 2, p.evidence);
      case 'person':
        return judge.person(hit.units, p.source, p.evidence);
      case 'after':
      case 'before':
      case 'copula':
        return this.readAge(i, p, judge);
    }
  }

  private readAge(i: number, p: Pattern, judge: Judge): void {
    const hit = this.hits[i]!;
    const age =
      p.kind === 'after' ? this.numberBefore(i, hit.start, p.source) : this.numberAfter(i, hit.end, p.source, p.kind === 'copula');
    if (age >= 1 && age <= 17) judge.risk(hit.units, p.source, 0, `${this.c.sources[p.source]!.language}:age:${age} (${p.entry})`);
  }

  /** Inside a benign phrase ("minor" in "minor scratches"); an entry reaching past it still counts ("未满十八" in "十八岁"). */
  private isCovered(hit: Hit): boolean {
    return this.reach !== null && this.reach[hit.start]! >= hit.end;
  }

  /** The value of the number that ends at `at` or one space before it ("14 years", "15yo", "十二岁"), or 0. */
  private numberBefore(i: number, at: number, source: number): number {
    const spaced = this.s.charCodeAt(at - 1) === 32;
    const digits = Math.max(digitsEndingAt(this.s, at), spaced ? digitsEndingAt(this.s, at - 1) : -1);
    if (digits >= 0) return digits;
    for (let k = i - 1; k >= 0 && this.hits[k]!.end >= at - 1; k--) {
      const n = this.hits[k]!;
      if (!this.isKind(n, 'number', source) || !(n.end === at || (spaced && n.end === at - 1))) continue;
      if (this.numberStartsCleanly(k, source)) return this.c.patterns[n.pattern]!.value;
    }
    return 0;
  }

  /** The value of the number that starts at `at` or one space after it ("aged 15", "is fourteen"), or 0. */
  private numberAfter(i: number, at: number, source: number, copula: boolean): number {
    const spaced = this.s.charCodeAt(at) === 32;
    for (const start of spaced ? [at, at + 1] : [at]) {
      const digits = digitsStartingAt(this.s, start);
      if (digits >= 0) return copula && this.unitAfter(i, digitsEnd(this.s, start), source) ? 0 : digits;
    }
    const last = at + 1 + this.c.sources[source]!.longestNumber;
    for (let k = i + 1; k < this.hits.length && this.hits[k]!.end <= last; k++) {
      const n = this.hits[k]!;
      if (!this.isKind(n, 'number', source) || !(n.start === at || (spaced && n.start === at + 1))) continue;
      const value = this.c.patterns[n.pattern]!.value;
      if (copula && (value < 10 || this.unitAfter(k, n.end, source))) continue;
      if (this.numberStartsCleanly(k, source) && this.numberEndsCleanly(n, source)) return value;
    }
    return 0;
  }

  /** Not the tail of a larger number: no tens word ("twenty five", "스물두") or number character ("二十") just before. */
  private numberStartsCleanly(k: number, source: number): boolean {
    const n = this.hits[k]!;
    if (this.isCovered(n)) return false;
    const spaced = this.s.charCodeAt(n.start - 1) === 32;
    for (let j = k - 1; j >= 0 && this.hits[j]!.end >= n.start - 1; j--) {
      const t = this.hits[j]!;
      if (this.isKind(t, 'tens', source) && (t.end === n.start || (spaced && t.end === n.start - 1))) return false;
    }
    return this.c.sources[source]!.wordBoundaries || !this.isNumberChar(n.start - 1, source);
  }

  /** Not the head of a larger number ("fourteen" is not "four", "十二" is not "十"). */
  private numberEndsCleanly(n: Hit, source: number): boolean {
    if (this.c.sources[source]!.wordBoundaries) return boundaryAt(this.s, null, n.end);
    return !this.isNumberChar(n.end, source);
  }

  private isNumberChar(i: number, source: number): boolean {
    const code = this.s.charCodeAt(i);
    return isDigit(code) || this.c.sources[source]!.numberChars.has(code);
  }

  /** A measure word follows the number ending at `at` ("16 hours"); `k` is a match ending at or before `at`. */
  private unitAfter(k: number, at: number, source: number): boolean {
    const spaced = this.s.charCodeAt(at) === 32;
    const last = at + 1 + this.c.sources[source]!.longestUnit;
    for (let j = k + 1; j < this.hits.length && this.hits[j]!.end <= last; j++) {
      const u = this.hits[j]!;
      if (this.isKind(u, 'unit', source) && (u.start === at || (spaced && u.start === at + 1))) return true;
    }
    return false;
  }

  private isKind(hit: Hit, kind: Kind, source: number): boolean {
    const p = this.c.patterns[hit.pattern]!;
    return p.kind === kind && p.source === source;
  }
}

/** For each position, the furthest end of a benign phrase starting there or before, so containment is O(1). */
function benignReach(length: number, benign: Hit[]): Int32Array {
  const reach = new Int32Array(length + 1);
  for (const hit of benign) reach[hit.start] = Math.max(reach[hit.start]!, hit.end);
  for (let i = 1; i <= length; i++) reach[i] = Math.max(reach[i]!, reach[i - 1]!);
  return reach;
}

/** A run of 1-3 digits ending at `end`: its value, 0 if longer (a year, a price), -1 if no digit ends there. */
function digitsEndingAt(s: string, end: number): number {
  let start = end;
  while (start > 0 && isDigit(s.charCodeAt(start - 1)) && end - start < 4) start--;
  if (start === end) return -1;
  return end - start > 3 ? 0 : Number(s.slice(start, end));
}

/** A run of 1-3 digits starting at `start`: its value, 0 if longer, -1 if no digit starts there. */
function digitsStartingAt(s: string, start: number): number {
  const end = digitsEnd(s, start);
  if (start === end) return -1;
  return end - start > 3 ? 0 : Number(s.slice(start, end));
}

/** Where the run of digits starting at `start` ends (looking at most 4 digits ahead). */
function digitsEnd(s: string, start: number): number {
  let end = start;
  while (end < s.length && isDigit(s.charCodeAt(end)) && end - start < 4) end++;
  return end;
}

interface Mark {
  source: number;
  units: number;
  evidence: string;
}

/**
 * Pairs sexual terms with risk terms inside the window, reading matches in order and remembering only the latest of
 * each kind per lexicon (the latest is the nearest, so nothing closer is missed). Minors outrank non-consent, which
 * outranks real people.
 */
class Judge {
  private readonly lastSexual: (Mark | undefined)[];
  private lastSexualAny: Mark | undefined;
  /** lastRisk[source][rank] */
  private readonly lastRisk: (Mark | undefined)[][];
  private readonly lastRiskAny: (Mark | undefined)[] = [undefined, undefined, undefined];
  private lastPerson: Mark | undefined;
  private best: { rank: number; language: string; evidence: string[] } | null = null;

  constructor(private readonly c: Compiled) {
    this.lastSexual = c.sources.map(() => undefined);
    this.lastRisk = c.sources.map(() => [undefined, undefined, undefined]);
  }

  decisive(): boolean {
    return this.best !== null && this.best.rank === 0;
  }

  absolute(p: Pattern): void {
    this.consider(CATEGORIES.indexOf(p.category ?? 'minors'), this.c.sources[p.source]!.language, [p.evidence]);
  }

  sexual(units: number, source: number, evidence: string): void {
    const mark = { source, units, evidence };
    const intl = this.c.intl;
    for (let rank = 0; rank < CATEGORIES.length; rank++) {
      if (source === intl) {
        this.pair(rank, this.lastRiskAny[rank], mark);
        continue;
      }
      this.pair(rank, this.lastRisk[source]![rank], mark);
      if (intl >= 0) this.pair(rank, this.lastRisk[intl]![rank], mark);
    }
    this.pair(2, this.lastPerson, mark);
    this.lastSexual[source] = mark;
    this.lastSexualAny = mark;
  }

  risk(units: number, source: number, rank: number, evidence: string): void {
    const mark = { source, units, evidence };
    const intl = this.c.intl;
    if (source === intl) this.pair(rank, mark, this.lastSexualAny);
    else {
      this.pair(rank, mark, this.lastSexual[source]);
      if (intl >= 0) this.pair(rank, mark, this.lastSexual[intl]);
    }
    this.lastRisk[source]![rank] = mark;
    this.lastRiskAny[rank] = mark;
  }

  /** Real people's names pair with sexual terms of every language. */
  person(units: number, source: number, evidence: string): void {
    const mark = { source, units, evidence };
    this.pair(2, mark, this.lastSexualAny);
    this.lastRisk[source]![2] = mark;
    this.lastRiskAny[2] = mark;
    this.lastPerson = mark;
  }

  verdict(): LexicalVerdict {
    if (!this.best) return allowed();
    return { allowed: false, category: CATEGORIES[this.best.rank]!, language: this.best.language, evidence: this.best.evidence };
  }

  private pair(rank: number, risk: Mark | undefined, sexual: Mark | undefined): void {
    if (!risk || !sexual || Math.abs(risk.units - sexual.units) > this.c.windowUnits) return;
    if (this.best && this.best.rank <= rank) return;
    const riskLanguage = this.c.sources[risk.source]!.language;
    const language = riskLanguage === 'intl' || riskLanguage === 'operator' ? this.c.sources[sexual.source]!.language : riskLanguage;
    this.consider(rank, language, [sexual.evidence, risk.evidence]);
  }

  private consider(rank: number, language: string, evidence: string[]): void {
    if (!this.best || rank < this.best.rank) this.best = { rank, language, evidence };
  }
}

/** The stage built from every lexicon, once, when this module loads. */
export const lexicalStage: LexicalStage = createLexicalStage();
