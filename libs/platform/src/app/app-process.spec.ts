import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { APP_ENV_DEFAULTS, withAppEnvDefaults } from './app-process';

const ROOT = resolve(__dirname, '../../../..');

describe(withAppEnvDefaults.name, () => {
  it('sets MALLOC_ARENA_MAX=2 where the environment does not, and keeps a value it sets', () => {
    expect(APP_ENV_DEFAULTS).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(withAppEnvDefaults({ PATH: '/bin' })).toEqual({ PATH: '/bin', MALLOC_ARENA_MAX: '2' });
    expect(withAppEnvDefaults({ MALLOC_ARENA_MAX: '' })).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(withAppEnvDefaults({ MALLOC_ARENA_MAX: '4' })).toEqual({ MALLOC_ARENA_MAX: '4' });
  });
});

describe("npm start's script", () => {
  /** package.json's start script run by sh as npm runs it, its node command asked for the variable instead of the CLI. */
  const arenasUnder = (env: NodeJS.ProcessEnv) => {
    const script = (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;
    expect(script).toContain('node dist/tools/cli/main.js platform');
    const probe = script.replace('node dist/tools/cli/main.js platform', `"${process.execPath}" -p "process.env.MALLOC_ARENA_MAX ?? 'unset'"`);
    return execFileSync('sh', ['-c', probe], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' }).trim();
  };

  it("gives the launcher (and so the apps) APP_ENV_DEFAULTS' MALLOC_ARENA_MAX where the environment does not set it", () => {
    expect(arenasUnder({})).toBe(APP_ENV_DEFAULTS.MALLOC_ARENA_MAX);
    expect(arenasUnder({ MALLOC_ARENA_MAX: '4' })).toBe('4');
  });
});
