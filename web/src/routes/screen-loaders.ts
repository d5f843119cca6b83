/**
 * The signed-out screens' code chunks, and which one a path shows first; the member screens' chunk.
 * Imported by the tiny entry (main.tsx), so it must not import React or anything else heavy: only
 * these dynamic imports.
 */

/** The whole English catalog: the first paint carries only the landing page's sections (src/i18n/first-paint-catalog.ts). */
export function loadFullEnglish(): Promise<void> {
  // The catalog's request starts now rather than once the i18n module has run (whose import of it is then this one).
  import('../i18n/locales/en.json').catch(() => undefined);
  return import('../i18n/i18n').then((module) => module.loadFullEnglish());
}

/** A screen's code and the whole English catalog together, so the screen never shows before its text; without the catalog (offline) it still shows. */
function withFullEnglish<T>(load: () => Promise<T>): () => Promise<T> {
  return () => Promise.all([load(), loadFullEnglish().catch(() => undefined)]).then(([module]) => module);
}

export const SCREEN_LOADERS = {
  landing: () => import('../features/landing/page'),
  signIn: withFullEnglish(() => import('../features/auth/signin-page')),
  signUp: withFullEnglish(() => import('../features/auth/signup-page')),
  tos: withFullEnglish(() => import('../features/legal/tos-page')),
  privacy: withFullEnglish(() => import('../features/legal/privacy-page')),
  takedown: withFullEnglish(() => import('../features/takedown/page')),
  relaunch: withFullEnglish(() => import('../features/relaunch/page')),
} as const;

export type ScreenName = keyof typeof SCREEN_LOADERS;

const SCREEN_BY_PATH: Readonly<Record<string, ScreenName>> = {
  '/': 'landing',
  '/signin': 'signIn',
  '/signup': 'signUp',
  '/tos': 'tos',
  '/privacy': 'privacy',
  '/takedown': 'takedown',
  '/relaunch': 'relaunch',
};

/** The screen a visitor sees first on `pathname` ("/tos/" counts as "/tos"), if it is one of these. */
export function firstScreen(pathname: string): ScreenName | undefined {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return SCREEN_BY_PATH[path || '/'];
}

/** The signed-in route set (with the GraphQL client), and on "/" the dashboard it shows first. */
export function loadMemberScreens(pathname: string): Promise<unknown> {
  const routes = Promise.all([import('./member-routes'), loadFullEnglish()]);
  return pathname === '/' ? Promise.all([routes, import('../features/dashboard/page')]) : routes;
}
