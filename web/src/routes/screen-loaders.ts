/**
 * The signed-out screens' code chunks, and which one a path shows first; the member screens' chunk.
 * Imported by the tiny entry (main.tsx), so it must not import React or anything else heavy: only
 * these dynamic imports.
 */
export const SCREEN_LOADERS = {
  landing: () => import('../features/landing/page'),
  signIn: () => import('../features/auth/signin-page'),
  signUp: () => import('../features/auth/signup-page'),
  tos: () => import('../features/legal/tos-page'),
  privacy: () => import('../features/legal/privacy-page'),
  takedown: () => import('../features/takedown/page'),
  relaunch: () => import('../features/relaunch/page'),
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
  const routes = import('./member-routes');
  return pathname === '/' ? Promise.all([routes, import('../features/dashboard/page')]) : routes;
}
