import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUNDLES, staleness, STAMP_FILE } from '../../tools/build/build-stamp';
import { ROOT, runNode } from '../support/run-command';

/** npm start's prestart, as package.json runs it, in `cwd`. */
const prestart = (cwd: string) =>
  runNode(['-r', require.resolve('ts-node/register/transpile-only'), join(ROOT, 'tools/build/build.ts'), '--if-stale'], {}, 60_000, cwd);

function write(root: string, file: string, content: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), content);
}

/** `npm start` builds only when a source changed since the last build (tools/build/build-stamp.ts). */
describe("npm start's build step", () => {
  it('does not build again after npm run build (npm test builds before jest): the bundles are left as they are', async () => {
    expect(staleness(ROOT)).toBeUndefined();
    const before = BUNDLES.map((bundle) => statSync(join(ROOT, bundle)).mtimeMs);

    const result = await prestart(ROOT);

    expect(result).toEqual({
      code: 0,
      stdout: `The build is up to date (no source changed since ${STAMP_FILE} was written): not building.\n`,
      stderr: '',
    });
    expect(BUNDLES.map((bundle) => statSync(join(ROOT, bundle)).mtimeMs)).toEqual(before);
  });

  it('in a project of its own (its build:bundles script counting its runs): builds a fresh clone, not again, and again after a source is edited', async () => {
    const project = mkdtempSync(join(tmpdir(), 'platform-build-step-'));
    const makeBundles = `require('fs').appendFileSync('builds.log', 'built\\n'); for (const b of ${JSON.stringify(BUNDLES)}) { require('fs').mkdirSync(require('path').dirname(b), { recursive: true }); require('fs').writeFileSync(b, String(Date.now())); }`;
    write(
      project,
      'package.json',
      JSON.stringify({ name: 'build-step', private: true, scripts: { 'build:bundles': `node -e "${makeBundles.replace(/"/g, '\\"')}"` } }),
    );
    write(project, 'libs/domain/src/index.ts', "export * from './bots';\n");
    const builds = () => readFileSync(join(project, 'builds.log'), 'utf8').split('\n').filter(Boolean).length;

    const fresh = await prestart(project);
    expect(fresh.stdout).toContain('Building: dist/apps/transactional-service/main.js is missing.\n');
    expect({ code: fresh.code, builds: builds() }).toEqual({ code: 0, builds: 1 });

    const unchanged = await prestart(project);
    expect(unchanged.stdout).toBe(`The build is up to date (no source changed since ${STAMP_FILE} was written): not building.\n`);
    expect(builds()).toBe(1);

    write(project, 'libs/domain/src/index.ts', "export * from './bots';\nexport * from './flows';\n");
    const edited = await prestart(project);
    expect(edited.stdout).toContain('Building: sources changed since the last build.\n');
    expect({ code: edited.code, builds: builds() }).toEqual({ code: 0, builds: 2 });
  }, 120_000);
});
