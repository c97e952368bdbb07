import { BrowserServer } from 'playwright-core';
import { launchSharedChromium } from './chromium';
import globalSetup from './global-setup';

/** What the global teardown closes: jest gives both the same global object. */
export interface ReleaseGlobals {
  sharedChromium?: BrowserServer;
}

/** The release project's run: the e2e database and Redis check, and one Chromium for every browser suite. */
export default async function releaseGlobalSetup(): Promise<void> {
  await globalSetup();
  (globalThis as ReleaseGlobals).sharedChromium = await launchSharedChromium();
}
