/**
 * Web analytics (spec §7): page views and named events (category, label, value) go to the configured
 * service and are skipped when none is configured (`window.__APP_CONFIG__.analytics`, set by the gateway
 * from ANALYTICS_PROVIDER, ANALYTICS_ENDPOINT and ANALYTICS_SITE_ID).
 *
 * - plausible: the Plausible Events API (POST `{ name, url, domain, referrer, props }` to the endpoint,
 *   e.g. https://plausible.io/api/event), sent as text/plain so no CORS preflight is needed.
 * - ga4: the gtag "collect" wire format (`?v=2&tid=…&cid=…&en=…`) appended to the endpoint, e.g.
 *   https://www.google-analytics.com/g/collect. The client id is a random number kept in localStorage under
 *   `analytics_client_id` and the session id (a start time in seconds) in sessionStorage under
 *   `analytics_session_id`; no cookies and nothing personal.
 *
 * Nothing is sent when the browser asks not to be tracked (`navigator.doNotTrack === '1'` or Global Privacy
 * Control): an adult platform's visitors get the benefit of the doubt. Callers never see an error: analytics
 * must never break a page, so every failure is swallowed.
 */
import { type AppConfig, getAnalyticsConfig } from './app-config';

/** The categories the product records (spec §7), plus `interest` for the VIP subscribe button (spec §1). */
export type AnalyticsEvent = 'language' | 'interest' | 'social' | 'support';

/** Event names as sent: snake_case so one name works in both Plausible and GA4 (`^[A-Za-z][A-Za-z0-9_]{0,39}$`). */
export const ANALYTICS_EVENT_NAMES: Record<AnalyticsEvent, string> = {
  language: 'language_change',
  interest: 'feature_interest',
  social: 'social_click',
  support: 'support_contact',
};

export const CLIENT_ID_STORAGE_KEY = 'analytics_client_id';
export const SESSION_ID_STORAGE_KEY = 'analytics_session_id';

/** GA4 truncates event parameter values at 100 characters; Plausible allows 2000 bytes. */
const MAX_LABEL_LENGTH = 100;

type AnalyticsConfig = NonNullable<AppConfig['analytics']>;

interface Hit {
  /** `pageview` or an event name. */
  name: string;
  url: string;
  category?: string;
  label?: string;
  value?: number;
}

let lastPageViewUrl: string | null = null;

/** Records a page view; `path` is the router's pathname plus search. */
export function trackPageView(path: string): void {
  guarded(() => {
    const url = new URL(path, window.location.origin).href;
    // A remount (React StrictMode, a layout switch) re-runs the tracker for the same location.
    if (url === lastPageViewUrl) return;
    lastPageViewUrl = url;
    send({ name: 'pageview', url });
  });
}

/** Records a named event; `category` is one of {@link AnalyticsEvent} for the product's own events. */
export function trackEvent(category: AnalyticsEvent | (string & {}), label?: string, value?: number): void {
  guarded(() => {
    send({
      name: eventName(category),
      url: window.location.href,
      category,
      label: label?.slice(0, MAX_LABEL_LENGTH) || undefined,
      value: typeof value === 'number' && Number.isFinite(value) ? value : undefined,
    });
  });
}

/** The visitor picked a language (`code` such as `fr`). */
export const trackLanguageChange = (code: string): void => trackEvent('language', code);

/** Interest in an announced feature (e.g. `self-ai`): label `feature:<feature>`, as lib/interest.ts sends it. */
export const trackFeatureInterest = (feature: string): void => trackEvent('interest', `feature:${feature}`);

/** The VIP subscribe button only records interest (spec §1): label `vip_subscribe:<plan>`; `monthlyPrice` in dollars. */
export const trackVipSubscribeInterest = (plan: string, monthlyPrice?: number): void =>
  trackEvent('interest', `vip_subscribe:${plan}`, monthlyPrice);

/** A click on a social link (`microblog`, `community`). */
export const trackSocialClick = (network: string): void => trackEvent('social', network);

/** The visitor tried to contact support (`email`, or `clipboard` when the mail client failed). */
export const trackSupportContact = (method = 'email'): void => trackEvent('support', method);

