import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The gateway (npm start) listens on 3000; the dev server forwards API and
// GraphQL (HTTP and graphql-ws) to it so cookies stay same-origin.
const GATEWAY_URL = "http://127.0.0.1:3000";

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      "/graphql": { target: GATEWAY_URL, ws: true },
      "/api": { target: GATEWAY_URL },
    },
  },
  preview: {
    proxy: {
      "/graphql": { target: GATEWAY_URL, ws: true },
      "/api": { target: GATEWAY_URL },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
  },
});
