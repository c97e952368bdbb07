import type * as Undici from 'undici';

let loaded: typeof Undici | undefined;

/**
 * undici, loaded at the first connector test run rather than at start: most replicas never run one, and the
 * module's source and code would otherwise sit in every app's memory (docs/performance.md, "Memory").
 */
export function undici(): typeof Undici {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('undici') as typeof Undici);
}
