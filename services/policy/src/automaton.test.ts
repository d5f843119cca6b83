import { Automaton } from './automaton';

/** Every [pattern, end] pair, in the order the automaton reports them. */
function matches(patterns: string[], text: string): [string, number][] {
  const found: [string, number][] = [];
  new Automaton(patterns).scan(text, (id, end) => found.push([patterns[id]!, end]));
  return found;
}

/** The same pairs by brute force, for comparison. */
function naive(patterns: string[], text: string): [string, number][] {
  const found: [string, number][] = [];
  for (let end = 1; end <= text.length; end++) {
    for (const pattern of patterns) if (text.slice(0, end).endsWith(pattern)) found.push([pattern, end]);
  }
  return found;
}

const sorted = (pairs: [string, number][]) => [...pairs].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

describe('Automaton', () => {
  it('finds overlapping and nested occurrences, in order of their end', () => {
    expect(sorted(matches(['he', 'she', 'his', 'hers'], 'ushers'))).toEqual([
      ['he', 4],
      ['she', 4],
      ['hers', 6],
    ]);
    const ends = matches(['a', 'aa', 'aaa'], 'aaaa').map(([, end]) => end);
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect(matches(['a', 'aa', 'aaa'], 'aaaa')).toHaveLength(4 + 3 + 2);
  });

  it('reports a pattern listed twice under both ids', () => {
    const ids: number[] = [];
    new Automaton(['sex', 'sex']).scan('sex', (id) => ids.push(id));
    expect(ids.sort()).toEqual([0, 1]);
  });

  it('handles characters outside the BMP and scripts without spaces', () => {
    expect(matches(['😀x', '十岁', '二十岁'], 'a😀x 二十岁')).toEqual([
      ['😀x', 4],
      ['二十岁', 8],
      ['十岁', 8],
    ]);
  });

  it('matches what a brute-force search finds on random text', () => {
    const next = random(42);
    const letter = () => 'abc '[Math.floor(next() * 4)]!;
    const word = (length: number) => Array.from({ length }, letter).join('');
    for (let round = 0; round < 50; round++) {
      const patterns = [...new Set(Array.from({ length: 12 }, () => word(1 + Math.floor(next() * 5))))];
      const text = word(200);
      expect(sorted(matches(patterns, text))).toEqual(sorted(naive(patterns, text)));
    }
  });

  it('finds nothing in empty text and refuses empty patterns', () => {
    expect(matches(['a'], '')).toEqual([]);
    expect(() => new Automaton(['a', ''])).toThrow(/empty/);
    expect(new Automaton([]).size).toBe(0);
  });
});
