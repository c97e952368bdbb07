import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the bundles are built from: the sources of the apps, libraries and tools, the AsyncAPI documents the
 * transactional service's build copies beside its bundle, and the files that say how they are compiled and with
 * which dependencies. Unit specs and Markdown are left out: no bundle holds them.
 */
const INPUT_FOLDERS = ['apps', 'libs', 'tools', 'docs/asyncapi'];
const INPUT_ROOT_FILES = /^(tsconfig.*\.json|nest-cli\.json|package\.json|package-lock\.json)$/;
const NOT_BUILT = /\.spec\.ts$|\.md$/;

/** What `npm run build` makes: the three apps and the CLI (what `npm start` runs), and every file beside them. */
export const BUNDLES = ['dist/apps/transactional-service/main.js', 'dist/apps/environment/main.js', 'dist/apps/bot-admin/main.js', 'dist/tools/cli/main.js'];
const OUTPUT_FOLDERS = ['dist/apps', 'dist/tools'];

/** Written after a successful build: the digest of its sources, and the size and time of each file it made. */
export const STAMP_FILE = 'dist/.build-stamp.json';

interface Stamp {
  sources: string;
  outputs: Record<string, string>;
}

/**
 * Why `root`'s bundles must be built again, or undefined when they were built from the sources as they are now:
 * a bundle is missing, no build wrote a stamp, a source changed (its content: a file saved unchanged or a branch
 * checked out and back changes nothing), or a file under dist/ changed since the stamp (an app built on its own
 * with `nest build`, say).
 */
export function staleness(root: string): string | undefined {
  const missing = BUNDLES.find((bundle) => !existsSync(join(root, bundle)));
  if (missing) return `${missing} is missing`;
  const stamp = readStamp(root);
  if (!stamp) return `no ${STAMP_FILE} says what dist/ was built from`;
  if (stamp.sources !== sourceDigest(root)) return 'sources changed since the last build';
  const outputs = outputFingerprints(root);
  const changed = [...new Set([...Object.keys(outputs), ...Object.keys(stamp.outputs)])].find((file) => outputs[file] !== stamp.outputs[file]);
  return changed ? `${changed} changed since the last build` : undefined;
}

/**
 * Runs `build` (the whole build) and, when it succeeds, stamps dist/ with the digest of the sources as they were when
 * it started: a source saved during the build makes the next start build again. Answers the build's exit code.
 */
export function buildAndStamp(root: string, build: () => number): number {
  const sources = sourceDigest(root);
  rmSync(join(root, STAMP_FILE), { force: true });
  const code = build();
  if (code !== 0) return code;
  const stamp: Stamp = { sources, outputs: outputFingerprints(root) };
  writeFileSync(join(root, STAMP_FILE), `${JSON.stringify(stamp, null, 2)}\n`);
  return 0;
}

/** `npm start`'s build step: the whole build when staleness() gives a reason (said in `log`), else nothing. */
export function buildIfStale(root: string, build: () => number, log: (line: string) => void): number {
  const reason = staleness(root);
  if (reason === undefined) {
    log(`The build is up to date (no source changed since ${STAMP_FILE} was written): not building.`);
    return 0;
  }
  log(`Building: ${reason}.`);
  return buildAndStamp(root, build);
}

/** SHA-256 of every input file's path and content, in path order: a file added, removed, renamed or edited changes it. */
export function sourceDigest(root: string): string {
  const hash = createHash('sha256');
  const inputs = [
    ...readdirSync(root).filter((name) => INPUT_ROOT_FILES.test(name) && statSync(join(root, name)).isFile()),
    ...INPUT_FOLDERS.flatMap((folder) => filesUnder(root, folder)),
  ].filter((file) => !NOT_BUILT.test(file));
  for (const file of inputs.sort()) {
    const content = readFileSync(join(root, file));
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

function outputFingerprints(root: string): Record<string, string> {
  const files = OUTPUT_FOLDERS.flatMap((folder) => filesUnder(root, folder)).sort();
  return Object.fromEntries(
    files.map((file) => {
      const stats = statSync(join(root, file));
      return [file, `${stats.size} bytes, modified at ${stats.mtimeMs} ms`];
    }),
  );
}

/** Every file under `root`/`folder`, as a path relative to `root` (none when the folder does not exist). */
function filesUnder(root: string, folder: string): string[] {
  const dir = join(root, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesUnder(root, path);
    return entry.isFile() ? [path] : [];
  });
}

function readStamp(root: string): Stamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(join(root, STAMP_FILE), 'utf8')) as Partial<Stamp>;
    return typeof stamp.sources === 'string' && typeof stamp.outputs === 'object' && stamp.outputs !== null ? (stamp as Stamp) : undefined;
  } catch {
    return undefined;
  }
}
