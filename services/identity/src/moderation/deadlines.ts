const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export const addHours = (from: Date, hours: number): Date => new Date(from.getTime() + hours * HOUR_MS);

/** `days` business days after `from` (Monday to Friday, UTC; public holidays are not known here, so it errs early). */
export function addBusinessDays(from: Date, days: number): Date {
  let at = from.getTime();
  let left = days;
  while (left > 0) {
    at += DAY_MS;
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left--;
  }
  return new Date(at);
}
