import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildDataSourceOptions, DatabaseConfig, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { sqliteTestConfig } from '../support/test-config';
import { createDatabase, dropDatabase, serverUrl, uniqueDatabaseName } from '../support/test-database';

async function tablesOf(dataSource: PlatformDataSource): Promise<string[]> {
  const sql =
    dataSource.options.type === 'better-sqlite3'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()';
  const rows: Array<{ name: string }> = await dataSource.query(sql);
  return rows.map((row) => row.name).sort();
}

/** What the entities describe that the migrations must build: one table each, and the migrations' own. */
const entityTables = (dataSource: PlatformDataSource) => [...dataSource.entityMetadatas.map((entity) => entity.tableName), 'migrations'].sort();

/** Every migration from an empty database: exactly the tables, columns, keys and indexes the entities describe. */
async function expectEntitiesSchema(dataSource: PlatformDataSource): Promise<void> {
  expect(await tablesOf(dataSource)).toEqual(entityTables(dataSource));
  const drift = await dataSource.driver.createSchemaBuilder().log();
  expect(drift.upQueries.map((q) => q.query)).toEqual([]);
}

/**
 * The migrations alone build exactly the schema the entities describe, revert to nothing, and build it again: a
 * down() that leaves a table, an index or a key behind fails the second run or its comparison.
 */
async function expectMigrationsMatchEntities(database: DatabaseConfig): Promise<void> {
  const dataSource = new PlatformDataSource(buildDataSourceOptions(database, { migrationsRun: false }));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    expect(applied.map(({ name }) => name)).toEqual(dataSource.migrations.map(({ name }) => name));
    await expectEntitiesSchema(dataSource);

    for (let i = 0; i < applied.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tablesOf(dataSource)).toEqual(['migrations']);

    expect(await dataSource.runMigrations({ transaction: 'each' })).toHaveLength(applied.length);
    await expectEntitiesSchema(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

describe('Migrations', () => {
  it("build the entities' schema on MariaDB/MySQL, revert to nothing and build it again", async () => {
    const name = uniqueDatabaseName('platform_schema');
    await createDatabase(name);
    try {
      // The mariadb flavour makes TypeORM read a MariaDB server's defaults exactly; same driver otherwise.
      await expectMigrationsMatchEntities(parseServerUrl(serverUrl(name, 'mariadb')));
    } finally {
      await dropDatabase(name);
    }
  });

  it("build the entities' schema on SQLite (a file of its own), revert to nothing and build it again", async () => {
    const database = sqliteTestConfig().database as Extract<DatabaseConfig, { type: 'sqlite' }>;
    try {
      await expectMigrationsMatchEntities(database);
    } finally {
      rmSync(dirname(database.path), { recursive: true, force: true });
    }
  });
});
