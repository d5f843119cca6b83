import type * as AnalyticsModule from './analytics';
import type { AppConfig } from './app-config';

type Analytics = typeof AnalyticsModule;

const PLAUSIBLE = { provider: 'plausible', endpoint: 'https://plausible.example/api/event', siteId: 'velvet.example' } as const;
const GA4 = { provider: 'ga4', endpoint: 'https://www.google-analytics.com/g/collect', siteId: 'G-TEST123' } as const;
const NOW = Date.UTC(2025, 8, 1, 12, 0, 0);

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

interface BrowserStub {
  fetch: jest.Mock;
  sendBeacon: jest.Mock;
  localStorage: MemoryStorage;
  sessionStorage: MemoryStorage;
  navigator: { doNotTrack?: string; globalPrivacyControl?: boolean; sendBeacon?: jest.Mock };
}

const globals = globalThis as Record<string, unknown>;
const STUBBED = ['window', 'document', 'navigator', 'fetch'] as const;
const originals = new Map(STUBBED.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));

/** A page at https://velvet.example/ in Node: only what analytics.ts touches. */
function stubBrowser(analytics: AppConfig['analytics'] | undefined, options: { withFetch?: boolean } = {}): BrowserStub {
  const stub: BrowserStub = {
    fetch: jest.fn(() => Promise.resolve(new Response(null, { status: 202 }))),
    sendBeacon: jest.fn(() => true),
    localStorage: new MemoryStorage(),
    sessionStorage: new MemoryStorage(),
    navigator: {},
  };
  stub.navigator.sendBeacon = stub.sendBeacon;
  const window = {
    __APP_CONFIG__: analytics === undefined ? {} : { analytics },
    location: { origin: 'https://velvet.example', href: 'https://velvet.example/?lang=fr' },
    localStorage: stub.localStorage,
    sessionStorage: stub.sessionStorage,
  };
  define('window', window);
  define('document', { referrer: 'https://search.example/', title: 'Velvet AI' });
  define('navigator', stub.navigator);
  define('fetch', options.withFetch === false ? undefined : stub.fetch);
  return stub;
}

function define(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}

let analytics: Analytics;

beforeEach(async () => {
  // Fresh module state (last page view, in-memory ids) for every test.
  jest.resetModules();
  analytics = await import('./analytics');
  jest.spyOn(Date, 'now').mockReturnValue(NOW);
});

afterEach(() => {
  jest.restoreAllMocks();
  for (const [name, descriptor] of originals) {
    if (descriptor) Object.defineProperty(globalThis, name, descriptor);
    else delete globals[name];
  }
});

function plausibleBody(stub: BrowserStub, call = 0): unknown {
  const [url, init] = stub.fetch.mock.calls[call] as [string, RequestInit];
  expect(url).toBe(PLAUSIBLE.endpoint);
  expect(init).toMatchObject({
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    keepalive: true,
    credentials: 'omit',
    mode: 'no-cors',
  });
  return JSON.parse(init.body as string);
}

function ga4Url(stub: BrowserStub, call = 0): string {
  const [url, init] = stub.fetch.mock.calls[call] as [string, RequestInit];
  expect(init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'omit', mode: 'no-cors' });
  expect(init.body).toBeUndefined();
  return url;
}

describe('without an analytics configuration', () => {
  it.each([
    ['no analytics key', undefined],
    ['analytics: null', null],
  ])('sends nothing (%s)', (_name, config) => {
    const stub = stubBrowser(config);
    analytics.trackPageView('/');
    analytics.trackEvent('language', 'fr');
    analytics.trackSocialClick('community');
    expect(stub.fetch).not.toHaveBeenCalled();
    expect(stub.sendBeacon).not.toHaveBeenCalled();
  });

  it('does nothing outside a browser', () => {
    expect(() => analytics.trackPageView('/')).not.toThrow();
    expect(() => analytics.trackEvent('support', 'email')).not.toThrow();
  });
});

