import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium by default; CHROMIUM_PATH points elsewhere (e.g. a Playwright-installed browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function hasChromium(): boolean {
  const present = fs.existsSync(CHROMIUM_PATH);
  if (!present && process.env.REQUIRE_INTEGRATION === '1') throw new Error(`REQUIRE_INTEGRATION=1 but no Chromium at ${CHROMIUM_PATH}`);
  return present;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
