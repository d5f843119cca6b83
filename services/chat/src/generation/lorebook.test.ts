import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCharacterCard } from '../cards/character-card';
import { estimateTokens } from '../providers/token-estimate';
import { selectLore } from './lorebook';

const readBook = (file: string) => parseCharacterCard(readFileSync(join(__dirname, '../../test/fixtures/cards', file))).data.character_book;

/** A lorebook entry as SillyTavern exports it (V2 fields plus its `extensions`). */
function entry(id: number, fields: Record<string, unknown>, extensions: Record<string, unknown> = {}) {
  return {
    id,
    keys: [],
    secondary_keys: [],
    comment: `Entry ${id}`,
    content: `Lore ${id}.`,
    constant: false,
    selective: true,
    insertion_order: 100,
    enabled: true,
    position: 'after_char',
    use_regex: true,
    ...fields,
    extensions: {
      position: fields.position === 'before_char' ? 0 : 1,
      selectiveLogic: 0,
      probability: 100,
      useProbability: true,
      ...extensions,
    },
  };
}
const book = (entries: unknown[], fields: Record<string, unknown> = {}) => ({ extensions: {}, entries, ...fields });
const select = (entries: unknown[], recentTexts: string[], more: Partial<Parameters<typeof selectLore>[0]> = {}) =>
  selectLore({ book: book(entries), recentTexts, tokenBudget: 1000, ...more });
const usedIds = (selection: ReturnType<typeof selectLore>) => selection.used.map((report) => report.id);

describe('selectLore with a SillyTavern card', () => {
  const eldoria = readBook('v2-sillytavern.json');

  it('inserts an entry whose key was mentioned, before or after the character as the entry says', () => {
    const selection = selectLore({
      book: eldoria,
      recentTexts: ['Elowen: Welcome!', 'Mara: Is it always this cold in eldoria?'],
      tokenBudget: 400,
    });
    expect(selection.before).toEqual(['Eldoria is a mining town high in the Greyspine mountains, snowed in four months a year.']);
    expect(selection.after).toEqual([]);
    expect(selection.used).toEqual([
      {
        id: 0,
        label: 'Town',
        matchedKeys: ['Eldoria'],
        activatedBy: 'keys',
        tokens: estimateTokens(`${selection.before[0]}\n`),
        position: 'before',
      },
    ]);
  });

  it('requires a secondary key for a selective entry, within the book’s scan depth of 4 messages', () => {
    const withoutDawn = selectLore({ book: eldoria, recentTexts: ['The moonflowers are closed.'], tokenBudget: 400 });
    expect(withoutDawn.used).toEqual([]);
    const texts = ['We left at dawn.', 'A long walk.', 'Still walking.', 'The moonflowers are closed.'];
    const withDawn = selectLore({ book: eldoria, recentTexts: texts, tokenBudget: 400 });
    expect(withDawn.after).toEqual(['Moonflowers open only under moonlight and close at the first birdsong.']);
    expect(withDawn.used[0]!.matchedKeys).toEqual(['moonflower', 'dawn']);
    const dawnTooOld = selectLore({ book: eldoria, recentTexts: ['We left at dawn.', ...texts.slice(1), 'Hmm.'], tokenBudget: 400 });
    expect(dawnTooOld.used).toEqual([]);
  });
});

describe('selectLore with a RisuAI card', () => {
  const harbour = readBook('v3-risuai.json');

  it('removes V3 decorators from the content it inserts', () => {
    const selection = selectLore({ book: harbour, recentTexts: ['Play that old record again.'], tokenBudget: 400 });
    expect(selection.after).toEqual(["Seo-yeon's prize record is a 1978 pressing of a Busan harbour folk album."]);
    expect(selection.used[0]).toMatchObject({ id: 0, label: 'Records', matchedKeys: ['record'] });
  });

  it('treats a regex key without /slashes/ as plain text, as RisuAI and SillyTavern do', () => {
    const selection = selectLore({ book: harbour, recentTexts: ['caller #7 on line two'], tokenBudget: 400 });
    expect(selection.used).toEqual([]);
  });
});

