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

/** The signed-out screen for this path (the landing page on "/"), loaded alongside the app's code (app-routes.tsx loads the same modules). */
function loadFirstScreen(): void {
  const screen = firstScreen(window.location.pathname);
  if (screen) void SCREEN_LOADERS[screen]().catch(() => undefined);
}

function startApp(): Promise<void> {
  return import('./app-start').then(({ startApp }) => startApp(root, initialUser));
}

/**
 * With the pre-rendered landing on screen (index.html, served without preloads), the app's code loads once the browser
 * has painted it (the next frame; a tab in the background has none, hence the timer): before, it would compete with
 * that first paint for the network and the main thread.
 */
async function startBehindStaticLanding(): Promise<void> {
  await new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 200);
  });
  loadFirstScreen();
  await startApp();
}

if (document.getElementById(STATIC_LANDING_ID)) {
  startBehindStaticLanding().catch((error: unknown) => console.error('The app could not start', error));
} else {
  loadFirstScreen();
  startApp().catch((error: unknown) => console.error('The app could not start', error));
}
