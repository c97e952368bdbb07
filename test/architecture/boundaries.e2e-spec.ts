import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/run-command';

/** The layout docs/decisions.md and the README describe, held by the imports themselves. */
const SOURCES = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'apps/**/*.ts', 'libs/**/*.ts', 'tools/**/*.ts'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file.endsWith('.ts'));

function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:from|import|require\()\s*'([^']+)'/g)].map(([, specifier]) => specifier);
}

const offenders = (files: string[], forbidden: (specifier: string) => boolean) =>
  files.flatMap((file) => importsOf(file).filter(forbidden).map((specifier) => `${file}: ${specifier}`));

const inside = (folder: string) => SOURCES.filter((file) => file.startsWith(folder));
const production = (files: string[]) => files.filter((file) => !file.endsWith('.spec.ts') && !file.includes('/testing/'));

describe('The architecture', () => {
  it('libs/domain depends on neither the platform plumbing nor the seed data, nor on an HTTP server or logger', () => {
    expect(offenders(inside('libs/domain/'), (s) => /^@app\/(platform|seed-data)$|^@nestjs\/platform-express$|^express$|^pino|^nestjs-pino$/.test(s))).toEqual([]);
  });

  it('libs/domain raises no HTTP exception: its errors carry a code, which the platform maps to a status', () => {
    const http = /import\s*\{[^}]*\b(?:HttpException|\w+Exception)\b[^}]*\}\s*from\s*'@nestjs\/common'/;
    expect(production(inside('libs/domain/')).filter((file) => http.test(readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('libs/platform knows no data: the demo ids reach it through the app definitions', () => {
    expect(offenders(inside('libs/platform/'), (s) => /^@app\/seed-data$/.test(s))).toEqual([]);
  });

  it('libs/platform and libs/seed-data never import an app', () => {
    expect(offenders([...inside('libs/platform/'), ...inside('libs/seed-data/')], (s) => /apps\//.test(s))).toEqual([]);
  });

  it('every import of a library goes through its public surface (its index.ts)', () => {
    expect(offenders(SOURCES, (s) => /^@app\/[\w-]+\//.test(s) || /(\.\.\/)+libs\//.test(s))).toEqual([]);
  });

  it('one data-access style: no query builder, repository API or EntityManager outside the migrations', () => {
    const pattern = /createQueryBuilder|getRepository\(|InjectRepository|EntityManager|\.manager\b|findOneBy\(|\.findOne\(/;
    const users = production(SOURCES).filter((file) => !file.includes('/database/migrations/') && pattern.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(users).toEqual([]);
  });

  it('no service opens a transaction through a repository callback or holds an EntityManager', () => {
    const services = production(SOURCES).filter((file) => file.endsWith('.service.ts'));
    expect(services.filter((file) => /EntityManager|alsoInTransaction|from 'typeorm'/.test(readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('every replacement of library behaviour lives in libs/platform/src/performance', () => {
    // Patching class-validator's metadata storage, replacing Nest's adapter or the pipe's transform.
    const pattern = /extends ExpressAdapter|storage\.\w+ = |MetadataStorage\.prototype|extends PlatformValidationPipe|ValidityCheck\(/;
    const overrides = production(SOURCES).filter((file) => pattern.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(overrides.filter((file) => !file.startsWith('libs/platform/src/performance/'))).toEqual([]);
    expect(overrides.length).toBeGreaterThanOrEqual(3);
  });
});