describe('selectLore key matching', () => {
  it('scans the last 2 messages unless the book or the entry says otherwise', () => {
    const dragon = entry(1, { keys: ['dragon'] });
    const texts = ['A dragon circles the tower.', 'We hide.', 'Quietly.'];
    expect(usedIds(select([dragon], texts))).toEqual([]);
    expect(usedIds(select([dragon], texts, { scanDepth: 3 }))).toEqual([1]);
    expect(usedIds(selectLore({ book: book([dragon], { scan_depth: 3 }), recentTexts: texts, tokenBudget: 100 }))).toEqual([1]);
    expect(usedIds(select([entry(1, { keys: ['dragon'] }, { scan_depth: 3 })], texts))).toEqual([1]);
    expect(usedIds(select([entry(1, { keys: ['dragon'], content: '@@scan_depth 3\nDragons hoard moonstones.' })], texts))).toEqual([1]);
    expect(usedIds(select([dragon], texts, { scanDepth: 0 }))).toEqual([]);
  });

  it('ignores case unless the entry is case-sensitive', () => {
    const texts = ['I saw the ORDER of the Veil.'];
    expect(usedIds(select([entry(1, { keys: ['order of the veil'] })], texts))).toEqual([1]);
    expect(usedIds(select([entry(1, { keys: ['order of the veil'] }, { case_sensitive: true })], texts))).toEqual([]);
    expect(usedIds(select([entry(1, { keys: ['Order of the Veil'], case_sensitive: true })], texts))).toEqual([]);
    expect(usedIds(select([entry(1, { keys: ['ORDER of the Veil'], case_sensitive: true })], texts))).toEqual([1]);
  });

  it('matches inside words unless whole-word matching is on for the entry or by default', () => {
    const texts = ["Let's concatenate the scrolls.", "Ash's cat sleeps."];
    const cat = entry(1, { keys: ['cat'] });
    expect(usedIds(select([cat], texts.slice(0, 1)))).toEqual([1]);
    expect(usedIds(select([entry(1, { keys: ['cat'] }, { match_whole_words: true })], texts.slice(0, 1)))).toEqual([]);
    expect(usedIds(select([cat], texts.slice(0, 1), { matchWholeWords: true }))).toEqual([]);
    expect(usedIds(select([entry(1, { keys: ['ash'] }, { match_whole_words: true })], texts))).toEqual([1]);
    expect(usedIds(select([entry(1, { keys: ['cat sleeps'] }, { match_whole_words: true })], texts))).toEqual([1]);
  });

  it('matches /regex/flags keys, and keys that use macros', () => {
    const caller = entry(1, { keys: ['/^caller\\s+#?\\d+/im'] });
    expect(usedIds(select([caller], ['Hello!\ncaller #7, you are on air']))).toEqual([1]);
    expect(usedIds(select([caller], ['the caller hung up']))).toEqual([]);
    // Not a valid regular expression: matched as text, as SillyTavern does.
    expect(usedIds(select([entry(1, { keys: ['/moon(/'] })], ['the /moon(/ sign']))).toEqual([1]);
    const herName = entry(1, { keys: ['{{char}}'], content: '{{char}} is afraid of the dark, {{user}} knows.' });
    const selection = select([herName], ['Where is Luna?'], { macros: { char: 'Luna', user: 'Mara' } });
    expect(selection.after).toEqual(['Luna is afraid of the dark, Mara knows.']);
  });

  it('cuts off a catastrophic regular expression instead of stalling, and still evaluates the other entries', () => {
    const evil = entry(1, { keys: ['/(a+)+$/'] });
    const fine = entry(2, { keys: ['/siege/i'] });
    const started = performance.now();
    const selection = select([evil, fine], [`${'a'.repeat(40)}!`, 'The SIEGE begins.']);
    expect(performance.now() - started).toBeLessThan(500);
    expect(usedIds(selection)).toEqual([2]);
  });

  it.each([
    ['AND ANY', 0, ['storm'], [1]],
    ['AND ANY', 0, [], []],
    ['AND ALL', 3, ['storm'], []],
    ['AND ALL', 3, ['storm', 'night'], [1]],
    ['NOT ANY', 2, [], [1]],
    ['NOT ANY', 2, ['night'], []],
    ['NOT ALL', 1, ['storm'], [1]],
    ['NOT ALL', 1, ['storm', 'night'], []],
  ])('applies %s secondary-key logic (%#)', (_, logic, mentioned, expected) => {
    const ship = entry(1, { keys: ['ship'], secondary_keys: ['storm', 'night'] }, { selectiveLogic: logic });
    expect(usedIds(select([ship], [`The ship sails. ${mentioned.join(' ')}`]))).toEqual(expected);
  });

  it('ignores secondary keys when the entry is not selective', () => {
    expect(usedIds(select([entry(1, { keys: ['ship'], secondary_keys: ['storm'], selective: false })], ['The ship sails.']))).toEqual([1]);
  });
});

