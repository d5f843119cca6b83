import { getCountdown, padUnit } from './countdown';

const LAUNCH = new Date('2025-10-01T00:00:00Z');

describe('getCountdown', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    const now = new Date('2025-09-28T21:14:55Z');
    expect(getCountdown(LAUNCH, now)).toEqual({ launched: false, days: 2, hours: 2, minutes: 45, seconds: 5 });
  });

  it('counts a part of a second as a whole one', () => {
    expect(getCountdown(LAUNCH, LAUNCH.getTime() - 1)).toEqual({ launched: false, days: 0, hours: 0, minutes: 0, seconds: 1 });
    expect(getCountdown(LAUNCH, LAUNCH.getTime() - 60_000)).toEqual({ launched: false, days: 0, hours: 0, minutes: 1, seconds: 0 });
  });

  it('handles whole days exactly', () => {
    expect(getCountdown(LAUNCH, new Date('2025-09-21T00:00:00Z'))).toEqual({ launched: false, days: 10, hours: 0, minutes: 0, seconds: 0 });
  });

  it('is launched at and after the target, never negative', () => {
    const launched = { launched: true, days: 0, hours: 0, minutes: 0, seconds: 0 };
    expect(getCountdown(LAUNCH, LAUNCH)).toEqual(launched);
    expect(getCountdown(LAUNCH, new Date('2026-11-22T12:00:00Z'))).toEqual(launched);
  });

  it('treats an invalid date as launched', () => {
    expect(getCountdown(new Date('nonsense'), LAUNCH).launched).toBe(true);
  });

  it('ticks down one second at a time', () => {
    const start = new Date('2025-09-30T23:58:00Z').getTime();
    expect(getCountdown(LAUNCH, start).minutes).toBe(2);
    expect(getCountdown(LAUNCH, start + 1000)).toEqual({ launched: false, days: 0, hours: 0, minutes: 1, seconds: 59 });
  });
});

describe('padUnit', () => {
  it('pads to two digits', () => {
    expect(padUnit(7)).toBe('07');
    expect(padUnit(42)).toBe('42');
    expect(padUnit(123)).toBe('123');
  });
});
