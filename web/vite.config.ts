import react from '@vitejs/plugin-react';
import { env } from 'node:process';
import { defineConfig } from 'vite';

// The gateway (npm start) listens on 3000; the dev server forwards API and
// GraphQL (HTTP and graphql-ws) to it so cookies stay same-origin.
const GATEWAY_URL = env['GATEWAY_URL'] ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      '/graphql': { target: GATEWAY_URL, ws: true },
      '/api': { target: GATEWAY_URL },
    },
  },
  preview: {
    proxy: {
      '/graphql': { target: GATEWAY_URL, ws: true },
      '/api': { target: GATEWAY_URL },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The UI kit alone is ~500 kB minified; it is cached separately from app code.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        // Long-lived vendor chunks, so an app release does not invalidate them.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            },
            {
              name: 'apollo',
              test: /node_modules[\\/](@apollo|graphql|graphql-ws|rxjs|@wry|optimism|tslib|ts-invariant)[\\/]/,
            },
            {
              name: 'ui',
              test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@pandacss)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
