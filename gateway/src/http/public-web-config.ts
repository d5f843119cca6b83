/** Public, non-secret settings the web app reads at start-up (mirrors web/src/lib/app-config.ts). */
export interface PublicWebConfig {
  brandName: string;
  mainSiteUrl?: string;
  relaunchUrl?: string;
  socialMicroblogUrl?: string;
  socialCommunityUrl?: string;
  supportEmail?: string;
  launchDate?: string;
  analytics?: { provider: 'plausible' | 'ga4'; endpoint: string; siteId: string } | null;
}

/** Unset variables are left out so the web app applies its documented defaults. */
export function readPublicWebConfig(env: NodeJS.ProcessEnv): PublicWebConfig {
  const optional = (name: string): string | undefined => env[name]?.trim() || undefined;
  const launchDate = optional('LAUNCH_DATE');
  if (launchDate && Number.isNaN(Date.parse(launchDate))) throw new Error(`LAUNCH_DATE is not a date: ${launchDate}`);
  const provider = optional('ANALYTICS_PROVIDER') as 'plausible' | 'ga4' | undefined;
  if (provider && provider !== 'plausible' && provider !== 'ga4') throw new Error('ANALYTICS_PROVIDER must be plausible or ga4');
  const endpoint = optional('ANALYTICS_ENDPOINT');
  const siteId = optional('ANALYTICS_SITE_ID');
  return {
    brandName: env.BRAND_NAME || 'Velvet AI',
    mainSiteUrl: optional('MAIN_SITE_URL'),
    relaunchUrl: optional('RELAUNCH_URL'),
    socialMicroblogUrl: optional('SOCIAL_MICROBLOG_URL'),
    socialCommunityUrl: optional('SOCIAL_COMMUNITY_URL'),
    supportEmail: optional('SUPPORT_EMAIL'),
    launchDate,
    analytics: provider && endpoint && siteId ? { provider, endpoint, siteId } : null,
  };
}
