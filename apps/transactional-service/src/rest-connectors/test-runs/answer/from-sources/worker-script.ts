import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The answer worker's script when the app runs from its TypeScript sources (jest, ts-node): a worker thread cannot
 * load .ts files, so the worker's source and the project files it imports (which import only packages or each
 * other) are transpiled, each on its own, into node_modules/.cache, keeping their places relative to the project,
 * so that their imports of packages resolve to the project's node_modules. The folder is named by a hash of the
 * sources and written under another name, then renamed: parallel test processes never see half of it. Built, the
 * app never comes here: the script is a webpack entry beside its bundle.
 */
export function transpiledWorkerScript(entry: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const ts = require('typescript') as typeof import('typescript');
  const resolved = require.resolve('piscina');
  const modules = resolved.slice(0, resolved.lastIndexOf('node_modules') + 'node_modules'.length);
  const root = dirname(modules);
  const sources = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (sources.has(file)) continue;
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
    });
    sources.set(file, outputText);
    for (const [, local] of outputText.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) pending.push(`${resolve(dirname(file), local)}.ts`);
  }
  const hash = createHash('sha256');
  for (const [file, text] of [...sources].sort(([a], [b]) => a.localeCompare(b))) hash.update(file).update(text);
  const folder = join(modules, '.cache', 'bot-platform', hash.digest('hex').slice(0, 16));
  const script = join(folder, relative(root, entry).replace(/\.ts$/, '.js'));
  if (existsSync(script)) return script;
  const partial = `${folder}.${process.pid}.${Date.now()}`;
  for (const [file, text] of sources) {
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
