import { buildDataSourceOptions, Organization, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { Importer, ImportFile, ImportRejectedError } from '@app/seed-data';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { aContentEntry, aBot, anEnvironment, aFlow, anOrganization, aTenantFile } from '../support/fixtures';
import { expectedRows, storedRows } from './stored-rows';

describe(`${Importer.name} on MariaDB`, () => {
  let dataSource: DataSource;
  let sut: Importer;

  beforeAll(async () => {
    dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(process.env.TEST_DATABASE_URL!), { migrationsRun: false }));
    await dataSource.initialize();
    sut = new Importer(dataSource);
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  const organizationExists = (uuid: string) => dataSource.getRepository(Organization).existsBy({ uuid });

  /** Rejections are asserted whole: the error class and the exact list of reasons. */
  async function expectRejected(result: Promise<unknown>, reasons: string[]): Promise<void> {
    await expect(result).rejects.toBeInstanceOf(ImportRejectedError);
    await expect(result).rejects.toHaveProperty('reasons', reasons);
  }

  it('stores every field of a complete file exactly', async () => {
    const { file } = aTenantFile();

    await expect(sut.import(file)).resolves.toEqual({
      organizations: 1,
      environments: 1,
      bots: 1,
      flows: 1,
      connectorContent: 2,
    });

    expect(await storedRows(dataSource, file)).toStrictEqual(expectedRows(file));
  });

  it('stores absent optional fields as their defaults', async () => {
    const organization = anOrganization();
    const { uuid, name } = anEnvironment(organization.uuid);
    const environment = { uuid, organizationUuid: organization.uuid, name };
    const bot = { ...aBot(uuid), image: undefined };
    const flow = { ...aFlow(bot.uuid), connectors: undefined };
    const file: ImportFile = { organizations: [organization], environments: [environment], bots: [bot], flows: [flow] };

    await sut.import(file);

    const stored = await storedRows(dataSource, file);
    expect(stored.environments).toStrictEqual([
      {
        uuid,
        organizationUuid: organization.uuid,
        name,
        removed: false,
        instanceUuid: null,
        instanceName: null,
        channelInstanceUuid: null,
        channelInstanceName: null,
        connectorInstanceUuid: null,
        connectorInstanceName: null,
        dns: null,
        apiURL: null,
        channelApiUrl: null,
        connectorApiUrl: null,
        applications: [],
        permissions: [],
      },
    ]);
    expect(stored.bots).toStrictEqual([{ uuid: bot.uuid, environmentUuid: uuid, name: bot.name, image: null }]);
    expect(stored.flowConnectors).toStrictEqual({ [flow.uuid]: [] });
  });

  it('stores uuids lower-cased', async () => {
    const organization = anOrganization();
    const environment = anEnvironment(organization.uuid.toUpperCase(), { instanceUuid: randomUUID().toUpperCase() });
    const connector = randomUUID();
    const file: ImportFile = {
      organizations: [{ ...organization, uuid: organization.uuid.toUpperCase() }],
      environments: [{ ...environment, uuid: environment.uuid.toUpperCase() }],
      connectorContent: { [connector.toUpperCase()]: [aContentEntry()] },
    };

    await sut.import(file);

    const stored = await storedRows(dataSource, file);
    expect(stored.organizations).toStrictEqual([organization]);
    expect(stored.environments[0]).toMatchObject({
      uuid: environment.uuid,
      organizationUuid: organization.uuid,
      instanceUuid: environment.instanceUuid!.toLowerCase(),
    });
    expect(Object.keys(stored.connectorContent)).toEqual([connector]);
  });

  it('accepts names of 255 characters as MariaDB counts them, in code points', async () => {
    const organization = anOrganization({ name: '\u{1F916}'.repeat(255) });

    await sut.import({ organizations: [organization] });

    expect((await storedRows(dataSource, { organizations: [organization] })).organizations).toStrictEqual([organization]);
  });

  it('changes nothing when the same file is imported twice', async () => {
    const { file } = aTenantFile();
    const first = await sut.import(file);
    const afterFirst = await storedRows(dataSource, file);

    await expect(sut.import(file)).resolves.toEqual(first);

    expect(await storedRows(dataSource, file)).toStrictEqual(afterFirst);
  });

  it('updates the rows of a re-imported uuid', async () => {
    const { file, organization, environment, bot, flow } = aTenantFile();
    await sut.import(file);
    const renamed = {
      organizations: [{ ...organization, name: 'Renamed organization' }],
      environments: [{ ...environment, name: 'Renamed environment', removed: false, permissions: ['other'] }],
      bots: [{ ...bot, name: 'Renamed bot', image: 'https://cdn.example.com/other.png' }],
      flows: [{ ...flow, name: 'Renamed flow' }],
    } satisfies ImportFile;

    await sut.import(renamed);

    expect(await storedRows(dataSource, renamed)).toStrictEqual(expectedRows(renamed));
  });

  it('accepts references to rows that an earlier import stored', async () => {
    const { file, organization, environment, bot } = aTenantFile();
    await sut.import({ organizations: file.organizations });
    await sut.import({ environments: file.environments });
    await sut.import({ bots: file.bots });
    const flow = aFlow(bot.uuid);

    await expect(sut.import({ flows: [flow] })).resolves.toMatchObject({ flows: 1 });

    const stored = await storedRows(dataSource, { ...file, flows: [flow] });
    expect(stored.organizations).toStrictEqual([organization]);
    expect(stored.environments).toStrictEqual([environment]);
    expect(stored.flows).toStrictEqual([{ uuid: flow.uuid, botUuid: bot.uuid, name: flow.name }]);
  });

  it("replaces a flow's connectors on re-import", async () => {
    const { file, flow } = aTenantFile();
    await sut.import(file);
    const [, kept] = flow.connectors;
    const added = randomUUID();

    await sut.import({ flows: [{ ...flow, connectors: [kept, added, added.toUpperCase()] }] });
    expect((await storedRows(dataSource, { flows: [flow] })).flowConnectors).toStrictEqual({
      [flow.uuid]: [kept, added].sort(),
    });

    await sut.import({ flows: [{ ...flow, connectors: [] }] });
    expect((await storedRows(dataSource, { flows: [flow] })).flowConnectors).toStrictEqual({ [flow.uuid]: [] });
  });

  it('replaces the content of a connector on re-import', async () => {
    const connector = randomUUID();
    await sut.import({ connectorContent: { [connector]: [aContentEntry(), aContentEntry()] } });
    const replacement = { [connector]: [{ option: 'only this one' }] };

    await expect(sut.import({ connectorContent: replacement })).resolves.toMatchObject({ connectorContent: 1 });

    expect((await storedRows(dataSource, { connectorContent: replacement })).connectorContent).toStrictEqual(replacement);
  });

  describe('rejects the whole file and writes nothing', () => {
    let good: ReturnType<typeof anOrganization>;

    beforeEach(() => {
      good = anOrganization();
    });

    afterEach(async () => {
      expect(await organizationExists(good.uuid)).toBe(false);
    });

    it('when a reference dangles', async () => {
      const missing = randomUUID();
      const environment = anEnvironment(missing);

      const result = sut.import({ organizations: [good], environments: [environment] });

      await expectRejected(result, [`$.environments[0].organizationUuid: organization ${missing} is neither in this file nor in the database`]);
    });

    it('when a key is unknown, at the top or in an item', async () => {
      const result = sut.import({
        organizations: [good, { ...anOrganization(), colour: 'red' }],
        robots: [],
      });

      await expectRejected(result, ['$.organizations[1].colour: unknown key', '$: unknown key "robots"']);
    });

    it('when a uuid is not a UUID', async () => {
      const result = sut.import({
        organizations: [good, anOrganization({ uuid: 'not-a-uuid' })],
        connectorContent: { 'not-a-uuid': [] },
      });

      await expectRejected(result, ['$.organizations[1].uuid: must be a UUID', '$.connectorContent["not-a-uuid"]: key must be a connector UUID']);
    });

    it('when a value has the wrong type', async () => {
      const environment = {
        ...anEnvironment(good.uuid),
        removed: 'no',
        applications: [{ name: 'nlu', version: '1', properties: { region: 1 } }],
      };

      const result = sut.import({ organizations: [good], environments: [environment] });

      await expectRejected(result, ['$.environments[0].removed: must be a boolean', '$.environments[0].applications[0].properties.region: must be a string']);
    });

    it('when a uuid appears twice in a section', async () => {
      const twin = anOrganization({ uuid: good.uuid.toUpperCase() });

      const result = sut.import({ organizations: [good, twin] });

      await expectRejected(result, ['$.organizations[1].uuid: duplicate of $.organizations[0].uuid']);
    });

    it('listing every reason at once', async () => {
      const environment = anEnvironment(good.uuid, { name: ' ', dns: 'x'.repeat(256) });
      const missingEnvironment = randomUUID();
      const bots = [aBot(environment.uuid), { ...aBot(missingEnvironment), name: 7 }, { ...aBot(environment.uuid), environmentUuid: 'nope', tags: [] }];
      const flow = aFlow(bots[0].uuid, { connectors: ['abc'] });
      const connector = randomUUID();

      const result = sut.import({
        organizations: [good, { uuid: randomUUID() }],
        environments: [environment, null],
        bots,
        flows: [flow, { ...flow }],
        connectorContent: { [connector]: [{ option: 'a', urlRedirect: 'yes', size: 2 }], other: {} },
        robots: true,
      });

      await expectRejected(result, [
        '$.organizations[1].name: is required',
        '$.environments[0].name: must be a non-empty string of at most 255 characters',
        '$.environments[0].dns: must be a string of at most 255 characters',
        '$.environments[1]: must be an object',
        '$.bots[1].name: must be a non-empty string of at most 255 characters',
        '$.bots[2].environmentUuid: must be a UUID',
        '$.bots[2].tags: unknown key',
        '$.flows[0].connectors[0]: must be a UUID',
        '$.flows[1].connectors[0]: must be a UUID',
        `$.connectorContent["${connector}"][0].urlRedirect: must be a boolean`,
        `$.connectorContent["${connector}"][0].size: unknown key`,
        '$.connectorContent.other: key must be a connector UUID',
        '$.connectorContent.other: must be an array',
        '$: unknown key "robots"',
        '$.flows[1].uuid: duplicate of $.flows[0].uuid',
        `$.bots[1].environmentUuid: environment ${missingEnvironment} is neither in this file nor in the database`,
      ]);
      await expect(result).rejects.toThrow('Import rejected, nothing was written: 16 reasons');
    });
  });

  it('rejects a file that is not an object', async () => {
    const result = sut.import([]);

    await expectRejected(result, ['$: must be an object']);
  });
});
