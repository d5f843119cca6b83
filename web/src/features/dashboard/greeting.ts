/** How long after signing up the dashboard greets a member as new rather than as returning. */
export const NEW_MEMBER_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * New on the day of sign-up. The session already carries the account's createdAt, so the first paint is right (no extra
 * request, no greeting that changes under the reader); activity counters would call a member who only looked around "new"
 * for ever, and a first-visit flag in the browser would greet an old member as new on every new device.
 */
export function isNewMember(createdAt: string, now: number = Date.now()): boolean {
  const created = Date.parse(createdAt);
  if (Number.isNaN(created)) return false;
  return now - created < NEW_MEMBER_WINDOW_MS;
}
