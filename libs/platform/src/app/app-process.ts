/**
 * How an app's process is started, wherever it runs: the node flags of docker/Dockerfile's CMD (test/deploy/dockerfile
 * checks that they are the same), and the environment each app needs whatever its host sets (docker/Dockerfile's ENV,
 * npm start's script and its launcher). docs/performance.md, "Memory", gives the reasons.
 */
export const APP_NODE_FLAGS: readonly string[] = ['--max-old-space-size=128', '--no-allocation-site-pretenuring'];

/**
 * Set where the environment does not: two malloc arenas. Without the bound glibc gives each thread that allocates an
 * arena of its own (up to 8 per core), and the memory freed in each stays with it.
 */
export const APP_ENV_DEFAULTS: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** `env` with APP_ENV_DEFAULTS where it does not set them (a value it sets, even another, is kept). */
export function withAppEnvDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const defaults = Object.entries(APP_ENV_DEFAULTS).filter(([name]) => env[name] === undefined || env[name] === '');
  return { ...env, ...Object.fromEntries(defaults) };
}