describe('selectLore activation', () => {
  it('always inserts constant entries, and @@activate ones', () => {
    const world = entry(1, { constant: true, keys: [], content: 'The world has two moons.' });
    const forced = entry(2, { keys: ['never said'], content: '@@activate\nMagic is outlawed.' });
    const selection = select([world, forced], []);
    expect(selection.after).toEqual(['The world has two moons.', 'Magic is outlawed.']);
    expect(selection.used.map((report) => report.activatedBy)).toEqual(['constant', 'decorator']);
  });

  it('reports matched entries that are disabled, and never inserts them', () => {
    const off = entry(1, { keys: ['tower'], enabled: false });
    const dont = entry(2, { keys: ['tower'], content: '@@dont_activate\nThe tower is haunted.' });
    const unmatched = entry(3, { keys: ['cellar'], enabled: false });
    const selection = select([off, dont, unmatched], ['Climb the tower.']);
    expect(selection.used).toEqual([]);
    expect(selection.skipped.map((report) => [report.id, report.reason])).toEqual([
      [1, 'disabled'],
      [2, 'disabled'],
    ]);
  });

  it('treats an entry without `enabled` as enabled and skips entries with empty content', () => {
    const { enabled: _enabled, ...noFlag } = entry(1, { keys: ['tower'] });
    expect(usedIds(select([noFlag, entry(2, { keys: ['tower'], content: '  \n' })], ['the tower']))).toEqual([1]);
  });

  it('rolls for an entry with a probability below 100', () => {
    const rare = entry(1, { keys: ['forest'] }, { probability: 30 });
    expect(usedIds(select([rare], ['the forest'], { random: () => 0.2 }))).toEqual([1]);
    const missed = select([rare], ['the forest'], { random: () => 0.5 });
    expect(missed.skipped.map((report) => report.reason)).toEqual(['probability']);
    expect(
      usedIds(select([entry(1, { keys: ['forest'] }, { probability: 30, useProbability: false })], ['the forest'], { random: () => 0.9 })),
    ).toEqual([1]);
  });

  it('survives books that are not books', () => {
    for (const junk of [null, 'lore', { entries: 'x' }, { entries: [null, 5, { keys: ['a'] }, { content: 7 }] }]) {
      expect(selectLore({ book: junk, recentTexts: ['a'], tokenBudget: 100 })).toEqual({ before: [], after: [], used: [], skipped: [] });
    }
  });
});

describe('selectLore ordering and budget', () => {
  const sized = (id: number, order: number, fields: Record<string, unknown> = {}) =>
    entry(id, { keys: ['harbour'], insertion_order: order, content: `Entry ${id}: ${'sea '.repeat(24)}`, ...fields });
  const perEntry = estimateTokens(`Entry 1: ${'sea '.repeat(24)}\n`);

  it('orders the prompt by insertion_order, lower first, ties in book order, split by position', () => {
    const entries = [sized(1, 50), sized(2, 10, { position: 'before_char' }), sized(3, 50), sized(4, 20)];
    const selection = select(entries, ['At the harbour.']);
    expect(usedIds(selection)).toEqual([2, 4, 1, 3]);
    expect(selection.before.map((text) => text.slice(0, 7))).toEqual(['Entry 2']);
    expect(selection.after.map((text) => text.slice(0, 7))).toEqual(['Entry 4', 'Entry 1', 'Entry 3']);
  });

  it("lets SillyTavern's numeric position override the spec's position", () => {
    const selection = select([entry(1, { keys: ['x'], position: 'after_char' }, { position: 0 })], ['x']);
    expect(selection.before).toEqual(['Lore 1.']);
  });

  it('keeps the highest insertion_order entries within the budget and drops the rest', () => {
    const entries = [sized(1, 10), sized(2, 30), sized(3, 20), sized(4, 40)];
    const selection = select(entries, ['harbour'], { tokenBudget: perEntry * 2 + 1 });
    expect(usedIds(selection)).toEqual([2, 4]);
    expect(selection.skipped.map((report) => [report.id, report.reason])).toEqual([
      [3, 'budget'],
      [1, 'budget'],
    ]);
    const text = [...selection.before, ...selection.after].join('\n');
    expect(estimateTokens(text)).toBeLessThanOrEqual(perEntry * 2 + 1);
  });

  it('ranks by `priority` when the entry has one', () => {
    const entries = [sized(1, 10, { priority: 99 }), sized(2, 30, { priority: 1 })];
    expect(usedIds(select(entries, ['harbour'], { tokenBudget: perEntry }))).toEqual([1]);
  });

  it('stops at the first entry that does not fit, as SillyTavern does, even if a smaller one would', () => {
    const entries = [sized(1, 30), sized(2, 20, { content: 'x'.repeat(2000) }), entry(3, { keys: ['harbour'], insertion_order: 10 })];
    const selection = select(entries, ['harbour'], { tokenBudget: perEntry + 10 });
    expect(usedIds(selection)).toEqual([1]);
    expect(selection.skipped.map((report) => report.id)).toEqual([2, 3]);
  });

  it("applies the book's token_budget when it is lower than the caller's", () => {
    const entries = [sized(1, 10), sized(2, 20)];
    const selection = selectLore({ book: book(entries, { token_budget: perEntry }), recentTexts: ['harbour'], tokenBudget: 5000 });
    expect(usedIds(selection)).toEqual([2]);
  });

  it('budgets constant entries like the others', () => {
    const world = sized(1, 5, { constant: true, keys: [] });
    expect(select([world], [], { tokenBudget: perEntry - 1 }).skipped.map((report) => report.reason)).toEqual(['budget']);
  });
});
