import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { APP_ENV_DEFAULTS, APP_NODE_FLAGS, PLATFORM_APPS } from '@app/platform';
import { dockerIgnored, findStage, parseCopy, parseDockerfile, readDockerfile, readDockerignore, ROOT, stageChain } from './deploy-support';

/** Runs that install every dependency: `npm ci` / `npm install` without --omit=dev (or the older equivalents). */
const FULL_INSTALL = /\bnpm\s+(ci|install|i)\b(?![^&;|]*(--omit[= ]dev|--production|--only[= ]prod))/;
const PRODUCTION_INSTALL = /\bnpm\s+ci\b[^&;|]*(--omit[= ]dev|--production|--only[= ]prod)/;
const TOOLCHAIN = /\b(python3?|g\+\+|make|build-essential|gcc)\b/;

describe('docker/Dockerfile', () => {
  const dockerfile = readDockerfile();
  const final = dockerfile.stages[dockerfile.stages.length - 1];
  const of = (keyword: string) => final.instructions.filter((i) => i.keyword === keyword);

  it('is multi-stage, the final stage on node:22-bookworm-slim (not on a build stage)', () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    expect(final.resolvedFrom).toMatch(/^node:22[-.]/);
    expect(final.resolvedFrom).toBe('node:22-bookworm-slim');
    expect(stageChain(dockerfile, final)).toHaveLength(1);
  });

  it('runs as a non-root user', () => {
    const users = of('USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users[users.length - 1].args.split(':')[0];
    expect(['root', '0', '']).not.toContain(user);
  });

  it('starts the app in exec form, without a shell: node, its heap capped, no pretenuring, dist/app/main.js', () => {
    const cmds = of('CMD');
    expect(cmds.length).toBeGreaterThan(0);
    const cmd = JSON.parse(cmds[cmds.length - 1].args) as string[];
    expect(cmd).toEqual(['node', expect.stringMatching(/^--max-old-space-size=\d+$/), '--no-allocation-site-pretenuring', 'dist/app/main.js']);
    // The same flags npm start's launcher gives each app (tools/cli/src/launched-app.ts).
    expect(cmd.slice(1, -1)).toEqual(APP_NODE_FLAGS);
    for (const entrypoint of of('ENTRYPOINT')) {
      const parsed = JSON.parse(entrypoint.args) as string[];
      expect(parsed[0]).not.toMatch(/(^|\/)(ba)?sh$/);
    }
    expect(of('SHELL')).toEqual([]);
  });

  it('takes node_modules from a production-only install (npm ci --omit=dev), with the toolchain only in build stages', () => {
    const copies = of('COPY').map((c) => parseCopy(c.args));
    const nodeModules = copies.filter((c) => c.destination.replace(/\/$/, '').endsWith('node_modules'));
    expect(nodeModules).toHaveLength(1);
    expect(nodeModules[0].from).toBeDefined();
    const chain = stageChain(dockerfile, findStage(dockerfile, nodeModules[0].from as string));
    const runs = chain.flatMap((s) => s.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args));
    expect(runs.some((r) => PRODUCTION_INSTALL.test(r))).toBe(true);
    expect(runs.filter((r) => FULL_INSTALL.test(r))).toEqual([]);
    expect(runs.filter((r) => /npm\s+prune/.test(r))).toEqual([]);
    // Nothing of a compiler in the runtime stage.
    expect(of('RUN').filter((r) => /apt-get|apk/.test(r.args) && TOOLCHAIN.test(r.args))).toEqual([]);
  });

  it("copies the chosen app's bundle folder to dist/app/ (main.js, and any worker script beside it) and the CLI to dist/tools/cli/main.js, from a stage that builds them", () => {
    expect(of('ARG').map((a) => a.args.split('=')[0])).toContain('APP');
    const copies = of('COPY').map((c) => parseCopy(c.args));
    const app = copies.find((c) => c.destination === 'dist/app/');
    const cli = copies.find((c) => c.destination === 'dist/tools/cli/main.js');
    expect(app?.sources).toEqual([expect.stringMatching(/\/dist\/apps\/\$\{?APP\}?\/$/)]);
    expect(cli?.sources).toEqual([expect.stringMatching(/\/dist\/tools\/cli\/main\.js$/)]);
    const build = stageChain(dockerfile, findStage(dockerfile, app?.from as string));
    expect(build.some((s) => s.instructions.some((i) => i.keyword === 'RUN' && /npm run build/.test(i.args)))).toBe(true);
    expect(of('ENV').map((e) => e.args)).toContainEqual(expect.stringMatching(/NODE_ENV=production/));
    // What npm start's launcher sets where the environment does not: the image sets the same.
    for (const [name, value] of Object.entries(APP_ENV_DEFAULTS)) {
      expect(of('ENV').map((e) => e.args)).toContainEqual(expect.stringMatching(new RegExp(`(^|\\s)${name}=${value}(\\s|$)`)));
    }
    // The runtime stage checks the APP build arg against the three apps.
    for (const name of Object.values(PLATFORM_APPS).map((a) => a.name)) {
      expect(final.instructions.find((i) => i.keyword === 'RUN' && i.args.includes(name))).toBeDefined();
    }
  });

  it('parses continuation lines and comments (the parser is not vacuous)', () => {
    const parsed = parseDockerfile('ARG B=node:22\nFROM ${B} AS x\nRUN a \\\n  # note\n  && b\nFROM x\nCMD ["node"]\n');
    expect(parsed.stages.map((s) => s.resolvedFrom)).toEqual(['node:22', 'x']);
    expect(parsed.stages[0].instructions[0].args).toBe('a && b');
    expect(stageChain(parsed, parsed.stages[1])).toHaveLength(2);
  });

  describe('.dockerignore', () => {
    const patterns = readDockerignore();

    it('keeps dependencies, build output, local data, secrets and git history out of the build context', () => {
      for (const path of [
        'node_modules',
        'apps/x/node_modules',
        'dist',
        'dist/apps/bot-admin/main.js',
        'data/platform.sqlite',
        'x.sqlite',
        '.env',
        '.git/HEAD',
        'test-output',
        'coverage',
      ]) {
        expect({ path, ignored: dockerIgnored(path, patterns) }).toEqual({ path, ignored: true });
      }
    });

    it('keeps every file the Dockerfile copies from the context', () => {
      const sources = dockerfile.stages
        .flatMap((s) => s.instructions)
        .filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')
        .map((i) => parseCopy(i.args))
        .filter((c) => !c.from)
        .flatMap((c) => c.sources);
      expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'apps', 'libs', 'tools', 'docs/asyncapi']));
      for (const source of sources) {
        expect(existsSync(join(ROOT, source))).toBe(true);
        expect({ source, ignored: dockerIgnored(source, patterns) }).toEqual({ source, ignored: false });
      }
      for (const path of [
        'apps/bot-admin/src/main.ts',
        'libs/domain/src/index.ts',
        'tools/cli/src/main.ts',
        'apps/bot-admin/tsconfig.app.json',
        'docs/asyncapi/connector-events.yaml',
      ]) {
        expect({ path, ignored: dockerIgnored(path, patterns) }).toEqual({ path, ignored: false });
      }
    });
  });
});
