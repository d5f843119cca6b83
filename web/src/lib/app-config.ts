/**
 * Runtime configuration the gateway injects into index.html as `window.__APP_CONFIG__`
 * (gateway/src/http/web-app.ts builds it from environment variables; README lists them).
 */
export interface AppConfig {
  brandName?: string;
  /** The provider's main site, opened in a new tab by the landing hero button. */
  mainSiteUrl?: string;
  /** The new platform the relaunch notice points to. */
  relaunchUrl?: string;
  /** Microblogging account (footer, plans screen). */
  socialMicroblogUrl?: string;
  /** Community chat server invite (footer, landing, plans screen). */
  socialCommunityUrl?: string;
  supportEmail?: string;
  /** Whose laws govern the Terms of Service (LEGAL_JURISDICTION); the Terms word a neutral default when absent. */
  legalJurisdiction?: string;
  /** ISO-8601 instant the landing countdown counts down to. */
  launchDate?: string;
  /** Web analytics target; analytics is skipped when absent. */
  analytics?: {
    provider: 'plausible' | 'ga4';
    /** Event endpoint, e.g. https://plausible.io/api/event or a GA4-compatible collect URL. */
    endpoint: string;
    /** Plausible domain or GA4 measurement id. */
    siteId: string;
  } | null;
  /**
   * Members whose age is only self-declared see SAFE content only until an age-assurance provider
   * has verified it (the gallery says so and how to get verified).
   */
  ageVerificationRequired?: boolean;
  /** The Developers page (API documentation) and the links to it; on unless the gateway says otherwise. */
  apiDocs?: boolean;
  /** The GraphQL explorer at /developers/explorer (a page of its own, served by the gateway); on unless the gateway says otherwise. */
  explorer?: boolean;
}

declare global {
  interface Window {
    __APP_CONFIG__?: AppConfig;
  }
}

export const DEFAULT_BRAND_NAME = 'Velvet AI';

/** Documented defaults (README, "Configuration"); used when the gateway injects nothing. */
export const APP_CONFIG_DEFAULTS = {
  brandName: DEFAULT_BRAND_NAME,
  mainSiteUrl: '/',
  relaunchUrl: '/',
  socialMicroblogUrl: 'https://x.com/velvetai',
  socialCommunityUrl: 'https://discord.gg/velvetai',
  supportEmail: 'support@velvet-ai.app',
  launchDate: '2025-10-01T00:00:00Z',
} as const;

function injected(): AppConfig {
  return (typeof window === 'undefined' ? undefined : window.__APP_CONFIG__) ?? {};
}

function pick(key: keyof typeof APP_CONFIG_DEFAULTS): string {
  const value = injected()[key];
  return (typeof value === 'string' && value.trim()) || APP_CONFIG_DEFAULTS[key];
}

export const getBrandName = (): string => pick('brandName');
export const getMainSiteUrl = (): string => pick('mainSiteUrl');
export const getRelaunchUrl = (): string => pick('relaunchUrl');
export const getSocialMicroblogUrl = (): string => pick('socialMicroblogUrl');
export const getSocialCommunityUrl = (): string => pick('socialCommunityUrl');
export const getSupportEmail = (): string => pick('supportEmail');

/** The configured jurisdiction of the Terms, or null when the operator has set none (the Terms then use a translated default). */
export function getLegalJurisdiction(): string | null {
  const value = injected().legalJurisdiction;
  return (typeof value === 'string' && value.trim()) || null;
}

/** The countdown target; an unparsable configured value falls back to the default launch date. */
export function getLaunchDate(): Date {
  const parsed = new Date(pick('launchDate'));
  return Number.isNaN(parsed.getTime()) ? new Date(APP_CONFIG_DEFAULTS.launchDate) : parsed;
}

export function getAnalyticsConfig(): AppConfig['analytics'] {
  return injected().analytics ?? null;
}

/** Whether members need a verified age to see content above SAFE (off unless the gateway says so). */
export function isAgeVerificationRequired(): boolean {
  return injected().ageVerificationRequired === true;
}

/** Whether the Developers page exists (API_DOCS_ENABLED; on unless the gateway turns it off). */
export function isApiDocsEnabled(): boolean {
  return injected().apiDocs !== false;
}

/** Whether the GraphQL explorer is served (GRAPHQL_EXPLORER_ENABLED; on unless the gateway turns it off). */
export function isExplorerEnabled(): boolean {
  return injected().explorer !== false;
}
