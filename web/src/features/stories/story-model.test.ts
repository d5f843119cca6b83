import {
  branchMapRows,
  childCounts,
  formatRelativeTime,
  latestLeaf,
  markdownFileName,
  passageProse,
  pathUpTo,
  storyLanguageFor,
} from './story-model';

describe('passageProse', () => {
  it('hides the choices block from its ### line on', () => {
    const text = 'The door creaks open.\n\n### Choices\n1. Step inside\n2. Run';
    expect(passageProse(text, true)).toBe('The door creaks open.');
    expect(passageProse(text, false)).toBe('The door creaks open.');
  });

  it('holds back a marker still being written while streaming, and shows it once complete', () => {
    expect(passageProse('The door creaks open.\n##', true)).toBe('The door creaks open.');
    expect(passageProse('The door creaks open.\n#', true)).toBe('The door creaks open.');
    expect(passageProse('# Chapter one', false)).toBe('# Chapter one');
  });

  it('keeps prose that merely contains hashes', () => {
    expect(passageProse('Room #3 is locked.', true)).toBe('Room #3 is locked.');
    expect(passageProse('He wrote ### on the wall', true)).toBe('He wrote ### on the wall');
  });
});

describe('storyLanguageFor', () => {
  it('maps the interface language to one of the nine story languages', () => {
    expect(storyLanguageFor('pt-BR')).toBe('pt');
    expect(storyLanguageFor('ko')).toBe('ko');
    expect(storyLanguageFor('it')).toBe('en');
    expect(storyLanguageFor(undefined)).toBe('en');
  });
});

describe('pathUpTo', () => {
  it('cuts the branch just after a passage', () => {
    expect(pathUpTo(['a', 'b', 'c'], 'b')).toEqual(['a', 'b']);
    expect(pathUpTo(['a', 'b'], 'x')).toEqual(['a', 'b']);
  });
});

describe('branchMapRows', () => {
  const node = (id: string, parentId: string | null, minute: number) => ({
    id,
    parentId,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString(),
  });

  it('indents only where the story branches, oldest branch first', () => {
    // opening → a → b, and a second continuation of the opening (c) written later.
    const nodes = [node('opening', null, 0), node('c', 'opening', 5), node('a', 'opening', 1), node('b', 'a', 2)];
    const rows = branchMapRows(nodes);
    expect(rows.map((row) => [row.node.id, row.level, row.startsBranch])).toEqual([
      ['opening', 0, false],
      ['a', 1, true],
      ['b', 1, false],
      ['c', 1, true],
    ]);
    expect(rows[0]!.childCount).toBe(2);
  });

  it('keeps a long unbranched story at one level and handles a thousand passages', () => {
    const nodes = Array.from({ length: 1000 }, (_, index) => node(`n${index}`, index === 0 ? null : `n${index - 1}`, index));
    const rows = branchMapRows(nodes);
    expect(rows).toHaveLength(1000);
    expect(new Set(rows.map((row) => row.level))).toEqual(new Set([0]));
  });

  it('shows a passage whose parent is missing as a root', () => {
    expect(branchMapRows([node('orphan', 'gone', 0)]).map((row) => row.node.id)).toEqual(['orphan']);
  });

  it('counts continuations per passage', () => {
    expect(childCounts([node('o', null, 0), node('a', 'o', 1), node('b', 'o', 2)]).get('o')).toBe(2);
  });
});

describe('formatRelativeTime', () => {
  const now = Date.UTC(2025, 5, 15, 12, 0, 0);
  it('says how long ago, in the given language', () => {
    expect(formatRelativeTime(new Date(now - 10_000).toISOString(), now, 'en')).toBe('now');
    expect(formatRelativeTime(new Date(now - 5 * 60_000).toISOString(), now, 'en')).toBe('5 minutes ago');
    expect(formatRelativeTime(new Date(now - 24 * 3_600_000).toISOString(), now, 'en')).toBe('yesterday');
    expect(formatRelativeTime(new Date(now - 3 * 3_600_000).toISOString(), now, 'de')).toBe('vor 3 Stunden');
    expect(formatRelativeTime('not a date', now, 'en')).toBe('');
  });
});

describe('markdownFileName', () => {
  it('always names a .md file without path characters', () => {
    expect(markdownFileName('the-lantern.md', 'story')).toBe('the-lantern.md');
    expect(markdownFileName('a/b', 'story')).toBe('a-b.md');
    expect(markdownFileName('', 'story')).toBe('story.md');
  });
});

describe('latestLeaf', () => {
  const node = (id: string, parentId: string | null, minute: number) => ({
    id,
    parentId,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, minute)).toISOString(),
  });

  it('follows the newest continuation to the end of the branch', () => {
    const nodes = [node('o', null, 0), node('a', 'o', 1), node('a1', 'a', 2), node('a2', 'a', 4), node('a2x', 'a2', 5), node('b', 'o', 3)];
    expect(latestLeaf(nodes, 'a')).toBe('a2x');
    expect(latestLeaf(nodes, 'b')).toBe('b');
  });
});
