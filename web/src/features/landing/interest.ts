import { trackEvent } from '../../lib/analytics';

/** What a visitor showed interest in: a feature card, or a VIP group's Subscribe button (display only). */
export type InterestKind = 'feature' | 'vip_subscribe';

export const INTEREST_ENDPOINT = '/api/interest';

/** The label format the endpoint accepts. */
export const INTEREST_LABEL_PATTERN = /^[a-z0-9-]{1,64}$/;

/**
 * Records an interest event (spec §1, §7 "feature interest"): an analytics event plus a
 * fire-and-forget POST that survives the page being left. Failures are ignored: interest is a
 * signal, never something the visitor has to wait for or retry.
 */
export function recordInterest(kind: InterestKind, label: string, fetchImpl: typeof fetch | undefined = globalThis.fetch): void {
  if (!INTEREST_LABEL_PATTERN.test(label)) {
    console.warn(`recordInterest: invalid label "${label}"`);
    return;
  }
  trackEvent('interest', `${kind}:${label}`);
  if (!fetchImpl) return;
  try {
    fetchImpl(INTEREST_ENDPOINT, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind, label }),
      credentials: 'include',
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // A fetch that throws synchronously (e.g. blocked) is as ignorable as one that rejects.
  }
}
