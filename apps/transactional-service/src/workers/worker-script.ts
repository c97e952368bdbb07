import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const scripts = new Map<string, string>();

/**
 * The script of a worker thread, from its path without extension (`join(__dirname, 'import.worker')`): built, the
 * `.js` beside the app's bundle (a webpack entry, apps/transactional-service/webpack.config.js); from the TypeScript
 * sources (jest, ts-node), the `.ts` and the project files it imports, transpiled once (transpiledWorkerScript).
 */
export function workerScript(base: string): string {
  let script = scripts.get(base);
  if (script === undefined) {
    script = existsSync(`${base}.js`) ? `${base}.js` : transpiledWorkerScript(`${base}.ts`);
    scripts.set(base, script);
  }
  return script;
}

/** Bumped when the transpilation below changes: its output goes to another folder. */
const TRANSPILER_VERSION = '2';
/** What a project file imports: `from '…'`, `import '…'`, `require('…')`, `import('…')`. */
const SPECIFIERS = /(?:\bfrom|\bimport|\brequire\s*\(|\bimport\s*\()\s*['"]([^'"\n]+)['"]/g;

/**
 * A worker thread cannot load .ts files, and a compiler registered in each worker (ts-node) costs seconds per start;
 * so the worker's source and the project files it imports (relative paths, and the libraries' path aliases of
 * tsconfig.json) are transpiled, each on its own, into node_modules/.cache/bot-platform/<hash of the sources>,
 * keeping their places relative to the project (their imports of packages resolve to the project's node_modules, a
 * path alias is rewritten to the relative path of its library). A worker then loads plain JavaScript. The folder is
 * written under another name and renamed, so that parallel test processes never see half of it; while the sources are
 * unchanged, the next process only reads and hashes them.
 */
export function transpiledWorkerScript(entry: string): string {
  const piscina = require.resolve('piscina');
  const modules = piscina.slice(0, piscina.lastIndexOf('node_modules') + 'node_modules'.length);
  const root = dirname(modules);
  const aliases = pathAliases(root);
  const sources = projectFiles(entry, aliases);
  const hash = createHash('sha256').update(TRANSPILER_VERSION).update(typescriptVersion());
  for (const [file, text] of [...sources].sort(([a], [b]) => a.localeCompare(b))) hash.update(relative(root, file)).update('\0').update(text).update('\0');
  const folder = join(modules, '.cache', 'bot-platform', hash.digest('hex').slice(0, 16));
  const script = join(folder, relative(root, entry).replace(/\.ts$/, '.js'));
  if (existsSync(script)) return script;
  const partial = `${folder}.${process.pid}.${Date.now()}`;
  for (const [file, text] of transpiled(sources, aliases, root)) {
    // Kept at its place relative to the project, so that its imports of packages resolve to the project's node_modules.
    if (relative(root, file).startsWith('..')) throw new Error(`${file} is not a file of the project at ${root}`);
    const target = join(partial, relative(root, file).replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  try {
    renameSync(partial, folder);
  } catch {
    // Another process renamed its own copy first: the same sources, the same files.
    rmSync(partial, { recursive: true, force: true });
  }
  return script;
}

/** The path aliases of tsconfig.json (`@app/domain` → libs/domain/src), as absolute paths. */
function pathAliases(root: string): Map<string, string> {
  // tsconfig.json is plain JSON (no comments): read as such, without loading the compiler.
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };
  return new Map(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, join(root, target)]));
}

/** The file a specifier names, when it is a project file (relative, or a path alias): `x.ts` or `x/index.ts`. */
function projectFile(from: string, specifier: string, aliases: Map<string, string>): string | undefined {
  const base = specifier.startsWith('.') ? resolve(dirname(from), specifier) : aliases.get(specifier);
  if (base === undefined) return undefined;
  return [`${base}.ts`, join(base, 'index.ts')].find((file) => existsSync(file));
}

/** The entry and every project file it imports, directly or not, with their sources (type-only imports included: harmless). */
function projectFiles(entry: string, aliases: Map<string, string>): Map<string, string> {
  const sources = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (sources.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    sources.set(file, text);
    for (const [, specifier] of text.matchAll(SPECIFIERS)) {
      const imported = projectFile(file, specifier, aliases);
      if (imported !== undefined && !sources.has(imported)) pending.push(imported);
    }
  }
  return sources;
}

/** Each file transpiled on its own (as ts-jest does), a path alias in its requires rewritten to the relative path of its target. */
function transpiled(sources: Map<string, string>, aliases: Map<string, string>, root: string): Map<string, string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const { config } = ts.readConfigFile(join(root, 'tsconfig.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const compilerOptions = { ...options, module: ts.ModuleKind.CommonJS, sourceMap: false, inlineSourceMap: false, declaration: false, noEmit: false };
  const outputs = new Map<string, string>();
  for (const [file, text] of sources) {
    const { outputText } = ts.transpileModule(text, { compilerOptions, fileName: file });
    outputs.set(
      file,
      outputText.replace(/require\("([^"]+)"\)/g, (call, specifier: string) => {
        const imported = projectFile(file, specifier, aliases);
        // Found by its source's imports: a require that was not would leave the cache stale when that file changes.
        if (imported === undefined) return call;
        if (!sources.has(imported)) throw new Error(`${file} requires ${specifier}, which its imports did not show`);
        if (specifier.startsWith('.')) return call;
        const target = relative(dirname(file), imported).replace(/\.ts$/, '');
        return `require("${target.startsWith('.') ? target : `./${target}`}")`;
      }),
    );
  }
  return outputs;
}

function typescriptVersion(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('typescript/package.json') as { version: string }).version;
}
