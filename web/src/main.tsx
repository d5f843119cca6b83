import { fetchCurrentUser } from './lib/session-api';
import { STATIC_LANDING_ID } from './prerender/static-landing';
import { firstScreen, loadMemberScreens, SCREEN_LOADERS } from './routes/screen-loaders';

// This entry is kept tiny so it runs as soon as it arrives, while the app's own chunks (preloaded by
// index.html, see vite.config.ts) are still downloading: the requests the first screen waits for
// start at once instead of after all of the app's code.

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');
const root = container;

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
  return import('./app-start').then(({ startApp }) => startApp(root, initialUser));
}

let enteringApp: Promise<void> | undefined;

/**
 * A link on the landing into the app (Log in, Get started, Terms...): the app starts on that path once its code and
 * the screen's have arrived, in place of the landing; without them (offline), the browser loads the page.
 */
function enterApp(to: string, stopLanding: () => void): Promise<void> {
  enteringApp ??= (async () => {
    document.documentElement.classList.add('app-loading');
    try {
      const [{ startApp: start }] = await Promise.all([import('./app-start'), loadScreen(new URL(to, window.location.href).pathname)]);
      window.history.pushState(null, '', to);
      stopLanding();
      await start(root, initialUser);
    } catch (error) {
      console.warn('The app could not start; loading the page instead.', error);
      window.location.assign(to);
    } finally {
      document.documentElement.classList.remove('app-loading');
    }
  })();
  return enteringApp;
}

/**
 * "/" for a visitor is the landing page alone (features/landing/landing-start.tsx): no router, UI kit or app shell,
 * which load when the visitor follows a link into the app. A member gets the app (the dashboard).
 */
async function startLanding(): Promise<void> {
  const [user, landing] = await Promise.all([initialUser.catch(() => null), import('./features/landing/landing-start')]);
  if (user) return startApp();
  let stopLanding = () => {};
  stopLanding = await landing.startLanding(root, (to) => void enterApp(to, () => stopLanding()));
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
  // With the pre-rendered landing on screen (index.html, served without preloads), the landing's code would compete
  // with that first paint for the network and the main thread.
  if (document.getElementById(STATIC_LANDING_ID)) await afterFirstPaint();
  if (firstScreen(pathname) === 'landing') return startLanding();
  void loadScreen(pathname);
  return startApp();
}

start().catch((error: unknown) => console.error('The app could not start', error));
