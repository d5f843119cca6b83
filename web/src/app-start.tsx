import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app';
import type { CurrentUser } from './auth/auth-context';
import { startI18n } from './i18n/change-language';
import { removeStaticLanding, STATIC_LANDING_OFF_CLASS } from './prerender/static-landing';
import { preloadFirstScreen } from './routes/app-routes';
import { firstScreen } from './routes/screen-loaders';

/**
 * Renders the app into `target` (a container, or the landing's root it takes over). The visitor's language (saved
 * choice, else the browser's) is loaded before the first render, so no English text or raw key flashes before the
 * translation arrives. startI18n never rejects.
 */
export async function startApp(
  target: HTMLElement | Root,
  initialUser: Promise<CurrentUser | null>,
  settledUser?: CurrentUser | null,
): Promise<void> {
  const firstScreenReady = preloadFirstScreen(window.location.pathname);
  // The pre-rendered landing (index.html) shows until the app's landing replaces it; nobody else needs it.
  if (firstScreen(window.location.pathname) !== 'landing' || document.documentElement.classList.contains(STATIC_LANDING_OFF_CLASS)) {
    removeStaticLanding();
  }
  initialUser.then((user) => user && removeStaticLanding()).catch(() => undefined);
  // A visitor's first screen (sign-in, the Terms...) renders with its text at once: shown first inside its layout, it
  // would push the footer down when it arrived.
  await Promise.all([startI18n(), firstScreenReady]);
  // From the landing, the app takes over its root: one commit replaces the page, with no empty frame between.
  const root = target instanceof HTMLElement ? createRoot(target) : target;
  root.render(
    <StrictMode>
      <App initialUser={initialUser} settledUser={settledUser} />
    </StrictMode>,
  );
}
