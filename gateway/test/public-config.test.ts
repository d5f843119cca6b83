import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type EmbeddedPlatform, startEmbedded } from '@app/embedded';
import { readGatewayConfig } from '@app/gateway';
import { ACCESS_TOKEN_LIMITS, ACCESS_TOKEN_PREFIX, TOKEN_SCOPES as CONTRACT_SCOPES } from '@app/schema';
import { type GraphQLEnumType, buildSchema } from 'graphql';
import {
  EXAMPLE_OPERATIONS,
  curlMutationExample,
  curlQueryExample,
  webSocketClientExample,
} from '../../web/src/features/developers/api-examples';
import {
  ACCESS_TOKENS,
  ERROR_CODES,
  EXECUTION_TIMEOUT_SECONDS,
  EXPLORER_PATH as DOCUMENTED_EXPLORER_PATH,
  QUERY_LIMITS as DOCUMENTED_QUERY_LIMITS,
  RATE_LIMITS,
  SAMPLE_CLIENT_PATH,
  SCHEMA_FILE_PATH,
  TOKEN_SCOPES,
  WEBSOCKET_LIMITS,
  graphqlWebSocketUrl,
} from '../../web/src/features/developers/api-facts';
import { FIELD_SCOPES } from '../src/access/token-scopes';
import { gatewayEnvironment } from '../src/gateway.environment';
import { QUERY_LIMITS, parseAndValidate } from '../src/graphql/query-limits';
import { TOO_MANY_CLOSE_CODE } from '../src/graphql/websocket';
import { readPublicWebConfig } from '../src/http/public-web-config';
import { contentSecurityPolicy } from '../src/http/security-headers';
import { EXPLORER_PATH } from '../src/http/web-app';
import { SESSION_ENDED_CLOSE_CODE } from '../src/live-sessions';

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
      apiDocs: true,
      explorer: true,
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
    expect(config).toEqual({ brandName: 'Velvet AI', analytics: null, ageVerificationRequired: false, apiDocs: true, explorer: true });
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
      apiDocs: true,
      explorer: true,
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

describe('API_DOCS_ENABLED and GRAPHQL_EXPLORER_ENABLED', () => {
  it('are on unless turned off, and refuse what is not a flag', () => {
    expect(readPublicWebConfig({})).toMatchObject({ apiDocs: true, explorer: true });
    expect(readPublicWebConfig({ API_DOCS_ENABLED: 'false', GRAPHQL_EXPLORER_ENABLED: 'off' })).toMatchObject({
      apiDocs: false,
      explorer: false,
    });
    expect(() => readPublicWebConfig({ GRAPHQL_EXPLORER_ENABLED: 'sometimes' })).toThrow('GRAPHQL_EXPLORER_ENABLED');
  });
});

/** A built web app in miniature: the two pages the gateway serves, told apart by their titles. */
function writeWebDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><head><title>App</title></head><body></body></html>');
  fs.writeFileSync(
    path.join(dir, 'explorer.html'),
    '<!doctype html><html><head><title>GraphQL explorer</title></head><body></body></html>',
  );
  return dir;
}

