import { existsSync } from 'node:fs';
import { Browser, BrowserServer, chromium } from 'playwright-core';

/** Debian's chromium package; CI installs it. Override with CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the release project's global setup tells its suites the shared browser listens. */
const ENDPOINT_VARIABLE = 'TEST_CHROMIUM_WS_ENDPOINT';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Headless Chromium, launched once per jest run by the release project's global setup (release-global-setup.ts); its
 * suites connect to it. Fails (never skips) when the browser is not installed.
 */
export async function launchSharedChromium(): Promise<BrowserServer> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `The Swagger UI tests need Chromium at ${CHROMIUM_PATH} (Debian: apt-get install chromium; or set CHROMIUM_PATH to another Chromium binary)`,
    );
  }
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  process.env[ENDPOINT_VARIABLE] = server.wsEndpoint();
  return server;
}

/** A connection of this suite's own to the shared Chromium; its `close()` closes the suite's contexts, not the browser. */
export async function connectChromium(): Promise<Browser> {
  const endpoint = process.env[ENDPOINT_VARIABLE];
  if (!endpoint) throw new Error(`No shared Chromium (${ENDPOINT_VARIABLE} unset): the browser suites run in the release project (npm run test:release)`);
  return chromium.connect(endpoint);
}
