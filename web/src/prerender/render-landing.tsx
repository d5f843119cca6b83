import { ChakraProvider } from '@chakra-ui/react';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import LandingPage from '../features/landing/page';
import type { AppConfig } from '../lib/app-config';
import { system } from '../theme/system';

/**
 * The landing page as HTML (with its styles inline), for the build to write into index.html.
 * `config` stands in for window.__APP_CONFIG__ (the gateway fills in the real values when it serves the page).
 */
export function renderLanding(config: AppConfig): string {
  const previousWindow = Reflect.get(globalThis, 'window');
  // app-config.ts reads window.__APP_CONFIG__; nothing else here may take this for a browser (no document).
  Reflect.set(globalThis, 'window', { __APP_CONFIG__: config });
  try {
    return renderToString(
      <StrictMode>
        <ChakraProvider value={system}>
          <MemoryRouter>
            <LandingPage />
          </MemoryRouter>
        </ChakraProvider>
      </StrictMode>,
    );
  } finally {
    Reflect.set(globalThis, 'window', previousWindow);
  }
}
