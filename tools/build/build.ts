import { spawnSync } from 'node:child_process';
import { buildAndStamp, buildIfStale } from './build-stamp';

/**
 * `npm run build`: the four bundles (`npm run build:bundles`), then a stamp saying which sources they were built from.
 * `npm start` runs it with `--if-stale` (its prestart): it builds only when a source changed since (build-stamp.ts).
 */
function main(args: string[]): number {
  const root = process.cwd();
  const build = () => spawnSync('npm', ['run', 'build:bundles'], { cwd: root, stdio: 'inherit' }).status ?? 1;
  if (args.length === 0) return buildAndStamp(root, build);
  if (args.length === 1 && args[0] === '--if-stale') return buildIfStale(root, build, (line) => console.log(line));
  console.error('Usage: build.ts [--if-stale]');
  return 2;
}

process.exitCode = main(process.argv.slice(2));
