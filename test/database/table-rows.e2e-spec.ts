import {
  BOT_ROWS,
  buildDataSourceOptions,
  CONNECTOR_CONTENT_ROWS,
  Database,
  openDatabase,
  DatabaseConfig,
  ENVIRONMENT_ROWS,
  FLOW_CONNECTOR_ROWS,
  FLOW_ROWS,
  IDEMPOTENCY_KEY_ROWS,
  ORGANIZATION_ROWS,
  PlatformDataSource,
  REST_CONNECTOR_ROWS,
  REST_CONNECTOR_TAG_ROWS,
  REST_CONNECTOR_VERSION_ROWS,
  RestConnector,
  AuthType,
  ContentType,
  RequestType,
  TableRows,
  Environment,
  IdempotencyKey,
  ColumnKind,
  CONNECTOR_EVENT_ROWS,
  CONNECTOR_EVENT_RELAY_ROWS,
  CONNECTOR_TEST_RUN_ROWS,
  CONNECTOR_VARIABLE_ROWS,
  CONNECTOR_VARIABLE_SET_ROWS,
  CONNECTOR_VARIABLE_SET_VERSION_ROWS,
  CONNECTOR_PROMOTION_ROWS,
  ConnectorTestRun,
  RecordedTestRunOutcome,
} from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { aStoredConnector } from '../../apps/transactional-service/src/rest-connectors/testing/connector-factories';
import { EntitySchema, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { sqliteTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';

const EVERY_TABLE_ROWS: Array<TableRows<any, any>> = [
  ORGANIZATION_ROWS,
  ENVIRONMENT_ROWS,
  BOT_ROWS,
  FLOW_ROWS,
  FLOW_CONNECTOR_ROWS,
  REST_CONNECTOR_ROWS,
  REST_CONNECTOR_TAG_ROWS,
  REST_CONNECTOR_VERSION_ROWS,
  CONNECTOR_CONTENT_ROWS,
  IDEMPOTENCY_KEY_ROWS,
  CONNECTOR_EVENT_ROWS,
  CONNECTOR_EVENT_RELAY_ROWS,
  CONNECTOR_TEST_RUN_ROWS,
  CONNECTOR_VARIABLE_ROWS,
  CONNECTOR_VARIABLE_SET_ROWS,
  CONNECTOR_VARIABLE_SET_VERSION_ROWS,
  CONNECTOR_PROMOTION_ROWS,
];

/** The kind a TableRows must have for a TypeORM column. */
function kindOf(column: ColumnMetadata): ColumnKind {
  if (column.transformer) return 'json';
  if (column.type === 'datetime') return 'date';
  if (column.type === 'boolean') return 'bool';
  if (column.type === 'int' || column.type === 'integer' || column.type === 'bigint') return 'int';
  return 'text';
}

const NOW = new Date('2026-11-23T08:09:10.123Z');
const ORG = '0199aaaa-0000-7000-8000-000000000001';
const ENV = '0199aaaa-0000-7000-8000-000000000002';
const BOT = '0199aaaa-0000-7000-8000-000000000003';

const anEnvironment = (uuid: string): Omit<Environment, 'organization'> => ({
  uuid,
  organizationUuid: ORG,
  name: 'Production',
  removed: true,
  instanceUuid: null,
  instanceName: 'eu-1',
  channelInstanceUuid: null,
  channelInstanceName: null,
  connectorInstanceUuid: null,
  connectorInstanceName: null,
  dns: 'bots.example.com',
  apiURL: 'https://api.example.com',
  channelApiUrl: null,
  connectorApiUrl: null,
  applications: [{ name: 'crm', version: '2.1', properties: { region: 'eu' } }],
  permissions: ['read', 'write'],
});

const aConnector = (uuid: string, name: string): RestConnector =>
  aStoredConnector({
    uuid,
    botUuid: BOT,
    name,
    activeNameKey: null,
    description: 'with ümlauts and 🚀',
    requestType: RequestType.POST,
    url: 'https://api.example.com/{{path}}',
    headers: [{ header: 'Accept', value: 'application/json' }],
    contentType: ContentType.APPLICATION_JSON,
    authType: AuthType.AUTH_BEARER,
    bearerToken: 'sealed',
    body: '{"a": 1}',
    createdAt: NOW,
    createdBy: 'ada',
    updatedAt: new Date(NOW.getTime() + 1),
    updatedBy: 'ada',
    deletedAt: new Date(NOW.getTime() + 999),
    deletedBy: 'bob',
    version: 7,
    tagsJson: [{ name: 'Shop' }, { name: 'ÄrGER 🚀' }],
    tagKeys: 'shop\närger 🚀',
    flowsJson: [{ uuid: '0199aaaa-0000-7000-8000-0000000000f1', name: 'Orders' }],
  });

const aKey = (idempotencyKey: string, responseBody: IdempotencyKey['responseBody']): IdempotencyKey => ({
  callerSub: 'alice',
  idempotencyKey,
  fingerprint: 'f'.repeat(64),
  state: 'completed',
  responseStatus: 201,
  responseBody,
  lockedAt: NOW,
  expiresAt: new Date(NOW.getTime() + 86_400_000),
});

const aTestRun = (uuid: string, connectorUuid: string | null): ConnectorTestRun => ({
  uuid,
  organizationUuid: ORG,
  environmentUuid: ENV,
  botUuid: BOT,
  connectorUuid,
  callerSub: 'auth0|ada',
  callerUsername: 'Ada Lovelace',
  requestId: 'request-1',
  destinationHost: '[2001:db8::1]:8443',
  outcome: connectorUuid === null ? RecordedTestRunOutcome.CANCELLED : RecordedTestRunOutcome.HTTP_ERROR,
  httpStatus: connectorUuid === null ? null : 503,
  durationMs: 1234,
  startedAt: NOW,
});

/**
 * On one engine: the converters have the columns TypeORM made of the entities, and a row written one way reads back the
 * same the other way (TableRows stores values exactly as TypeORM does).
 */
function describeOnEngine(engine: string, configOf: () => Promise<{ config: DatabaseConfig; drop?: () => Promise<void> }>) {
  describe(`on ${engine}`, () => {
    let dataSource: PlatformDataSource;
    let db: Database;
    let drop: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      const target = await configOf();
      drop = target.drop;
      dataSource = new PlatformDataSource(buildDataSourceOptions(target.config, { migrationsRun: true }));
      await dataSource.initialize();
      db = openDatabase(dataSource);
      await db.insert(ORGANIZATION_ROWS, [{ uuid: ORG, name: 'Acme' }]);
      await db.insert(ENVIRONMENT_ROWS, [anEnvironment(ENV)]);
      await db.insert(BOT_ROWS, [{ uuid: BOT, environmentUuid: ENV, name: 'Helper', image: null }]);
    });
    afterAll(async () => {
      await dataSource?.destroy();
      await drop?.();
    });

    async function roundTrip<T extends ObjectLiteral, K extends keyof T & string>(
      rows: TableRows<T, K>,
      entity: Function | EntitySchema<T>,
      written: Pick<T, K>,
      other: Pick<T, K>,
      where: (value: Pick<T, K>) => Record<string, unknown>,
    ) {
      // TableRows writes, TypeORM reads.
      await db.insert(rows, [written]);
      expect(await dataSource.getRepository<T>(entity as any).findOneBy(where(written) as any)).toEqual(expect.objectContaining(written));
      // TypeORM writes, TableRows reads.
      await dataSource.getRepository<T>(entity as any).insert(other as any);
      const conditions = Object.entries(where(other));
      const [row] = await db.rows(
        `SELECT ${rows.select('t')} FROM ${rows.table} t WHERE ${conditions.map(([property]) => `t.${rows.column(property as K)} = ?`).join(' AND ')}`,
        conditions.map(([, value]) => value),
        'primary',
      );
      expect(rows.from(row)).toEqual(other);
    }

    it('declares every table of the entities once', () => {
      const tables = dataSource.entityMetadatas.map((metadata) => metadata.tableName).sort();
      expect(EVERY_TABLE_ROWS.map((rows) => rows.table).sort()).toEqual(tables);
    });

    // The converters are derived from the entities' decorators (entityRows); the DataSource is what TypeORM itself
    // makes of them on this engine (naming strategy, MySQL's column overrides).
    it.each(EVERY_TABLE_ROWS.map((rows) => [rows.table, rows] as const))('%s: every column of the entity, its property and its kind', (table, rows) => {
      const metadata = dataSource.entityMetadatas.find((candidate) => candidate.tableName === table)!;
      const byColumn = (a: { column: string }, b: { column: string }) => a.column.localeCompare(b.column);
      const expected = metadata.columns.map((column) => ({ column: column.databaseName, property: column.propertyName, kind: kindOf(column) }));
      expect([...rows.layout].sort(byColumn)).toEqual(expected.sort(byColumn));
    });

    it('converts connectors: dates to the millisecond, JSON, nulls, numbers', async () => {
      await roundTrip(
        REST_CONNECTOR_ROWS,
        RestConnector,
        aConnector('0199aaaa-0000-7000-8000-00000000000a', 'One'),
        aConnector('0199aaaa-0000-7000-8000-00000000000b', 'Two'),
        (c) => ({ uuid: c.uuid }),
      );
    });

    it('converts environments: booleans and JSON', async () => {
      await roundTrip(
        ENVIRONMENT_ROWS,
        Environment,
        anEnvironment('0199aaaa-0000-7000-8000-00000000000c'),
        { ...anEnvironment('0199aaaa-0000-7000-8000-00000000000d'), removed: false, applications: [] },
        (e) => ({ uuid: e.uuid }),
      );
    });

    it('converts test runs: a null connector and status, dates to the millisecond', async () => {
      await roundTrip(
        CONNECTOR_TEST_RUN_ROWS,
        ConnectorTestRun,
        aTestRun('0199aaaa-0000-7000-8000-00000000000e', '0199aaaa-0000-7000-8000-00000000000f'),
        aTestRun('0199aaaa-0000-7000-8000-000000000010', null),
        (run) => ({ uuid: run.uuid }),
      );
    });

    it('converts idempotency keys: a JSON answer and none', async () => {
      await roundTrip(IDEMPOTENCY_KEY_ROWS, IdempotencyKey, aKey('k1', { uuid: 'x', n: 1, ok: true, none: null }), aKey('k2', null), (k) => ({
        callerSub: k.callerSub,
        idempotencyKey: k.idempotencyKey,
      }));
    });
  });
}

describe('TableRows', () => {
  it('names no column like an SQL keyword: TableRows writes them unquoted on both engines', () => {
    // Reserved words of MySQL 8 / MariaDB and SQLite that could plausibly name a column.
    const reserved = new Set(
      (
        'add all alter and as asc between by case check column constraint create cross current_date current_time current_timestamp ' +
        'default delete desc distinct drop else exists false for foreign from full group having in index inner insert interval into is ' +
        'join key keys left like limit match natural not null of offset on or order outer primary range rank references regexp rename ' +
        'replace right row rows select set table then to true union unique update usage using values when where window with'
      ).split(' '),
    );
    const columns = EVERY_TABLE_ROWS.flatMap((rows) => rows.layout.map(({ column }) => `${rows.table}.${column}`));
    expect(columns.filter((name) => reserved.has(name.split('.')[1]))).toEqual([]);
  });

  describeOnEngine('SQLite', async () => ({ config: sqliteTestConfig().database }));
  describeOnEngine('MariaDB', async () => {
    const name = uniqueDatabaseName('platform_rows');
    return { config: parseServerUrl(await createMigratedDatabase(name)), drop: () => dropDatabase(name) };
  });
});
