/** Runtime configuration the gateway injects into index.html as `window.__APP_CONFIG__`. */
export interface AppConfig {
  brandName?: string;
}

declare global {
  interface Window {
    __APP_CONFIG__?: AppConfig;
  }
}

export const DEFAULT_BRAND_NAME = 'Velvet AI';

export function getBrandName(): string {
  const injected = typeof window === 'undefined' ? undefined : window.__APP_CONFIG__?.brandName;
  return injected?.trim() || DEFAULT_BRAND_NAME;
}
