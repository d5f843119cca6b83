import { isNewMember, NEW_MEMBER_WINDOW_MS } from './greeting';

describe('isNewMember', () => {
  const now = Date.parse('2026-03-10T12:00:00.000Z');

  it('welcomes an account created moments ago as new', () => {
    expect(isNewMember('2026-03-10T11:59:30.000Z', now)).toBe(true);
  });

  it('greets an account older than a day as returning', () => {
    expect(isNewMember(new Date(now - NEW_MEMBER_WINDOW_MS).toISOString(), now)).toBe(false);
    expect(isNewMember('2025-12-01T08:00:00.000Z', now)).toBe(false);
  });

  it('falls back to the returning greeting when the date cannot be read', () => {
    expect(isNewMember('not a date', now)).toBe(false);
  });
});
