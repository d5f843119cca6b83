/** Time left until a moment, split for display (spec §1: days, hours, minutes and seconds). */
export interface Countdown {
  /** True once the target moment has been reached; every unit is then 0. */
  launched: boolean;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const SECOND = 1000;
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Whole units left from `now` to `target`. Part of a second counts as a full one, so the display
 * reads 0 seconds only at the moment of launch; from then on the result is `launched` and never
 * negative. An invalid date on either side is treated as launched.
 */
export function getCountdown(target: Date | number, now: Date | number): Countdown {
  const remainingMs = Number(target) - Number(now);
  if (!(remainingMs > 0)) return { launched: true, days: 0, hours: 0, minutes: 0, seconds: 0 };
  let rest = Math.ceil(remainingMs / SECOND);
  const days = Math.floor(rest / DAY);
  rest -= days * DAY;
  const hours = Math.floor(rest / HOUR);
  rest -= hours * HOUR;
  const minutes = Math.floor(rest / MINUTE);
  return { launched: false, days, hours, minutes, seconds: rest - minutes * MINUTE };
}

/** Two digits for hours, minutes and seconds ("07"); days are shown as they are. */
export function padUnit(value: number): string {
  return String(value).padStart(2, '0');
}
