/** Screens that must not be returned to after signing in (they would only lead home again). */
const AUTH_SCREENS = new Set(['/signin', '/signup']);

/**
 * The in-app path to go to after signing in (`/signin?next=/gallery`), or null when `next` is missing or could lead
 * off the site: only a path on this origin counts, never `//host`, `/\host` or an absolute URL (open redirects).
 */
export function safeReturnPath(next: string | null | undefined, origin: string): string | null {
  if (!next?.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return null;
  }
  // '/.//evil.example' resolves to the path '//evil.example': protocol-relative once used as a link.
  if (url.origin !== origin || AUTH_SCREENS.has(url.pathname) || /^\/[/\\]/.test(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in screen, set to come back to `returnPath` afterwards. */
export function signInPathReturningTo(returnPath: string): string {
  return `/signin?next=${encodeURIComponent(returnPath)}`;
}

/** The other auth screen (`/signin` ↔ `/signup`), keeping a valid `next` so either way leads back to the same page. */
export function authScreenKeepingNext(screen: '/signin' | '/signup', next: string | null, origin: string): string {
  const returnPath = safeReturnPath(next, origin);
  return returnPath ? `${screen}?next=${encodeURIComponent(returnPath)}` : screen;
}
