/** What the Plans screen says about plans, and how a failed action leads there (SPEC §2 Plans, §9). */

/** SPEC §9: Pro is $29 a month and launches in September 2025 (display only: its button stays disabled). */
export const PRO_PLAN = { monthlyPriceUsd: 29, launchMonth: '2025-09-01T00:00:00Z' } as const;

export const PRO_FEATURE_KEYS = ['unlimited', 'hdQuality', 'prioritySupport', 'earlyAccess'] as const;

/** Why a member was sent to the Plans screen: an empty balance or a used-up free allowance. */
export type PlanReason = 'tokens' | 'quota';

const PLAN_REASONS: readonly string[] = ['tokens', 'quota'] satisfies PlanReason[];

export const PLANS_PATH = '/subscribe';

/** The Plans screen with the callout for `reason` at its top. */
export function plansPathFor(reason: PlanReason): string {
  return `${PLANS_PATH}?reason=${reason}`;
}

/** `?reason=tokens|quota` from the Plans screen's address; anything else shows no callout. */
export function parsePlanReason(search: string | URLSearchParams): PlanReason | null {
  const reason = (typeof search === 'string' ? new URLSearchParams(search) : search).get('reason');
  return reason && PLAN_REASONS.includes(reason) ? (reason as PlanReason) : null;
}

/** The error codes that mean "out of tokens" or "free allowance used", as a Plans reason. */
export function planReasonForErrorCode(code: string | null | undefined): PlanReason | null {
  if (code === 'INSUFFICIENT_TOKENS') return 'tokens';
  if (code === 'QUOTA_EXCEEDED') return 'quota';
  return null;
}

function parseDate(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The top-up date in the member's language; the ledger renews on UTC calendar months, so the day is read in UTC. */
export function formatRenewalDate(iso: string | null | undefined, locale: string): string | null {
  const date = parseDate(iso);
  return date ? new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(date) : null;
}

/** "September 2025" in the member's language. */
export function formatLaunchMonth(locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(PRO_PLAN.launchMonth));
}

/** A whole-dollar monthly price ("$29", "29 $US"). */
export function formatMonthlyPrice(amountUsd: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(amountUsd);
}

/** Used share of an allowance, 0-100 (a zero limit counts as used up). */
export function usagePercent(used: number, limit: number): number {
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.min(100, Math.max(0, Math.round((used / limit) * 100)));
}

/** The bar turns red once an allowance is used up. */
export function isUsedUp(used: number, limit: number): boolean {
  return used >= limit;
}
