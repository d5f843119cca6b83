import fs from 'node:fs';
import path from 'node:path';
import { pickFirstPaint } from './first-paint-catalog';
import en from './locales/en.json';

const SRC = path.resolve(__dirname, '..');

/** What renders before the whole English catalog is loaded: the landing page, its shell, and the not-found and error screens. */
const FIRST_PAINT_SOURCES = [
  'features/landing',
  'features/not-found/page.tsx',
  'components/public-layout.tsx',
  'components/language-picker.tsx',
  'components/language-menu.tsx',
  'components/skip-link.tsx',
  'components/brand-link.tsx',
  'components/full-screen-spinner.tsx',
  'components/error-boundary.tsx',
  'components/toast-region.tsx',
];

function sourceFiles(entry: string): string[] {
  const full = path.join(SRC, entry);
  if (!fs.statSync(full).isDirectory()) return [full];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .flatMap((item) => (item.isDirectory() ? sourceFiles(path.join(entry, item.name)) : [path.join(full, item.name)]))
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));
}

/**
 * Catalog keys a file reads, as far as they are written out: t('landing.hero.title'), i18n.t(`footer.…`),
 * labelKey: 'landing.nav.features'; a key built at run time (`landing.features.items.${key}.title`) counts
 * as its written prefix (`landing.features.items`).
 */
function keysReadBy(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const keys = source.matchAll(/(?:\bt\(|labelKey:|Key:)\s*['"`]([a-zA-Z]+\.[\w.${}]+)['"`]/g);
  return [...keys].map((match) => match[1]!.split('${')[0]!.replace(/\.$/, '')).filter((key) => key.split('.')[0]! in en);
}

function lookUp(catalog: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((tree, part) => (tree as Record<string, unknown> | undefined)?.[part], catalog);
}

describe('the first-paint English', () => {
  const firstPaint = pickFirstPaint(en);

  it('has every key the landing page and its shell read, so none of their text shows as a raw key', () => {
    const read = [...new Set(FIRST_PAINT_SOURCES.flatMap(sourceFiles).flatMap(keysReadBy))];
    expect(read.length).toBeGreaterThan(50);
    expect(read.filter((key) => lookUp(firstPaint, key) === undefined)).toEqual([]);
  });

  it('is a small part of the catalog: what only other screens read is left out', () => {
    for (const section of ['legal', 'chat', 'images', 'stories', 'auth']) expect(firstPaint).not.toHaveProperty(section);
    expect(firstPaint).toHaveProperty('developers', { link: en.developers.link });
    expect(JSON.stringify(firstPaint).length).toBeLessThan(JSON.stringify(en).length / 4);
  });
});
