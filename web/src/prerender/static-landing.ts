/**
 * The landing page's markup pre-rendered at build time (web/src/prerender/render-landing.tsx, written into
 * index.html by vite.config.ts), which the gateway serves on "/" so the first paint needs no JavaScript.
 * The app renders into #root, hidden while this element exists, and removes it once the landing (or any
 * other screen) is on screen.
 */
export const STATIC_LANDING_ID = 'static-landing';

/** Class set on <html> before the first paint when the visitor's language is not English: the English copy stays hidden. */
export const STATIC_LANDING_OFF_CLASS = 'static-landing-off';

const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]';

/**
 * Takes the pre-rendered copy off the page. `replacement`: the app's landing taking its place, the same markup, where
 * the element the visitor had focused in the copy (tabbing through it before the app arrived) gets the focus back.
 */
export function removeStaticLanding(replacement?: HTMLElement | null): void {
  const copy = document.getElementById(STATIC_LANDING_ID);
  if (!copy) return;
  const focused = document.activeElement;
  const focusIndex = replacement && focused && copy.contains(focused) ? Array.from(copy.querySelectorAll(FOCUSABLE)).indexOf(focused) : -1;
  copy.remove();
  if (focusIndex >= 0) replacement?.querySelectorAll<HTMLElement>(FOCUSABLE)[focusIndex]?.focus({ preventScroll: true });
}
