import { buildDataSourceOptions, Organization, PlatformDataSource } from '@app/domain';
import { Importer, ImportRejectedError } from '@app/seed-data';
import { rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { dirname } from 'node:path';
import { DataSource } from 'typeorm';
import { sqliteTestConfig } from '../support/test-config';
import { aBot, anEnvironment, aFlow, anOrganization, aTenantFile } from '../support/fixtures';
import { expectedRows, storedRows } from './stored-rows';

describe(`${Importer.name} on SQLite`, () => {
  const { database } = sqliteTestConfig();
  let dataSource: DataSource;
  let sut: Importer;

  beforeAll(async () => {
    dataSource = new PlatformDataSource(buildDataSourceOptions(database));
    await dataSource.initialize();
    sut = new Importer(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
    if (database.type === 'sqlite') rmSync(dirname(database.path), { recursive: true, force: true });
  });

  it('stores every field of a complete file exactly, and again unchanged', async () => {
    const { file } = aTenantFile();

    await sut.import(file);
    await sut.import(file);

    expect(await storedRows(dataSource, file)).toStrictEqual(expectedRows(file));
  });

  it('writes files larger than one multi-row statement', async () => {
    const organizations = Array.from({ length: 450 }, () => anOrganization());
    const environments = organizations.map((organization) => anEnvironment(organization.uuid));
    const bot = aBot(environments[0].uuid);
    const flow = aFlow(bot.uuid, { connectors: environments.map(() => randomUUID()) });
    const file = { organizations, environments, bots: [bot], flows: [flow] };

    await expect(sut.import(file)).resolves.toEqual({
      organizations: 450,
      environments: 450,
      bots: 1,
      flows: 1,
      connectorContent: 0,
    });

    expect(await storedRows(dataSource, file)).toStrictEqual(expectedRows(file));
  });

  it('rejects a file with a dangling reference and writes nothing', async () => {
    const good = anOrganization();
    const missing = randomUUID();

    const rejection = sut.import({ organizations: [good], bots: [aBot(missing)] });

    await expect(rejection).rejects.toBeInstanceOf(ImportRejectedError);
    await expect(rejection).rejects.toHaveProperty('reasons', [
      `$.bots[0].environmentUuid: environment ${missing} is neither in this file nor in the database`,
    ]);
    expect(await dataSource.getRepository(Organization).existsBy({ uuid: good.uuid })).toBe(false);
  });
});
