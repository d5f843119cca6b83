/** Rules of the Stories screen that do not need React: limits, streamed text, the branch map, dates. */

/** The server's limits (schema/src/bus/stories.ts STORY_LIMITS); the forms stop the member before the server would. */
export const STORY_INPUT_LIMITS = {
  titleLength: 120,
  premiseLength: 2000,
  actionLength: 1000,
  charactersMax: 3,
  savePointLength: 60,
} as const;

export const STORY_GENRES = ['FANTASY', 'SCIENCE_FICTION', 'MYSTERY', 'ROMANCE', 'HORROR', 'ADVENTURE', 'COMEDY', 'DRAMA'] as const;
export type StoryGenreValue = (typeof STORY_GENRES)[number];

export const STORY_TONES = ['LIGHTHEARTED', 'DARK', 'ROMANTIC', 'SUSPENSEFUL', 'WHIMSICAL', 'GRITTY'] as const;
export type StoryToneValue = (typeof STORY_TONES)[number];

/** The starters offered in the new-story dialog; texts under `stories.starters.<id>`. */
export const STORY_STARTERS = [
  { id: 'lanternKeeper', genre: 'FANTASY', tone: 'WHIMSICAL' },
  { id: 'derelictSignal', genre: 'SCIENCE_FICTION', tone: 'SUSPENSEFUL' },
  { id: 'lockedStudy', genre: 'MYSTERY', tone: 'DARK' },
  { id: 'rainyBookshop', genre: 'ROMANCE', tone: 'ROMANTIC' },
  { id: 'lighthouseVisitor', genre: 'HORROR', tone: 'DARK' },
  { id: 'sunkenMap', genre: 'ADVENTURE', tone: 'LIGHTHEARTED' },
  { id: 'wizardIntern', genre: 'COMEDY', tone: 'WHIMSICAL' },
  { id: 'lastVineyard', genre: 'DRAMA', tone: 'GRITTY' },
] as const satisfies readonly { id: string; genre: StoryGenreValue; tone: StoryToneValue }[];
export type StoryStarterId = (typeof STORY_STARTERS)[number]['id'];

/** The languages passages can be written in (the product's nine). */
const STORY_LANGUAGES = ['en', 'es', 'fr', 'de', 'ru', 'zh', 'hi', 'pt', 'ko'] as const;

/** The story language for the interface language ("pt-BR" → "pt"); English when there is no match. */
export function storyLanguageFor(uiLanguage: string | undefined): string {
  const base = uiLanguage?.toLowerCase().split(/[-_]/)[0];
  return (STORY_LANGUAGES as readonly string[]).includes(base ?? '') ? base! : 'en';
}

const HEADING_LINE = /^###/m;
// A line that may be the start of the `### Choices` marker, still being written.
const PARTIAL_MARKER = /(^|\n)#{1,2}$/;

/**
 * The prose of a passage: everything before the first line that starts with `###` (the choices block the
 * narrator writes after the prose). While streaming, a last line of one or two `#` is held back too, so the
 * marker never flashes as text.
 */
export function passageProse(content: string, streaming: boolean): string {
  const marker = HEADING_LINE.exec(content);
  let prose = marker ? content.slice(0, marker.index) : content;
  if (streaming && !marker) prose = prose.replace(PARTIAL_MARKER, '');
  return marker ? prose.trimEnd() : prose;
}

/** The passages of the branch being read, opening first, cut just after `passageId` (all of them when it is absent). */
export function pathUpTo(pathIds: readonly string[], passageId: string): string[] {
  const index = pathIds.indexOf(passageId);
  return index === -1 ? [...pathIds] : pathIds.slice(0, index + 1);
}

export interface MapNodeLike {
  id: string;
  parentId?: string | null;
  createdAt: string;
}

export interface BranchMapRow<N extends MapNodeLike> {
  node: N;
  /** How many branch points lie above this node: a straight run of passages stays at one level. */
  level: number;
  /** The first node of a branch that splits off from its parent's other continuations. */
  startsBranch: boolean;
  /** Continuations of this node (more than one: the story branches here). */
  childCount: number;
}

/**
 * The story tree as rows to show in order, depth first, oldest branch first: a run of single continuations stays at
 * the same indentation, and only where the story branches do the continuations indent one level, so a long story
 * without branches does not drift off the screen.
 */
export function branchMapRows<N extends MapNodeLike>(nodes: readonly N[]): BranchMapRow<N>[] {
  const ids = new Set(nodes.map((node) => node.id));
  const children = new Map<string | null, N[]>();
  for (const node of nodes) {
    // A node whose parent is missing (cut from the map) is shown as a root rather than lost.
    const parent = node.parentId && ids.has(node.parentId) ? node.parentId : null;
    const siblings = children.get(parent) ?? [];
    siblings.push(node);
    children.set(parent, siblings);
  }
  for (const siblings of children.values()) siblings.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));

  const rows: BranchMapRow<N>[] = [];
  const roots = children.get(null) ?? [];
  // An explicit stack: a story may be a thousand passages deep.
  const stack: { node: N; level: number; startsBranch: boolean }[] = roots
    .map((node) => ({ node, level: 0, startsBranch: roots.length > 1 }))
    .reverse();
  while (stack.length > 0) {
    const { node, level, startsBranch } = stack.pop()!;
    const kids = children.get(node.id) ?? [];
    rows.push({ node, level, startsBranch, childCount: kids.length });
    const branches = kids.length > 1;
    for (let index = kids.length - 1; index >= 0; index -= 1) {
      stack.push({ node: kids[index]!, level: branches ? level + 1 : level, startsBranch: branches });
    }
  }
  return rows;
}

/** How many continuations each passage has (more than one: other branches start there). */
export function childCounts(nodes: readonly MapNodeLike[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const node of nodes) {
    if (node.parentId) counts.set(node.parentId, (counts.get(node.parentId) ?? 0) + 1);
  }
  return counts;
}

const RELATIVE_STEPS: readonly [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "5 minutes ago", "yesterday", "last week" in the member's language. */
export function formatRelativeTime(iso: string, now: number, locale: string): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  let amount = (then - now) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  // Under a minute reads "now" rather than a second count that changes as you look at it.
  if (Math.abs(amount) < 45) return format.format(0, 'second');
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return format.format(Math.round(amount), 'year');
}

/** A file name for the exported Markdown, never empty and always ending in .md. */
export function markdownFileName(fileName: string | null | undefined, fallback: string): string {
  const base = (fileName?.trim() || fallback).replace(/[\\/:*?"<>|]+/g, '-');
  return /\.md$/i.test(base) ? base : `${base}.md`;
}

/**
 * Where a branch was left off: from `startId`, follow the most recently written continuation down to its end, so
 * taking an explored choice again resumes that branch instead of writing it anew.
 */
export function latestLeaf(nodes: readonly MapNodeLike[], startId: string): string {
  const newestChild = new Map<string, MapNodeLike>();
  for (const node of nodes) {
    if (!node.parentId) continue;
    const known = newestChild.get(node.parentId);
    if (!known || Date.parse(node.createdAt) > Date.parse(known.createdAt)) newestChild.set(node.parentId, node);
  }
  let id = startId;
  const seen = new Set<string>();
  while (newestChild.has(id) && !seen.has(id)) {
    seen.add(id);
    id = newestChild.get(id)!.id;
  }
  return id;
}
