import { type AppConfig, getBrandName, getLegalJurisdiction, isApiDocsEnabled, isExplorerEnabled } from './app-config';

const globals = globalThis as Record<string, unknown>;

/** The page as the gateway serves it: `/app-config.js` has set `window.__APP_CONFIG__` (or nothing, in `vite dev`). */
function withInjected(config: AppConfig | undefined) {
  globals['window'] = config === undefined ? {} : { __APP_CONFIG__: config };
}

afterEach(() => {
  delete globals['window'];
});

describe('the Developers page and the GraphQL explorer flags', () => {
  it('are on when the gateway injects nothing (vite dev) or leaves them out', () => {
    withInjected(undefined);
    expect([isApiDocsEnabled(), isExplorerEnabled()]).toEqual([true, true]);
    withInjected({ brandName: 'Velvet Test' });
    expect([isApiDocsEnabled(), isExplorerEnabled()]).toEqual([true, true]);
  });

  it('follow the gateway, each on its own', () => {
    withInjected({ apiDocs: false, explorer: true });
    expect([isApiDocsEnabled(), isExplorerEnabled()]).toEqual([false, true]);
    withInjected({ apiDocs: true, explorer: false });
    expect([isApiDocsEnabled(), isExplorerEnabled()]).toEqual([true, false]);
  });
});

describe('text settings', () => {
  it('fall back to the documented default when unset or blank', () => {
    withInjected({ brandName: '   ' });
    expect(getBrandName()).toBe('Velvet AI');
    withInjected({ brandName: 'Velvet Test' });
    expect(getBrandName()).toBe('Velvet Test');
  });
});

describe('the jurisdiction of the Terms', () => {
  it('is the configured one, trimmed', () => {
    withInjected({ legalJurisdiction: ' England and Wales ' });
    expect(getLegalJurisdiction()).toBe('England and Wales');
  });

  it('is absent when unset or blank, so the Terms use their own neutral wording', () => {
    withInjected(undefined);
    expect(getLegalJurisdiction()).toBeNull();
    withInjected({ legalJurisdiction: '  ' });
    expect(getLegalJurisdiction()).toBeNull();
  });
});
