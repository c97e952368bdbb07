import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { transpiledWorkerScript } from '../../apps/transactional-service/src/workers/worker-script';

/**
 * Transpiles every worker script of the apps (`*.worker.ts`) into the cache the worker pools load them from, once
 * before the suites start. In a fresh clone the first transpile takes seconds (longer on a busy machine) and blocks
 * the event loop of the test process whose request first needs the worker; done here, no test pays it.
 */
export function warmWorkerScripts(root: string): void {
  const apps = join(root, 'apps');
  for (const file of readdirSync(apps, { recursive: true, encoding: 'utf8' })) if (file.endsWith('.worker.ts')) transpiledWorkerScript(join(apps, file));
}
