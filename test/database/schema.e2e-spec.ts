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

/** The migrations alone build exactly the schema the entities describe, and revert cleanly. */
async function expectMigrationsMatchEntities(database: DatabaseConfig): Promise<void> {
  const dataSource = new PlatformDataSource(buildDataSourceOptions(database, { migrationsRun: false }));
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    expect(applied.length).toBeGreaterThan(0);

    const drift = await dataSource.driver.createSchemaBuilder().log();
    expect(drift.upQueries.map((q) => q.query)).toEqual([]);

    for (let i = 0; i < applied.length; i++) await dataSource.undoLastMigration({ transaction: 'each' });
    expect(await tablesOf(dataSource)).toEqual(['migrations']);
  } finally {
    await dataSource.destroy();
  }
}

describe('Migrations', () => {
  it("build the entities' schema on MariaDB/MySQL and revert to nothing", async () => {
    const name = uniqueDatabaseName('platform_schema');
    await createDatabase(name);
    try {
      // The mariadb flavour makes TypeORM read a MariaDB server's defaults exactly; same driver otherwise.
      await expectMigrationsMatchEntities(parseServerUrl(serverUrl(name, 'mariadb')));
    } finally {
      await dropDatabase(name);
    }
  });

  it("build the entities' schema on SQLite and revert to nothing", async () => {
    await expectMigrationsMatchEntities(sqliteTestConfig().database);
  });
});
