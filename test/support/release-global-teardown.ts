import globalTeardown from './global-teardown';
import { ReleaseGlobals } from './release-global-setup';

export default async function releaseGlobalTeardown(): Promise<void> {
  await (globalThis as ReleaseGlobals).sharedChromium?.close();
  await globalTeardown();
}
