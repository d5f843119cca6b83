import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import LandingPage from '../features/landing/page';
import type { AppConfig } from '../lib/app-config';

/**
 * The landing page as HTML, for the build to write into index.html (with the landing's CSS, vite.config.ts).
 * `config` stands in for window.__APP_CONFIG__ (the gateway fills in the real values when it serves the page).
 */
export function renderLanding(config: AppConfig): string {
  const previousWindow = Reflect.get(globalThis, 'window');
  // app-config.ts reads window.__APP_CONFIG__; nothing else here may take this for a browser (no document).
  Reflect.set(globalThis, 'window', { __APP_CONFIG__: config });
  try {
    return renderToString(
      <StrictMode>
        <LandingPage />
      </StrictMode>,
    );
  } finally {
    Reflect.set(globalThis, 'window', previousWindow);
  }
}
