import { fetchCurrentUser } from './lib/session-api';
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

// The signed-out screen for this path (the landing page on "/") comes alongside the app's code; a
// member there fetches it for nothing. app-routes.tsx loads the same modules, so each comes once.
const screen = firstScreen(window.location.pathname);
if (screen) void SCREEN_LOADERS[screen]().catch(() => undefined);

import('./app-start')
  .then(({ startApp }) => startApp(root, initialUser))
  .catch((error: unknown) => console.error('The app could not start', error));