describe('Plausible', () => {
  it('posts a page view in the Events API format as text/plain', () => {
    const stub = stubBrowser(PLAUSIBLE);
    analytics.trackPageView('/tos?from=footer');
    expect(stub.fetch).toHaveBeenCalledTimes(1);
    expect(plausibleBody(stub)).toEqual({
      name: 'pageview',
      url: 'https://velvet.example/tos?from=footer',
      domain: 'velvet.example',
      referrer: 'https://search.example/',
    });
  });

  it('posts a named event with category, label and value as props', () => {
    const stub = stubBrowser(PLAUSIBLE);
    analytics.trackEvent('interest', 'vip_subscribe:vip-basic', 9.99);
    expect(plausibleBody(stub)).toEqual({
      name: 'feature_interest',
      url: 'https://velvet.example/?lang=fr',
      domain: 'velvet.example',
      referrer: 'https://search.example/',
      props: { category: 'interest', label: 'vip_subscribe:vip-basic', value: 9.99 },
    });
  });

  it('leaves out a missing label and value, and sends referrer null when there is none', () => {
    const stub = stubBrowser(PLAUSIBLE);
    (globalThis.document as { referrer: string }).referrer = '';
    analytics.trackEvent('support');
    expect(plausibleBody(stub)).toEqual({
      name: 'support_contact',
      url: 'https://velvet.example/?lang=fr',
      domain: 'velvet.example',
      referrer: null,
      props: { category: 'support' },
    });
  });

  it('uses sendBeacon when fetch is missing', () => {
    const stub = stubBrowser(PLAUSIBLE, { withFetch: false });
    analytics.trackPageView('/');
    expect(stub.sendBeacon).toHaveBeenCalledWith(
      PLAUSIBLE.endpoint,
      JSON.stringify({ name: 'pageview', url: 'https://velvet.example/', domain: 'velvet.example', referrer: 'https://search.example/' }),
    );
  });
});

describe('GA4', () => {
  it('sends a page_view hit in the collect wire format with the stored client id', () => {
    const stub = stubBrowser(GA4);
    stub.localStorage.setItem(analytics.CLIENT_ID_STORAGE_KEY, '123456789.1700000000');
    stub.sessionStorage.setItem(analytics.SESSION_ID_STORAGE_KEY, '1756720000');
    analytics.trackPageView('/tos');
    expect(ga4Url(stub)).toBe(
      'https://www.google-analytics.com/g/collect?v=2&tid=G-TEST123&cid=123456789.1700000000&sid=1756720000&en=page_view' +
        '&dl=https%3A%2F%2Fvelvet.example%2Ftos&dr=https%3A%2F%2Fsearch.example%2F&dt=Velvet+AI',
    );
  });

  it('sends an event with ep.category, ep.label and epn.value', () => {
    const stub = stubBrowser(GA4);
    stub.localStorage.setItem(analytics.CLIENT_ID_STORAGE_KEY, '123456789.1700000000');
    stub.sessionStorage.setItem(analytics.SESSION_ID_STORAGE_KEY, '1756720000');
    analytics.trackEvent('language', 'fr', 2);
    expect(ga4Url(stub)).toBe(
      'https://www.google-analytics.com/g/collect?v=2&tid=G-TEST123&cid=123456789.1700000000&sid=1756720000&en=language_change' +
        '&dl=https%3A%2F%2Fvelvet.example%2F%3Flang%3Dfr&dr=https%3A%2F%2Fsearch.example%2F&dt=Velvet+AI' +
        '&ep.category=language&ep.label=fr&epn.value=2',
    );
  });

  it('creates a random client id once, keeps it in localStorage and reuses it', () => {
    const stub = stubBrowser(GA4);
    analytics.trackPageView('/');
    analytics.trackEvent('social', 'microblog');
    const clientId = stub.localStorage.getItem(analytics.CLIENT_ID_STORAGE_KEY);
    expect(clientId).toMatch(/^\d{1,10}\.1756728000$/);
    expect(stub.sessionStorage.getItem(analytics.SESSION_ID_STORAGE_KEY)).toBe('1756728000');
    expect(stub.localStorage.items.size).toBe(1);
    for (const call of [0, 1]) expect(new URL(ga4Url(stub, call)).searchParams.get('cid')).toBe(clientId);
  });

  it('still sends when storage is unavailable, with an id for the page only', () => {
    const stub = stubBrowser(GA4);
    stub.localStorage.getItem = stub.localStorage.setItem = () => {
      throw new Error('SecurityError');
    };
    analytics.trackPageView('/');
    analytics.trackPageView('/tos');
    const ids = [0, 1].map((call) => new URL(ga4Url(stub, call)).searchParams.get('cid'));
    expect(ids[0]).toMatch(/^\d+\.\d+$/);
    expect(ids[1]).toBe(ids[0]);
  });
});

