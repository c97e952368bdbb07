import {
  BOT_ROWS,
  buildDataSourceOptions,
  Database,
  openDatabase,
  DatabaseConfig,
  ENVIRONMENT_ROWS,
  ORGANIZATION_ROWS,
  PlatformDataSource,
  REST_CONNECTOR_ROWS,
  RestConnector,
} from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { aStoredConnector } from '../../apps/transactional-service/src/rest-connectors/testing/connector-factories';
import { CONNECTOR_ROWS as FROZEN_CONNECTOR_ROWS } from '../../libs/domain/src/database/migrations/frozen/1795564800000-table-rows';
import { sqliteTestConfig } from '../support/test-config';
import { createDatabase, dropDatabase, serverUrl, uniqueDatabaseName } from '../support/test-database';

/** A database a migration test runs on: a fresh MariaDB database, or a fresh SQLite file. */
export type MigrationTarget = () => Promise<{ config: DatabaseConfig; drop?: () => Promise<void> }>;

/** The engines every data migration is tested on, each a fresh database of its own. */
export function migrationTargets(prefix: string): Array<[engine: string, target: MigrationTarget]> {
  return [
    [
      'MariaDB',
      async () => {
        const name = uniqueDatabaseName(prefix);
        await createDatabase(name);
        return { config: parseServerUrl(serverUrl(name)), drop: () => dropDatabase(name) };
      },
    ],
    ['SQLite', async () => ({ config: sqliteTestConfig().database })],
  ];
}

/**
 * The target migrated up to just before `migration` (it and every later one undone), handed to `body` with its
 * Database, then closed and dropped: data stored as it was before the migration, which the test then runs.
 */
export async function beforeMigration(
  target: MigrationTarget,
  migration: string,
  body: (db: Database, dataSource: PlatformDataSource, undone: number) => Promise<void>,
): Promise<void> {
  const { config, drop } = await target();
  const dataSource = new PlatformDataSource(buildDataSourceOptions(config, { migrationsRun: false }));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    const undone = dataSource.migrations.length - dataSource.migrations.findIndex(({ name }) => name === migration);
    for (let i = 0; i < undone; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    await body(openDatabase(dataSource), dataSource, undone);
  } finally {
    await dataSource.destroy();
    await drop?.();
  }
}

/** An organization, its environment and its bot, as the import stores them. */
export async function insertBot(db: Database, ids: { org: string; env: string; bot: string }): Promise<void> {
  await db.insert(ORGANIZATION_ROWS, [{ uuid: ids.org, name: 'Acme' }]);
  await db.insert(ENVIRONMENT_ROWS, [
    {
      uuid: ids.env,
      organizationUuid: ids.org,
      name: 'Prod',
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
  await db.insert(BOT_ROWS, [{ uuid: ids.bot, environmentUuid: ids.env, name: 'Helper', image: null }]);
}

/** The columns rest_connectors had when the history migration was written, as its frozen copy lists them. */
const COLUMNS_BEFORE_API_KEY = new Set(FROZEN_CONNECTOR_ROWS.names.split(', '));

/**
 * The columns of rest_connectors before the API key's migration (ApiKeyAuth1795824000000): what a test of an earlier
 * migration inserts and reads. Taken from a frozen list, so that a column added later never joins them.
 */
export const CONNECTOR_ROWS_BEFORE_API_KEY = REST_CONNECTOR_ROWS.pick(
  ...REST_CONNECTOR_ROWS.layout.filter(({ column }) => COLUMNS_BEFORE_API_KEY.has(column)).map(({ property }) => property),
);

/**
 * The columns of rest_connectors before the read copy of the tags and flows (ConnectorReadCopies1796600000000): what a
 * test of an earlier migration inserts and reads.
 */
export const CONNECTOR_ROWS_BEFORE_READ_COPIES = REST_CONNECTOR_ROWS.omit('tagsJson', 'tagKeys', 'flowsJson');

/** A connector row of `bot`, as stored: a GET without authentication unless `overrides` say otherwise. */
export const aConnectorRow = (uuid: string, bot: string, at: Date, overrides: Partial<RestConnector>): RestConnector =>
  aStoredConnector({
    uuid,
    botUuid: bot,
    name: `Connector ${uuid}`,
    url: 'https://api.example.com/x',
    output: '$.x',
    createdAt: at,
    createdBy: 'ada',
    updatedAt: at,
    updatedBy: 'ada',
    ...overrides,
  });
