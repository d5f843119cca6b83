import vm from 'node:vm';
import { estimateTokens } from '../providers/token-estimate';
import { type MacroContext, expandMacros } from './macros';

/**
 * A character card's lorebook (`character_book`, Character Card V2/V3), applied the way SillyTavern's World Info
 * applies it, since most cards are written and tested there:
 *
 * - An entry is activated when it is `constant`, carries `@@activate`, or one of its `keys` appears in the last
 *   `scan_depth` messages. `selective` entries also check `secondary_keys` with `extensions.selectiveLogic`
 *   (0 AND ANY, 1 NOT ALL, 2 NOT ANY, 3 AND ALL).
 * - Keys are case-insensitive unless `extensions.case_sensitive` (or the spec's `case_sensitive`) is true; whole-word
 *   matching is off unless `extensions.match_whole_words` is true (SillyTavern's defaults, overridable per call).
 *   A key written `/pattern/flags` is a regular expression, whatever `use_regex` says: SillyTavern writes
 *   `use_regex: true` on every card and still matches plain keys as text.
 * - `enabled: false` and `@@dont_activate` keep an entry out; `extensions.probability` rolls when
 *   `extensions.useProbability` is not false.
 * - The token budget (the caller's, lowered by the book's `token_budget`) is filled by priority: `priority` when set,
 *   else `insertion_order`, higher first; at the first entry that does not fit, it and every lower one are dropped.
 * - Kept entries go into the prompt by `insertion_order`, lower first (the spec), ties in the book's order; before or
 *   after the character's definitions by `extensions.position` (0 / 1) or `position` (`before_char` /
 *   `after_char`, default after). SillyTavern's other positions (author's note, @depth, example messages) go after.
 * - Macros in keys and content are expanded here when `macros` is given.
 *
 * Left out: recursive scanning (`recursive_scanning`, `prevent_recursion`, …), inclusion groups, sticky / cooldown /
 * delay, min activations, character filters, @depth placement and roles, and the V3 decorators other than
 * `@@activate`, `@@dont_activate` and `@@scan_depth` (the others are recognised as decorators and removed from the
 * content, so they never reach the model).
 *
 * Regular-expression keys come from untrusted cards and run on the server, so a catastrophic pattern must not stall
 * the event loop: patterns are capped in length and count, run in a vm sandbox with a timeout (V8 interrupts
 * backtracking), and one that times out simply does not match.
 */

export type LorePosition = 'before' | 'after';
export type LoreActivation = 'constant' | 'keys' | 'decorator';

/** What the context-budget view shows for an entry. */
export interface LoreEntryReport {
  /** The entry's `id` when it has one, else its index in `entries`. */
  id: string | number;
  /** The author's label: `comment`, else `name`, else ''. */
  label: string;
  /** Keys found in the scanned messages (the primary key, then the secondary ones that counted); [] when constant. */
  matchedKeys: string[];
  activatedBy: LoreActivation;
  /** Estimated tokens of the content and its line break. */
  tokens: number;
  position: LorePosition;
}

export interface SkippedLoreEntry extends LoreEntryReport {
  reason: 'budget' | 'disabled' | 'probability';
}

export interface LoreSelection {
  /** Contents to place before the character's definitions, in prompt order. */
  before: string[];
  /** Contents to place after the character's definitions, in prompt order. */
  after: string[];
  /** The entries in `before` and `after`, in prompt order. */
  used: LoreEntryReport[];
  /** Entries that matched but were kept out, in priority order. */
  skipped: SkippedLoreEntry[];
}

export interface SelectLoreInput {
  /** The card's `character_book`, as stored (untrusted). */
  book: unknown;
  /** The conversation's recent messages, newest last (prefix "Name: " to let names trigger keys). */
  recentTexts: readonly string[];
  /** Tokens lore may take in the prompt. */
  tokenBudget: number;
  /** Messages scanned when neither the book nor the entry says (SillyTavern's default is 2). */
  scanDepth?: number;
  /** Expands {{char}} / {{user}} / … in keys and content. */
  macros?: MacroContext;
  /** Defaults for entries that do not say (SillyTavern's global settings, both off by default). */
  caseSensitive?: boolean;
  matchWholeWords?: boolean;
  /** For `extensions.probability`; Math.random by default. */
  random?: () => number;
}

