import type { Root } from 'react-dom/client';
import { fetchCurrentUser } from './lib/session-api';
import { STATIC_LANDING_ID } from './prerender/static-landing';
import { firstScreen, loadMemberScreens, SCREEN_LOADERS } from './routes/screen-loaders';

// This entry is kept tiny so it runs as soon as it arrives, while the app's own chunks (preloaded by
// index.html, see vite.config.ts) are still downloading: the requests the first screen waits for
// start at once instead of after all of the app's code.

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Missing #root element in index.html');
const container = rootElement;

// Who is signed in (spec §7: once per load, no retry, no cache); AuthProvider settles the answer.
// A member's screens (and the GraphQL client) start loading as soon as it arrives.
const initialUser = fetchCurrentUser();
initialUser.then((user) => (user ? loadMemberScreens(window.location.pathname) : undefined)).catch(() => undefined);

/** The signed-out screen for this path, loaded alongside the app's code (app-routes.tsx loads the same modules). */
function loadScreen(pathname: string): Promise<unknown> {
  const screen = firstScreen(pathname);
  return screen ? SCREEN_LOADERS[screen]().catch(() => undefined) : Promise.resolve();
}

function startApp(): Promise<void> {
  return import('./app-start').then(({ startApp }) => startApp(container, initialUser));
}

let enteringApp: Promise<void> | undefined;
let appTarget = '/';

/**
 * A link on the landing into the app (Log in, Get started, Terms...): the app takes over the landing's root on that path
 * once its code and the screen's have arrived (the last link followed meanwhile wins); without them (offline, a chunk
 * gone after a deploy), the browser loads the page.
 */
function enterApp(to: string, landingRoot: Root): void {
  appTarget = to;
  enteringApp ??= (async () => {
    document.documentElement.classList.add('app-loading');
    try {
      const screen = firstScreen(new URL(to, window.location.href).pathname);
      const [{ startApp: start }] = await Promise.all([import('./app-start'), screen && SCREEN_LOADERS[screen]()]);
      window.history.pushState(null, '', appTarget);
      await start(landingRoot, initialUser, null);
    } catch (error) {
      console.warn('The app could not start; loading the page instead.', error);
      window.location.assign(appTarget);
    } finally {
      document.documentElement.classList.remove('app-loading');
    }
  })();
}

/**
 * "/" for a visitor is the landing page alone (features/landing/landing-start.tsx): no router, UI kit or app shell,
 * which load when the visitor follows a link into the app. A member gets the app (the dashboard).
 */
async function startLanding(): Promise<void> {
  const landing = import('./features/landing/landing-start');
  landing.then((module) => module.prepareLanding()).catch(() => undefined);
  if (await initialUser.catch(() => null)) return startApp();
  const root = await (
    await landing
  ).startLanding(container, (to) => {
    // The page the visitor is on: nothing to start, as a link to the current page does in the app.
    if (new URL(to, window.location.href).pathname === window.location.pathname) return window.scrollTo(0, 0);
    enterApp(to, root);
  });
}

/** Once the browser has painted the pre-rendered landing (the next frame; a tab in the background has none, hence the timer). */
function afterFirstPaint(): Promise<void> {
  return new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
}

async function start(): Promise<void> {
  const pathname = window.location.pathname;
  // With the pre-rendered landing on screen, running the landing's code (preloaded by the page) would compete with that
  // first paint for the main thread.
  if (document.getElementById(STATIC_LANDING_ID)) await afterFirstPaint();
  if (firstScreen(pathname) === 'landing') return startLanding();
  void loadScreen(pathname);
  return startApp();
}

start().catch((error: unknown) => console.error('The app could not start', error));
