/**
 * The landing page's markup pre-rendered at build time (web/src/prerender/render-landing.tsx, written into
 * index.html by vite.config.ts), which the gateway serves on "/" so the first paint needs no JavaScript.
 * The app renders into #root, hidden while this element exists, and removes it once the landing (or any
 * other screen) is on screen.
 */
export const STATIC_LANDING_ID = 'static-landing';

/** Class set on <html> before the first paint when the visitor's language is not English: the English copy stays hidden. */
export const STATIC_LANDING_OFF_CLASS = 'static-landing-off';

export function removeStaticLanding(): void {
  document.getElementById(STATIC_LANDING_ID)?.remove();
}
