import {
  PRO_PLAN,
  formatLaunchMonth,
  formatMonthlyPrice,
  formatRenewalDate,
  isUsedUp,
  parsePlanReason,
  planReasonForErrorCode,
  plansPathFor,
  usagePercent,
} from './plans';

describe('plan reasons', () => {
  it('reads the reason from the address and ignores anything else', () => {
    expect(parsePlanReason('?reason=tokens')).toBe('tokens');
    expect(parsePlanReason(new URLSearchParams('reason=quota'))).toBe('quota');
    expect(parsePlanReason('?reason=other')).toBeNull();
    expect(parsePlanReason('')).toBeNull();
  });

  it('maps the out-of-tokens and free-limit errors to a Plans link', () => {
    expect(planReasonForErrorCode('INSUFFICIENT_TOKENS')).toBe('tokens');
    expect(planReasonForErrorCode('QUOTA_EXCEEDED')).toBe('quota');
    expect(planReasonForErrorCode('RATE_LIMITED')).toBeNull();
    expect(plansPathFor('tokens')).toBe('/subscribe?reason=tokens');
    expect(parsePlanReason(new URL(plansPathFor('quota'), 'http://x').search)).toBe('quota');
  });
});

describe('formatting', () => {
  it('gives the renewal day in UTC, in the member language', () => {
    expect(formatRenewalDate('2025-11-01T00:00:00.000Z', 'en')).toBe('November 1, 2025');
    expect(formatRenewalDate('2025-11-01T00:00:00.000Z', 'de')).toBe('1. November 2025');
    expect(formatRenewalDate('not a date', 'en')).toBeNull();
    expect(formatRenewalDate(undefined, 'en')).toBeNull();
  });

  it('states the Pro price and launch month of SPEC §9', () => {
    expect(formatMonthlyPrice(PRO_PLAN.monthlyPriceUsd, 'en')).toBe('$29');
    expect(formatMonthlyPrice(0, 'en')).toBe('$0');
    expect(formatLaunchMonth('en')).toBe('September 2025');
    expect(formatLaunchMonth('fr')).toBe('septembre 2025');
  });
});

describe('usage', () => {
  it('is a capped percentage of the allowance', () => {
    expect(usagePercent(1, 3)).toBe(33);
    expect(usagePercent(1, 10)).toBe(10);
    expect(usagePercent(12, 10)).toBe(100);
    expect(usagePercent(0, 0)).toBe(0);
    expect(isUsedUp(3, 3)).toBe(true);
    expect(isUsedUp(2, 3)).toBe(false);
  });
});