describe.each([
  { state: 'on', env: {} },
  { state: 'off', env: { GRAPHQL_EXPLORER_ENABLED: 'false', API_DOCS_ENABLED: 'false' } },
])('the explorer page with the documentation and the explorer $state', ({ state, env }) => {
  let platform: EmbeddedPlatform;
  const webDist = writeWebDist();

  beforeAll(async () => {
    platform = await startEmbedded({ infra: memoryInfra(), gateway: { port: 0, webDist }, env, services: [] });
  });
  afterAll(async () => {
    await platform?.stop();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it(state === 'on' ? 'is served at its address, under the CSP' : 'answers 404 with the app, which shows its not-found page', async () => {
    const response = await fetch(`${platform.url}${EXPLORER_PATH}`);
    const html = await response.text();
    expect(response.status).toBe(state === 'on' ? 200 : 404);
    expect(html).toContain(state === 'on' ? '<title>GraphQL explorer</title>' : '<title>App</title>');
    // The page reads the public settings first (whether to link back to the documentation).
    expect(html).toContain('<script src="/app-config.js"></script>');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('is not served at its file name, and the app still answers its own paths', async () => {
    expect((await fetch(`${platform.url}/explorer.html`)).status).toBe(404);
    for (const pagePath of ['/developers', '/developers/', '/chat/123']) {
      const response = await fetch(`${platform.url}${pagePath}`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>App</title>');
    }
  });

  it('tells the web app whether the documentation and the explorer are on', async () => {
    const { config } = await fetchAppConfig(platform.url);
    expect(config).toMatchObject({ apiDocs: state === 'on', explorer: state === 'on' });
  });
});

describe('what the Developers page states', () => {
  const root = path.resolve(__dirname, '..', '..');
  const schema = buildSchema(fs.readFileSync(path.join(root, SCHEMA_FILE_PATH), 'utf8'));
  const enumValues = (name: string) => (schema.getType(name) as GraphQLEnumType).getValues().map((value) => value.name);
  const defaults = gatewayEnvironment.parse({});

  it('lists every error code of the schema, and no other', () => {
    expect([...ERROR_CODES].sort()).toEqual(enumValues('ErrorCode').sort());
  });

  it('names the scopes and token rules the contracts enforce; READ is enough for every subscription', () => {
    expect([...TOKEN_SCOPES].sort()).toEqual(enumValues('TokenScope').sort());
    expect(TOKEN_SCOPES.map((scope) => scope.toLowerCase()).sort()).toEqual([...CONTRACT_SCOPES].sort());
    expect(ACCESS_TOKENS).toEqual({
      prefix: ACCESS_TOKEN_PREFIX,
      perMember: ACCESS_TOKEN_LIMITS.perMember,
      minDays: 1,
      maxDays: ACCESS_TOKEN_LIMITS.maxDays,
    });
    expect(new Set(Object.values(FIELD_SCOPES.subscription))).toEqual(new Set(['read']));
  });

  it("gives the gateway's default rate, query, time and WebSocket limits", () => {
    expect(RATE_LIMITS).toEqual({
      perAddress: defaults.GRAPHQL_RATE_LIMIT_PER_ADDRESS,
      perCredential: defaults.GRAPHQL_RATE_LIMIT_PER_CREDENTIAL,
      windowSeconds: defaults.GRAPHQL_RATE_LIMIT_WINDOW_SECONDS,
    });
    expect(DOCUMENTED_QUERY_LIMITS).toEqual(QUERY_LIMITS);
    expect(EXECUTION_TIMEOUT_SECONDS * 1000).toBe(defaults.GRAPHQL_EXECUTION_TIMEOUT_MS);
    expect(WEBSOCKET_LIMITS).toEqual({
      operationsPerSocket: defaults.WS_MAX_SUBSCRIPTIONS_PER_SOCKET,
      socketsPerMember: defaults.WS_MAX_SOCKETS_PER_MEMBER,
      tooManyCloseCode: TOO_MANY_CLOSE_CODE,
      sessionEndedCloseCode: SESSION_ENDED_CLOSE_CODE,
    });
  });

  it('links to the explorer where the gateway serves it, and to the sample client in the repository', () => {
    expect(DOCUMENTED_EXPLORER_PATH).toBe(EXPLORER_PATH);
    expect(fs.existsSync(path.join(root, SAMPLE_CLIENT_PATH, 'client.ts'))).toBe(true);
  });

  it.each(Object.entries(EXAMPLE_OPERATIONS))('has a %s example the gateway accepts (schema and query limits)', (_name, operation) => {
    expect(parseAndValidate(schema, operation).errors).toBeUndefined();
  });

  it('puts the curl examples’ bodies in single quotes as JSON, and the WebSocket on wss:// for an https site', () => {
    for (const example of [curlQueryExample('https://velvet.example'), curlMutationExample('https://velvet.example')]) {
      expect(example).toContain('curl -s https://velvet.example/graphql');
      const body = JSON.parse(/-d '([^']*)'$/.exec(example)![1]!) as { query: string };
      expect(Object.values(EXAMPLE_OPERATIONS)).toContain(body.query);
    }
    expect(webSocketClientExample('https://velvet.example')).toContain("url: 'wss://velvet.example/graphql'");
    expect(graphqlWebSocketUrl({ protocol: 'https:', host: 'velvet.example' })).toBe('wss://velvet.example/graphql');
    expect(graphqlWebSocketUrl({ protocol: 'http:', host: 'localhost:3000' })).toBe('ws://localhost:3000/graphql');
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
