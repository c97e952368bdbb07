import { Organization, buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { anEnvironment, anOrganization, aBot } from '../support/fixtures';
import { runCli, runTs } from '../support/run-command';

describe('npm run import (the sources once, then the built CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'platform-import-'));
  const env = () => ({ DATABASE_URL: process.env.TEST_DATABASE_URL });
  let dataSource: PlatformDataSource;

  const writeJson = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  };

  beforeAll(async () => {
    dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(process.env.TEST_DATABASE_URL!), { migrationsRun: false }));
    await dataSource.initialize();
  });
  afterAll(() => dataSource.destroy());

  it('imports a good file and exits 0, run from the sources as the npm script runs it', async () => {
    const organization = anOrganization();
    const environment = anEnvironment(organization.uuid);
    const file = writeJson('good.json', { organizations: [organization], environments: [environment], bots: [aBot(environment.uuid)] });

    const result = await runTs('tools/cli/src/main.ts', ['import', file], env());

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await dataSource.getRepository(Organization).findOneBy({ uuid: organization.uuid })).toEqual(organization);
  });

  it('rejects a file with a dangling reference and a bad uuid, printing every reason, writing nothing', async () => {
    const organization = anOrganization();
    const missing = randomUUID();
    const file = writeJson('bad.json', {
      organizations: [organization],
      bots: [aBot(missing, { uuid: 'not-a-uuid' })],
    });

    const result = await runCli(['import', file], env());

    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Import rejected, nothing was written:');
    expect(result.stderr).toContain('$.bots[0].uuid');
    expect(result.stderr).toContain(`$.bots[0].environmentUuid`);
    expect(await dataSource.getRepository(Organization).findOneBy({ uuid: organization.uuid })).toBeNull();
  });

  it('rejects malformed JSON and exits non-zero', async () => {
    const file = writeJson('malformed.json', '{"organizations": [');

    const result = await runCli(['import', file], env());

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Import rejected, nothing was written:\n {2}\$: cannot read .*malformed\.json as JSON: /);
  });
});
