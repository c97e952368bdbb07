import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT } from '../support/run-command';
import { finderRows, openApiOperations, productionClasses, reachedFrom } from './operation-finder';

/** Every file the repository holds (tracked), and every folder above one. */
const FILES = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
const FOLDERS = new Set(
  FILES.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);
const inRepository = (path: string) => FILES.includes(path) || FOLDERS.has(path);

const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...execFileSync('git', ['ls-files', 'apps/**/README.md', 'libs/**/README.md', 'tools/**/README.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean),
];

/**
 * Path-like words the docs use for what is made at run time or by the reader, never committed: build
 * output, the embedded database and its development keys, screenshots, the reader's own import file
 * (`path/to/…`, `data.json`). And Express's `res.json`, a method.
 */
const NOT_COMMITTED = [/^dist\//, /^\.?\/?data\//, /^test-output\//, /^node_modules\//, /^path\/to\//, /^data\.json$/, /^\/import\//, /^res\.json$/];

/** Relative link targets (`[text](target)`), without their `#fragment`. */
function linksOf(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target.split('#')[0])
    .filter((target) => target !== '' && !/^[a-z][a-z+.-]*:/i.test(target));
}

/** Path-like words: a file name with an extension, or a path under a top-level folder of the repository. */
function fileNamesOf(text: string): string[] {
  const topLevel = [...new Set(FILES.map((file) => file.split('/')[0]))].map((name) => name.replace(/\./g, '\\.')).join('|');
  const pattern = new RegExp(
    String.raw`(?<![\w./<>{}*…@:$-])((?:\.{1,2}/)?(?:(?:${topLevel})/[\w./-]*|[\w.-]+(?:/[\w.-]+)*\.(?:md|ts|js|json|ya?ml|sh|sql|txt))|\.env\.example)(?![\w/<>{}*…-])`,
    'g',
  );
  return [...text.replace(/https?:\/\/\S+/g, '').matchAll(pattern)].map(([, name]) => name.replace(/[.]+$/, ''));
}

function resolves(doc: string, name: string): boolean {
  const candidates = [normalize(name), normalize(join(dirname(doc), name))].map((path) => path.replace(/\/$/, ''));
  return candidates.some(inRepository) || FILES.some((file) => file.endsWith(`/${name}`)) || NOT_COMMITTED.some((re) => re.test(name));
}

/** The project stands on its own: its docs name only files it holds. */
describe('The docs', () => {
  it.each(DOCS)('%s links only to files of the repository', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const broken = linksOf(text).filter((target) => !inRepository(relative(ROOT, join(ROOT, dirname(doc), target))));
    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s names only files of the repository', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    expect(fileNamesOf(text).filter((name) => !resolves(doc, name))).toEqual([]);
  });

  it('and no committed file refer to files outside the repository', () => {
    const self = relative(ROOT, __filename);
    const outside = /API-CONTRACT\.md|\.\.\/shared\b|\/work\/shared\b/;
    const offenders = FILES.filter((file) => file !== self && !file.endsWith('package-lock.json')).filter((file) =>
      outside.test(readFileSync(join(ROOT, file), 'latin1')),
    );
    expect(offenders).toEqual([]);
  });
});

/** README's operation finder names, for each operation, the handler and the queries a reader would open. */
describe("README's operation finder", () => {
  const rows = finderRows(readFileSync(join(ROOT, 'README.md'), 'utf8'));
  const classes = productionClasses();

  it('lists every operation of the OpenAPI documents once', () => {
    const listed = rows.flatMap((row) => openApiOperations(row.method, row.path).map((operation) => `${row.method} ${operation.path}`));
    const documented = execFileSync('git', ['ls-files', 'docs/openapi/*.json'], { cwd: ROOT, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .flatMap((file) =>
        Object.entries((JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { paths: Record<string, object> }).paths).flatMap(([path, operations]) =>
          Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
        ),
      );
    expect([...listed].sort()).toEqual([...documented].sort());
  });

  it.each(rows.map((row) => [`${row.method} ${row.path}`, row] as const))('%s names its handler', (_, row) => {
    const operations = openApiOperations(row.method, row.path);
    expect(operations).toHaveLength(1);
    const [controller, method] = row.handler.split('.');
    expect(method).toBe(operations[0].operationId);
    expect(controller).toMatch(/Controller$/);
    expect(classes.get(controller)?.methods.has(method)).toBe(true);
  });

  it.each(rows.map((row) => [`${row.method} ${row.path}`, row] as const))('%s names the use case its handler reaches, if any', (_, row) => {
    const inUseCases = (name: string) => classes.get(name.split('.')[0])?.file.includes('/use-cases/') === true;
    const useCasesReached = [...reachedFrom(classes, row.handler)].filter(inUseCases);
    if (row.useCase === undefined) {
      expect(useCasesReached).toEqual([]);
    } else {
      expect(inUseCases(row.useCase)).toBe(true);
      expect(useCasesReached).toContain(row.useCase);
    }
  });

  it.each(rows.map((row) => [`${row.method} ${row.path}`, row] as const))('%s names queries its handler (through its use case) reaches', (_, row) => {
    expect(row.queries.length).toBeGreaterThan(0);
    const reached = reachedFrom(classes, row.useCase ?? row.handler);
    expect(row.queries.filter((query) => !/^\w+(Repository|Outbox)\.\w+$/.test(query) || !reached.has(query))).toEqual([]);
  });
});
