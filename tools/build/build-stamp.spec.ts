import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BUNDLES, buildIfStale, STAMP_FILE } from './build-stamp';

function write(root: string, file: string, content: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), content);
}

/** A project with a source in each input folder and the files that say how it is compiled. */
function aProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'platform-build-stamp-'));
  write(root, 'apps/bot-admin/src/main.ts', 'runPlatformApp(BOT_ADMIN_APP);\n');
  write(root, 'libs/domain/src/index.ts', "export * from './bots';\n");
  write(root, 'tools/cli/src/main.ts', 'main();\n');
  write(root, 'tsconfig.json', '{}\n');
  write(root, 'package-lock.json', '{}\n');
  return root;
}

/** A build that writes every bundle (and a worker beside one), counting its runs; `code` is its exit code. */
function aBuild(root: string, code = 0) {
  const build = jest.fn(() => {
    if (code === 0) for (const bundle of [...BUNDLES, 'dist/apps/transactional-service/answer.worker.js']) write(root, bundle, `built ${Date.now()}\n`);
    return code;
  });
  return build;
}

describe(buildIfStale.name, () => {
  let root: string;
  const log = jest.fn();
  beforeEach(() => {
    root = aProject();
    log.mockClear();
  });

  it('builds a fresh clone (no dist/) and stamps what it built from', () => {
    const build = aBuild(root);

    expect(buildIfStale(root, build, log)).toBe(0);

    expect(build).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith('Building: dist/apps/transactional-service/main.js is missing.');
    expect(existsSync(join(root, STAMP_FILE))).toBe(true);
  });

  it('does not build again when no source changed, and says so', () => {
    const build = aBuild(root);
    buildIfStale(root, build, log);

    expect(buildIfStale(root, build, log)).toBe(0);

    expect(build).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenLastCalledWith(`The build is up to date (no source changed since ${STAMP_FILE} was written): not building.`);
  });

  it.each([
    ['an edited source', (r: string) => write(r, 'libs/domain/src/index.ts', "export * from './bots';\nexport * from './flows';\n")],
    ['a new source', (r: string) => write(r, 'apps/bot-admin/src/bots/bots.module.ts', 'export class BotsModule {}\n')],
    ['a removed source', (r: string) => rmSync(join(r, 'tools/cli/src/main.ts'))],
    ['a changed lock file', (r: string) => write(r, 'package-lock.json', '{"lockfileVersion":3}\n')],
    ['a new tsconfig', (r: string) => write(r, 'tsconfig.build.json', '{}\n')],
    ['an edited AsyncAPI document (copied beside the bundle)', (r: string) => write(r, 'docs/asyncapi/connector-events.yaml', 'asyncapi: 3.0.0\n')],
  ])('builds again after %s', (_, change) => {
    const build = aBuild(root);
    buildIfStale(root, build, log);
    change(root);

    buildIfStale(root, build, log);

    expect(build).toHaveBeenCalledTimes(2);
    expect(log).toHaveBeenLastCalledWith('Building: sources changed since the last build.');
  });

  it('does not build again for a source saved unchanged, nor for a unit spec or a README', () => {
    const build = aBuild(root);
    buildIfStale(root, build, log);
    utimesSync(join(root, 'libs/domain/src/index.ts'), new Date(), new Date(Date.now() + 60_000));
    write(root, 'libs/domain/src/bots.spec.ts', "it('reads', () => {});\n");
    write(root, 'libs/domain/README.md', '# domain\n');

    buildIfStale(root, build, log);

    expect(build).toHaveBeenCalledTimes(1);
  });

  it('builds again when dist/ changed since the stamp (an app built on its own, or a bundle removed)', () => {
    const build = aBuild(root);
    buildIfStale(root, build, log);
    write(root, 'dist/apps/environment/main.js', 'built by hand from other sources\n');

    buildIfStale(root, build, log);
    expect(log).toHaveBeenLastCalledWith('Building: dist/apps/environment/main.js changed since the last build.');
    rmSync(join(root, 'dist/apps/transactional-service/answer.worker.js'));
    buildIfStale(root, build, log);

    expect(build).toHaveBeenCalledTimes(3);
    expect(log).toHaveBeenLastCalledWith('Building: dist/apps/transactional-service/answer.worker.js changed since the last build.');
  });

  it('leaves no stamp after a failed build, answers its exit code, and builds again next time', () => {
    aBuild(root)();
    const failing = aBuild(root, 2);

    expect(buildIfStale(root, failing, log)).toBe(2);
    expect(existsSync(join(root, STAMP_FILE))).toBe(false);
    expect(buildIfStale(root, aBuild(root), log)).toBe(0);
    expect(log).toHaveBeenLastCalledWith(`Building: no ${STAMP_FILE} says what dist/ was built from.`);
  });
});
