import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATE_SQL } from '@app/domain';
import { REPOSITORIES, sqlDocuments, sqlFileOf } from '../../tools/sql/sql-documents';
import { ROOT } from '../support/run-command';

const FOLDER = join(ROOT, 'docs', 'sql');

describe('The committed SQL of the repositories (docs/sql)', () => {
  let written: Map<string, string>;

  beforeAll(async () => {
    written = await sqlDocuments();
  });

  it('has one file per repository, and no other', () => {
    expect(readdirSync(FOLDER).sort()).toEqual(REPOSITORIES.map((repository) => sqlFileOf(repository.name)).sort());
  });

  it.each(REPOSITORIES.map((repository) => sqlFileOf(repository.name)))('%s is what the code sends (run npm run sql after changing a statement)', (file) => {
    expect(readFileSync(join(FOLDER, file), 'utf8')).toBe(written.get(file));
  });

  it('shows every statement of a repository method that reads or writes', () => {
    // Each repository method of an instance's prototype is decorated, but for the helpers that only build on others.
    const undecorated = REPOSITORIES.flatMap((repository) =>
      Object.getOwnPropertyNames(repository.prototype)
        .filter(
          (method) =>
            method !== 'constructor' && !Reflect.getMetadata(GENERATE_SQL, Object.getOwnPropertyDescriptor(repository.prototype, method)?.value as object),
        )
        .map((method) => `${repository.name}.${method}`),
    );
    expect(undecorated).toEqual(['RestConnectorRepository.insertTags']);
  });
});