const DEFAULT_SCAN_DEPTH = 2;
/** SillyTavern's MAX_SCAN_DEPTH. */
const MAX_SCAN_DEPTH = 1000;
/** The newest characters scanned: bounds the work per key whatever the depth. */
const MAX_SCAN_CHARS = 64 * 1024;
/** A lorebook is a few hundred entries at most; a card within its 1 MB limit could hold far more. */
const MAX_ENTRIES = 1000;
/** SillyTavern's default `order` for a new entry. */
const DEFAULT_INSERTION_ORDER = 100;
/** Regular-expression keys: longest pattern, most distinct patterns per selection, and time allowed. */
const MAX_REGEX_LENGTH = 1024;
const MAX_REGEX_KEYS = 256;
const REGEX_CALL_TIMEOUT_MS = 10;
const REGEX_TOTAL_MS = 50;
/** Decorators this module acts on; every other `@@…` line at the start of the content is dropped. */
const KNOWN_DECORATORS = new Set(['@@activate', '@@dont_activate', '@@scan_depth']);

const SelectiveLogic = { andAny: 0, notAll: 1, notAny: 2, andAll: 3 } as const;

interface LoreEntry {
  index: number;
  id: string | number;
  label: string;
  keys: string[];
  secondaryKeys: string[];
  selectiveLogic: number;
  content: string;
  enabled: boolean;
  constant: boolean;
  forceActivate: boolean;
  insertionOrder: number;
  rank: number;
  position: LorePosition;
  caseSensitive: boolean | null;
  matchWholeWords: boolean | null;
  scanDepth: number | null;
  /** Percent chance of activation, or null when it always activates. */
  probability: number | null;
}

interface Lorebook {
  scanDepth: number | null;
  tokenBudget: number | null;
  entries: LoreEntry[];
}

type JsonObject = Record<string, unknown>;

const isRecord = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const finiteNumber = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const optionalBoolean = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