describe('named events', () => {
  it.each<[string, (a: Analytics) => void, Record<string, unknown>]>([
    ['language change', (a) => a.trackLanguageChange('ko'), { name: 'language_change', props: { category: 'language', label: 'ko' } }],
    [
      'feature interest',
      (a) => a.trackFeatureInterest('text-to-video'),
      { name: 'feature_interest', props: { category: 'interest', label: 'feature:text-to-video' } },
    ],
    [
      'VIP subscribe interest',
      (a) => a.trackVipSubscribeInterest('vip-premium', 19.99),
      { name: 'feature_interest', props: { category: 'interest', label: 'vip_subscribe:vip-premium', value: 19.99 } },
    ],
    ['social click', (a) => a.trackSocialClick('community'), { name: 'social_click', props: { category: 'social', label: 'community' } }],
    ['support contact', (a) => a.trackSupportContact(), { name: 'support_contact', props: { category: 'support', label: 'email' } }],
  ])('%s', (_name, track, expected) => {
    const stub = stubBrowser(PLAUSIBLE);
    track(analytics);
    expect(plausibleBody(stub)).toMatchObject(expected);
  });

  it('turns an unknown category into a valid event name', () => {
    const stub = stubBrowser(PLAUSIBLE);
    analytics.trackEvent('Story game: start', 'dragon');
    expect(plausibleBody(stub)).toMatchObject({ name: 'Story_game_start', props: { category: 'Story game: start', label: 'dragon' } });
  });
});

describe('robustness and privacy', () => {
  it('reports one page view per location even when the tracker re-runs', () => {
    const stub = stubBrowser(PLAUSIBLE);
    analytics.trackPageView('/');
    analytics.trackPageView('/');
    analytics.trackPageView('/tos');
    analytics.trackPageView('/');
    expect(stub.fetch).toHaveBeenCalledTimes(3);
  });

  it.each([
    ['Do Not Track', { doNotTrack: '1' }],
    ['Global Privacy Control', { globalPrivacyControl: true }],
  ])('sends nothing when the browser asks not to be tracked (%s)', (_name, signal) => {
    const stub = stubBrowser(PLAUSIBLE);
    Object.assign(stub.navigator, signal);
    analytics.trackPageView('/');
    analytics.trackLanguageChange('fr');
    expect(stub.fetch).not.toHaveBeenCalled();
    expect(stub.sendBeacon).not.toHaveBeenCalled();
  });

  it('never throws, whether fetch throws or rejects', async () => {
    const stub = stubBrowser(PLAUSIBLE);
    stub.fetch.mockImplementationOnce(() => {
      throw new TypeError('blocked');
    });
    expect(() => analytics.trackPageView('/')).not.toThrow();
    stub.fetch.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(() => analytics.trackEvent('social', 'microblog')).not.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stub.fetch).toHaveBeenCalledTimes(2);
  });

  it('never throws on a malformed endpoint', () => {
    stubBrowser({ provider: 'ga4', endpoint: 'http://[broken', siteId: 'G-X' });
    expect(() => analytics.trackPageView('/')).not.toThrow();
  });
});
