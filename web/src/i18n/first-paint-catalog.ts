import en from './locales/en.json';

/**
 * What the landing page and the app shell read of the English catalog: whole sections, or one key or
 * sub-tree of a section by its dotted path.
 */
export const FIRST_PAINT_KEYS = [
  'common',
  'language',
  'nav',
  'footer',
  'landing',
  'support',
  'interest',
  'toasts',
  'notFound',
  'errorBoundary',
  // The footer's link to the API documentation; the rest of the section is the Developers page's.
  'developers.link',
] as const;

type Tree = { [key: string]: unknown };

/** The FIRST_PAINT_KEYS of `catalog`, in its shape. */
export function pickFirstPaint(catalog: Tree): Tree {
  const picked: Tree = {};
  for (const key of FIRST_PAINT_KEYS) {
    const parts = key.split('.');
    let from: unknown = catalog;
    let to = picked;
    parts.forEach((part, index) => {
      from = (from as Tree | undefined)?.[part];
      if (from === undefined) return;
      if (index === parts.length - 1) to[part] = from;
      else to = (to[part] ??= {}) as Tree;
    });
  }
  return picked;
}

/**
 * The English the first screen needs. The browser build replaces this module with pickFirstPaint(en.json)
 * (`firstPaintCatalog` in vite.config.ts), so the landing page carries none of the other screens' English:
 * they load the whole catalog with their code (`loadFullEnglish`). Anywhere else (unit tests) it is the
 * whole catalog.
 */
export default en;