/** Keys as an array of trimmed, non-empty strings (a few tools write one comma-separated string). */
function readKeys(value: unknown): string[] {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [];
  return items
    .filter((item): item is string => typeof item === 'string')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The leading `@@…` lines of `content` (with SillyTavern's `@@@` fallbacks) and the content without them. */
function splitDecorators(content: string): { decorators: Map<string, string>; content: string } {
  const decorators = new Map<string, string>();
  if (!content.startsWith('@@')) return { decorators, content };
  const lines = content.split('\n');
  let fallbackOpen = false;
  let first = 0;
  for (; first < lines.length && lines[first]!.startsWith('@@'); first++) {
    const line = lines[first]!.trim();
    const isFallback = line.startsWith('@@@');
    if (isFallback && !fallbackOpen) continue;
    const [name = '', ...value] = (isFallback ? line.slice(1) : line).split(/\s+/);
    const known = KNOWN_DECORATORS.has(name.toLowerCase());
    if (known && !decorators.has(name.toLowerCase())) decorators.set(name.toLowerCase(), value.join(' '));
    fallbackOpen = !known;
  }
  return { decorators, content: lines.slice(first).join('\n') };
}

function readPosition(entry: JsonObject, extensions: JsonObject): LorePosition {
  const stPosition = finiteNumber(extensions.position);
  if (stPosition !== null) return stPosition === 0 ? 'before' : 'after';
  return entry.position === 'before_char' ? 'before' : 'after';
}

function readProbability(extensions: JsonObject): number | null {
  const probability = finiteNumber(extensions.probability);
  if (extensions.useProbability === false || probability === null || probability >= 100) return null;
  return Math.max(0, probability);
}

function readEntry(raw: unknown, index: number, macros: MacroContext | undefined): LoreEntry | null {
  if (!isRecord(raw) || typeof raw.content !== 'string') return null;
  const extensions = isRecord(raw.extensions) ? raw.extensions : {};
  const { decorators, content } = splitDecorators(raw.content);
  const expand = (text: string) => (macros ? expandMacros(text, macros) : text);
  const id = typeof raw.id === 'string' || finiteNumber(raw.id) !== null ? (raw.id as string | number) : index;
  const label = [raw.comment, raw.name].find((text): text is string => typeof text === 'string' && text.trim() !== '') ?? '';
  const insertionOrder = finiteNumber(raw.insertion_order) ?? DEFAULT_INSERTION_ORDER;
  const decoratorDepth = Number.parseInt(decorators.get('@@scan_depth') ?? '', 10);
  return {
    index,
    id,
    label,
    keys: readKeys(raw.keys)
      .map(expand)
      .map((key) => key.trim())
      .filter(Boolean),
    secondaryKeys:
      raw.selective === true
        ? readKeys(raw.secondary_keys)
            .map(expand)
            .map((key) => key.trim())
            .filter(Boolean)
        : [],
    selectiveLogic: finiteNumber(extensions.selectiveLogic) ?? SelectiveLogic.andAny,
    content: expand(content),
    // The spec requires `enabled`; a card that omits it most likely means the entry to work.
    enabled: raw.enabled !== false && !decorators.has('@@dont_activate'),
    constant: raw.constant === true,
    forceActivate: decorators.has('@@activate'),
    insertionOrder,
    rank: finiteNumber(raw.priority) ?? insertionOrder,
    position: readPosition(raw, extensions),
    caseSensitive: optionalBoolean(extensions.case_sensitive) ?? optionalBoolean(raw.case_sensitive),
    matchWholeWords: optionalBoolean(extensions.match_whole_words),
    scanDepth: Number.isFinite(decoratorDepth) ? decoratorDepth : finiteNumber(extensions.scan_depth),
    probability: readProbability(extensions),
  };
}

function readLorebook(raw: unknown, macros: MacroContext | undefined): Lorebook {
  if (!isRecord(raw) || !Array.isArray(raw.entries)) return { scanDepth: null, tokenBudget: null, entries: [] };
  const entries = raw.entries
    .slice(0, MAX_ENTRIES)
    .map((entry, index) => readEntry(entry, index, macros))
    .filter((entry): entry is LoreEntry => entry !== null && entry.content.trim() !== '');
  const tokenBudget = finiteNumber(raw.token_budget);
  return { scanDepth: finiteNumber(raw.scan_depth), tokenBudget: tokenBudget !== null && tokenBudget > 0 ? tokenBudget : null, entries };
}

/** A `/pattern/flags` key as a RegExp, as SillyTavern reads it; null for a plain key (or one too long to trust). */
function parseRegexKey(key: string): RegExp | null {
  const match = /^\/([\w\W]+?)\/([gimsuy]*)$/.exec(key);
  if (!match || key.length > MAX_REGEX_LENGTH || /(^|[^\\])\//.test(match[1]!)) return null;
  try {
    return new RegExp(match[1]!, match[2]);
  } catch {
    return null;
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let regexSandbox: { context: vm.Context; script: vm.Script } | undefined;

/**
 * Runs `regex.test(text)` for each job in a vm context with a timeout, so a catastrophic pattern is cut off instead
 * of blocking the service. A job that times out (or throws) counts as no match; the rest go on within REGEX_TOTAL_MS.
 */
function runRegexJobs(jobs: readonly { regex: RegExp; text: string }[]): boolean[] {
  const results: boolean[] = [];
  if (jobs.length === 0) return results;
  regexSandbox ??= {
    context: vm.createContext({}),
    script: new vm.Script(
      'for (let i = run.results.length; i < run.jobs.length; i++) { const job = run.jobs[i]; job.regex.lastIndex = 0; run.results.push(job.regex.test(job.text)); }',
    ),
  };
  const { context, script } = regexSandbox;
  const deadline = performance.now() + REGEX_TOTAL_MS;
  while (results.length < jobs.length && performance.now() < deadline) {
    context.run = { jobs, results };
    try {
      script.runInContext(context, { timeout: Math.max(1, Math.min(REGEX_CALL_TIMEOUT_MS, Math.ceil(deadline - performance.now()))) });
    } catch {
      results.push(false);
    } finally {
      delete context.run;
    }
  }
  while (results.length < jobs.length) results.push(false);
  return results;
}

/** Finds keys in the scanned messages, with every regular-expression key evaluated up front in the sandbox. */
class KeyMatcher {
  private readonly newestFirst: string[];
  private readonly scanTexts = new Map<string, string>();
  private readonly regexResults = new Map<string, boolean>();

  constructor(
    recentTexts: readonly string[],
    private readonly defaults: { caseSensitive: boolean; matchWholeWords: boolean; scanDepth: number },
  ) {
    this.newestFirst = recentTexts
      .slice(-MAX_SCAN_DEPTH)
      .reverse()
      .map((text) => text.trim());
  }

  depthOf(entry: LoreEntry): number {
    return Math.min(MAX_SCAN_DEPTH, Math.max(0, Math.floor(entry.scanDepth ?? this.defaults.scanDepth)));
  }

  /** SillyTavern's scan buffer: the newest `depth` messages, newest first, each after a \x01 marker. */
  private scanText(depth: number, lowerCase: boolean): string {
    const cacheKey = `${depth}:${lowerCase}`;
    let text = this.scanTexts.get(cacheKey);
    if (text === undefined) {
      text = depth === 0 ? '' : `\x01${this.newestFirst.slice(0, depth).join('\n\x01')}`.slice(0, MAX_SCAN_CHARS);
      if (lowerCase) text = text.toLowerCase();
      this.scanTexts.set(cacheKey, text);
    }
    return text;
  }

  prepareRegexKeys(entries: readonly LoreEntry[]): void {
    const jobs: { id: string; regex: RegExp; text: string }[] = [];
    for (const entry of entries) {
      const depth = this.depthOf(entry);
      for (const key of [...entry.keys, ...entry.secondaryKeys]) {
        const id = `${depth}\u0000${key}`;
        const regex = parseRegexKey(key);
        if (!regex || this.regexResults.has(id) || jobs.some((job) => job.id === id)) continue;
        if (jobs.length >= MAX_REGEX_KEYS) this.regexResults.set(id, false);
        else jobs.push({ id, regex, text: this.scanText(depth, false) });
      }
    }
    runRegexJobs(jobs).forEach((matched, index) => this.regexResults.set(jobs[index]!.id, matched));
  }

  matches(entry: LoreEntry, key: string): boolean {
    const depth = this.depthOf(entry);
    const regexResult = this.regexResults.get(`${depth}\u0000${key}`);
    if (regexResult !== undefined) return regexResult;
    const caseSensitive = entry.caseSensitive ?? this.defaults.caseSensitive;
    const haystack = this.scanText(depth, !caseSensitive);
    const needle = caseSensitive ? key : key.toLowerCase();
    if (!(entry.matchWholeWords ?? this.defaults.matchWholeWords) || /\s/.test(needle)) return haystack.includes(needle);
    // SillyTavern's boundaries: any non-word character (so punctuation and non-Latin letters) ends a word.
    return new RegExp(`(?:^|\\W)${escapeRegex(needle)}(?:$|\\W)`).test(haystack);
  }
}

/** Why the entry activates and by which keys, or null when it does not (ignoring `enabled`). */
function activationOf(entry: LoreEntry, matcher: KeyMatcher): { activatedBy: LoreActivation; matchedKeys: string[] } | null {
  if (entry.forceActivate) return { activatedBy: 'decorator', matchedKeys: [] };
  if (entry.constant) return { activatedBy: 'constant', matchedKeys: [] };
  const primary = entry.keys.find((key) => matcher.matches(entry, key));
  if (primary === undefined) return null;
  if (entry.secondaryKeys.length === 0) return { activatedBy: 'keys', matchedKeys: [primary] };
  const found = entry.secondaryKeys.filter((key) => matcher.matches(entry, key));
  const secondaryOk =
    entry.selectiveLogic === SelectiveLogic.notAll
      ? found.length < entry.secondaryKeys.length
      : entry.selectiveLogic === SelectiveLogic.notAny
        ? found.length === 0
        : entry.selectiveLogic === SelectiveLogic.andAll
          ? found.length === entry.secondaryKeys.length
          : found.length > 0;
  if (!secondaryOk) return null;
  const counted = entry.selectiveLogic === SelectiveLogic.notAll || entry.selectiveLogic === SelectiveLogic.notAny ? [] : found;
  return { activatedBy: 'keys', matchedKeys: [primary, ...counted] };
}

/**
 * The lorebook entries of `book` that belong in the next prompt, within `tokenBudget` (see the module comment for the
 * rules). `used` and `skipped` are the context-budget view.
 */
export function selectLore(input: SelectLoreInput): LoreSelection {
  const book = readLorebook(input.book, input.macros);
  const matcher = new KeyMatcher(input.recentTexts, {
    caseSensitive: input.caseSensitive ?? false,
    matchWholeWords: input.matchWholeWords ?? false,
    scanDepth: book.scanDepth ?? input.scanDepth ?? DEFAULT_SCAN_DEPTH,
  });
  const random = input.random ?? Math.random;
  const candidates = book.entries.filter((entry) => entry.forceActivate || entry.constant || entry.keys.length > 0);
  matcher.prepareRegexKeys(candidates.filter((entry) => !entry.forceActivate && !entry.constant));

  const skipped: SkippedLoreEntry[] = [];
  const activated: { entry: LoreEntry; report: LoreEntryReport }[] = [];
  const byRank = [...candidates].sort((a, b) => b.rank - a.rank || a.index - b.index);
  for (const entry of byRank) {
    const activation = activationOf(entry, matcher);
    if (!activation) continue;
    const report: LoreEntryReport = {
      id: entry.id,
      label: entry.label,
      ...activation,
      tokens: estimateTokens(`${entry.content}\n`),
      position: entry.position,
    };
    if (!entry.enabled) skipped.push({ ...report, reason: 'disabled' });
    else if (entry.probability !== null && random() * 100 > entry.probability) skipped.push({ ...report, reason: 'probability' });
    else activated.push({ entry, report });
  }

  const budget = Math.min(input.tokenBudget, book.tokenBudget ?? Infinity);
  let spent = 0;
  let overflowed = false;
  const kept: typeof activated = [];
  for (const item of activated) {
    overflowed ||= spent + item.report.tokens > budget;
    if (overflowed) {
      skipped.push({ ...item.report, reason: 'budget' });
      continue;
    }
    spent += item.report.tokens;
    kept.push(item);
  }

  kept.sort((a, b) => a.entry.insertionOrder - b.entry.insertionOrder || a.entry.index - b.entry.index);
  return {
    before: kept.filter((item) => item.entry.position === 'before').map((item) => item.entry.content),
    after: kept.filter((item) => item.entry.position === 'after').map((item) => item.entry.content),
    used: kept.map((item) => item.report),
    skipped,
  };
}
