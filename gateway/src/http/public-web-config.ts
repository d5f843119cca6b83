import { publicWebEnvironment } from '../gateway.environment';

/** Public, non-secret settings the web app reads at start-up (mirrors web/src/lib/app-config.ts). */
export interface PublicWebConfig {
  brandName: string;
  mainSiteUrl?: string;
  relaunchUrl?: string;
  socialMicroblogUrl?: string;
  socialCommunityUrl?: string;
  supportEmail?: string;
  /** Whose laws govern the Terms of Service (the web app words a neutral default when unset). */
  legalJurisdiction?: string;
  launchDate?: string;
  analytics?: { provider: 'plausible' | 'ga4'; endpoint: string; siteId: string } | null;
  /** Members whose age is only self-declared see safe content only (the web app says how to verify). */
  ageVerificationRequired: boolean;
  /** The Developers page (`/developers`) and the links to it. */
  apiDocs: boolean;
  /** The GraphQL explorer at `/developers/explorer` (the gateway answers 404 there when off). */
  explorer: boolean;
}

/** Unset variables are left out so the web app applies its documented defaults. */
export function readPublicWebConfig(env: NodeJS.ProcessEnv): PublicWebConfig {
  const vars = publicWebEnvironment.parse(env);
  const launchDate = vars.LAUNCH_DATE ?? undefined;
  if (launchDate && Number.isNaN(Date.parse(launchDate))) throw new Error(`LAUNCH_DATE is not a date: ${launchDate}`);
  const { ANALYTICS_PROVIDER: provider, ANALYTICS_ENDPOINT: endpoint, ANALYTICS_SITE_ID: siteId } = vars;
  return {
    brandName: vars.BRAND_NAME,
    mainSiteUrl: vars.MAIN_SITE_URL ?? undefined,
    relaunchUrl: vars.RELAUNCH_URL ?? undefined,
    socialMicroblogUrl: vars.SOCIAL_MICROBLOG_URL ?? undefined,
    socialCommunityUrl: vars.SOCIAL_COMMUNITY_URL ?? undefined,
    supportEmail: vars.SUPPORT_EMAIL ?? undefined,
    legalJurisdiction: vars.LEGAL_JURISDICTION ?? undefined,
    launchDate,
    analytics: provider && endpoint && siteId ? { provider, endpoint, siteId } : null,
    ageVerificationRequired: vars.AGE_VERIFICATION_REQUIRED,
    apiDocs: vars.API_DOCS_ENABLED,
    explorer: vars.GRAPHQL_EXPLORER_ENABLED,
  };
}
