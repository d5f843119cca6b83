import { randomUUID } from 'node:crypto';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { readGatewayConfig } from '@app/gateway';
import { readPublicWebConfig } from '../src/http/public-web-config';
import { contentSecurityPolicy } from '../src/http/security-headers';

jest.setTimeout(60_000);

const PUBLIC_ENV = {
  BRAND_NAME: 'Velvet Test',
  MAIN_SITE_URL: 'https://main.example/',
  RELAUNCH_URL: 'https://new.example/welcome',
  SOCIAL_MICROBLOG_URL: 'https://microblog.example/velvet',
  SOCIAL_COMMUNITY_URL: 'https://community.example/invite/velvet',
  SUPPORT_EMAIL: 'help@velvet.example',
  LAUNCH_DATE: '2025-10-01T00:00:00Z',
  ANALYTICS_PROVIDER: 'plausible',
  ANALYTICS_ENDPOINT: 'https://stats.example:8443/api/event',
  ANALYTICS_SITE_ID: 'velvet.example',
  AGE_VERIFICATION_REQUIRED: 'true',
};

const memoryInfra = () => ({ dataDir: `memory://${randomUUID()}`, databaseUrl: null, natsUrl: null });

/** What the web app reads: `window.__APP_CONFIG__ = {...};` */
async function fetchAppConfig(baseUrl: string): Promise<{ response: Response; config: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/app-config.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/javascript/);
  const match = /^window\.__APP_CONFIG__ = (.*);\n$/s.exec(await response.text());
  expect(match).not.toBeNull();
  return { response, config: JSON.parse(match![1]!) as Record<string, unknown> };
}

function connectSrc(response: Response): string[] {
  const csp = response.headers.get('content-security-policy') ?? '';
  const directive = csp.split(';').map((part) => part.trim().split(/\s+/));
  return directive.find(([name]) => name === 'connect-src')?.slice(1) ?? [];
}

describe('with every public setting configured', () => {
  let platform: EmbeddedPlatform;

  beforeAll(async () => {
    platform = await startEmbedded({ infra: memoryInfra(), gateway: { port: 0 }, env: PUBLIC_ENV });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('serves every value in /app-config.js', async () => {
    const { config } = await fetchAppConfig(platform.url);
    expect(config).toEqual({
      brandName: 'Velvet Test',
      mainSiteUrl: 'https://main.example/',
      relaunchUrl: 'https://new.example/welcome',
      socialMicroblogUrl: 'https://microblog.example/velvet',
      socialCommunityUrl: 'https://community.example/invite/velvet',
      supportEmail: 'help@velvet.example',
      launchDate: '2025-10-01T00:00:00Z',
      analytics: { provider: 'plausible', endpoint: 'https://stats.example:8443/api/event', siteId: 'velvet.example' },
      ageVerificationRequired: true,
    });
  });

  it('lets pages connect to the analytics origin (and nothing else new) in the CSP, on every response', async () => {
    const { response } = await fetchAppConfig(platform.url);
    expect(connectSrc(response)).toEqual(["'self'", 'https://stats.example:8443']);
    for (const path of ['/', '/tos', '/api/user']) {
      expect(connectSrc(await fetch(`${platform.url}${path}`))).toContain('https://stats.example:8443');
    }
  });
});

describe('with no public setting configured', () => {
  let platform: EmbeddedPlatform;

  beforeAll(async () => {
    // No service is needed to serve /app-config.js, so no database is opened.
    platform = await startEmbedded({ infra: memoryInfra(), gateway: { port: 0 }, env: {}, services: [] });
  });
  afterAll(async () => {
    await platform?.stop();
  });

  it('leaves unset values out so the web app applies its documented defaults, and analytics is null', async () => {
    const { config } = await fetchAppConfig(platform.url);
    expect(config).toEqual({ brandName: 'Velvet AI', analytics: null, ageVerificationRequired: false });
  });

  it('keeps the CSP connect-src to the page itself', async () => {
    const { response } = await fetchAppConfig(platform.url);
    expect(connectSrc(response)).toEqual(["'self'"]);
  });
});

describe('readPublicWebConfig', () => {
  it('refuses an invalid LAUNCH_DATE with a message naming the variable and the value', () => {
    expect(() => readPublicWebConfig({ LAUNCH_DATE: 'next tuesday' })).toThrow('LAUNCH_DATE is not a date: next tuesday');
    expect(() => readGatewayConfig({ LAUNCH_DATE: 'next tuesday' })).toThrow('LAUNCH_DATE is not a date');
  });

  it('refuses an unknown ANALYTICS_PROVIDER with a message listing the accepted ones', () => {
    expect(() => readPublicWebConfig({ ...PUBLIC_ENV, ANALYTICS_PROVIDER: 'matomo' })).toThrow(
      'ANALYTICS_PROVIDER must be one of plausible, ga4, got "matomo"',
    );
  });

  it('trims values, treats blank ones as unset, and needs provider, endpoint and site id together for analytics', () => {
    expect(readPublicWebConfig({ SUPPORT_EMAIL: '  help@velvet.example ', MAIN_SITE_URL: '   ' })).toEqual({
      brandName: 'Velvet AI',
      supportEmail: 'help@velvet.example',
      analytics: null,
      ageVerificationRequired: false,
    });
    expect(readPublicWebConfig({ ANALYTICS_PROVIDER: 'ga4', ANALYTICS_SITE_ID: 'G-TEST123' }).analytics).toBeNull();
    expect(
      readPublicWebConfig({
        ANALYTICS_PROVIDER: 'ga4',
        ANALYTICS_ENDPOINT: 'https://www.google-analytics.com/g/collect',
        ANALYTICS_SITE_ID: 'G-TEST123',
      }).analytics,
    ).toEqual({ provider: 'ga4', endpoint: 'https://www.google-analytics.com/g/collect', siteId: 'G-TEST123' });
  });
});

describe('contentSecurityPolicy', () => {
  it('adds only valid http(s) origins to connect-src, once each', () => {
    const policy = contentSecurityPolicy({
      connectSrc: [
        'https://www.google-analytics.com/g/collect?x=1',
        'https://www.google-analytics.com/other',
        '/api/event',
        "javascript:alert('x')",
        "https://stats.example/; script-src 'unsafe-inline'",
        undefined,
        null,
      ],
    });
    expect(policy).toContain("connect-src 'self' https://www.google-analytics.com https://stats.example;");
    expect(policy.match(/script-src/g)).toHaveLength(1);
    expect(policy).toContain("object-src 'none'");
  });
});