function eventName(category: string): string {
  if (Object.hasOwn(ANALYTICS_EVENT_NAMES, category)) return ANALYTICS_EVENT_NAMES[category as AnalyticsEvent];
  const name = category.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 40);
  return /^[A-Za-z]/.test(name) ? name : `event_${name}`.slice(0, 40);
}

function guarded(action: () => void): void {
  try {
    if (typeof window === 'undefined' || isTrackingRefused()) return;
    action();
  } catch {
    // Analytics never breaks a page.
  }
}

function isTrackingRefused(): boolean {
  const nav = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { globalPrivacyControl?: boolean });
  return nav?.doNotTrack === '1' || nav?.globalPrivacyControl === true;
}

function send(hit: Hit): void {
  const config = getAnalyticsConfig();
  if (!config) return;
  if (config.provider === 'plausible') sendPlausible(config, hit);
  else if (config.provider === 'ga4') sendGa4(config, hit);
}

function sendPlausible(config: AnalyticsConfig, hit: Hit): void {
  const body: Record<string, unknown> = {
    name: hit.name,
    url: hit.url,
    domain: config.siteId,
    referrer: document.referrer || null,
  };
  if (hit.name !== 'pageview') body.props = definedOnly({ category: hit.category, label: hit.label, value: hit.value });
  post(config.endpoint, JSON.stringify(body));
}

function sendGa4(config: AnalyticsConfig, hit: Hit): void {
  const url = new URL(config.endpoint, window.location.origin);
  const params: Record<string, string | undefined> = {
    v: '2',
    tid: config.siteId,
    cid: clientId(),
    sid: sessionId(),
    en: hit.name === 'pageview' ? 'page_view' : hit.name,
    dl: hit.url,
    dr: document.referrer || undefined,
    dt: document.title || undefined,
    'ep.category': hit.category,
    'ep.label': hit.label,
    'epn.value': hit.value === undefined ? undefined : String(hit.value),
  };
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, value);
  post(url.href);
}

/**
 * fetch with keepalive survives a navigation away, like sendBeacon, and can leave out credentials (sendBeacon
 * would send any third-party cookies the analytics host holds). text/plain and no-cors keep it a simple request.
 */
function post(url: string, body?: string): void {
  if (typeof fetch === 'function') {
    fetch(url, {
      method: 'POST',
      body,
      headers: body === undefined ? undefined : { 'Content-Type': 'text/plain' },
      keepalive: true,
      credentials: 'omit',
      mode: 'no-cors',
    }).catch(() => undefined);
  } else if (typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function') {
    navigator.sendBeacon(url, body);
  }
}

let memoryClientId: string | undefined;
let memorySessionId: string | undefined;

/** gtag's shape: a random 31-bit number, a dot, the first-visit time in seconds. */
function clientId(): string {
  const stored = readStorage('localStorage', CLIENT_ID_STORAGE_KEY) ?? memoryClientId;
  if (stored) return stored;
  memoryClientId = `${randomUint31()}.${Math.floor(Date.now() / 1000)}`;
  writeStorage('localStorage', CLIENT_ID_STORAGE_KEY, memoryClientId);
  return memoryClientId;
}

/** A session lasts as long as the browser tab (sessionStorage); its id is its start time in seconds. */
function sessionId(): string {
  const stored = readStorage('sessionStorage', SESSION_ID_STORAGE_KEY) ?? memorySessionId;
  if (stored) return stored;
  memorySessionId = String(Math.floor(Date.now() / 1000));
  writeStorage('sessionStorage', SESSION_ID_STORAGE_KEY, memorySessionId);
  return memorySessionId;
}

function randomUint31(): number {
  const values = new Uint32Array(1);
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') crypto.getRandomValues(values);
  else values[0] = Math.floor(Math.random() * 2 ** 32);
  return (values[0] ?? 0) >>> 1;
}

// Storage throws in some private modes and when disabled; the id then lives for the page only.
function readStorage(area: 'localStorage' | 'sessionStorage', key: string): string | undefined {
  try {
    return window[area]?.getItem(key) || undefined;
  } catch {
    return undefined;
  }
}

function writeStorage(area: 'localStorage' | 'sessionStorage', key: string, value: string): void {
  try {
    window[area]?.setItem(key, value);
  } catch {
    // Kept in memory instead.
  }
}

function definedOnly(values: Record<string, string | number | undefined>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Record<string, string | number>;
}
