import { addBusinessDays, addHours } from './deadlines';

describe('moderation deadlines', () => {
  it('counts 7 business days over a weekend', () => {
    // Friday 2026-11-20 12:00 UTC → the Tuesday after next, 2026-12-01 12:00 UTC.
    expect(addBusinessDays(new Date('2026-11-20T12:00:00Z'), 7).toISOString()).toBe('2026-12-01T12:00:00.000Z');
  });

  it('starting on a Saturday, the first business day is Monday', () => {
    expect(addBusinessDays(new Date('2026-11-21T09:00:00Z'), 1).toISOString()).toBe('2026-11-23T09:00:00.000Z');
  });

  it('adds the 48 hours of a takedown', () => {
    expect(addHours(new Date('2026-11-20T12:00:00Z'), 48).toISOString()).toBe('2026-11-22T12:00:00.000Z');
  });
});
