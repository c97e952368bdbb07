import { buildDataSourceOptions, Database, DatabaseConfig, ORGANIZATION_ROWS, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { sqliteTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';

const A = '0199bbbb-0000-7000-8000-00000000000a';
const B = '0199bbbb-0000-7000-8000-00000000000b';

function describeDatabase(engine: string, configOf: () => Promise<{ config: DatabaseConfig; drop?: () => Promise<void> }>) {
  describe(`Database on ${engine}`, () => {
    let dataSource: PlatformDataSource;
    let db: Database;
    let drop: (() => Promise<void>) | undefined;
    const names = async () =>
      (await db.rows<{ uuid: string; name: string }>('SELECT uuid, name FROM organizations ORDER BY uuid', [], 'primary')).map(
        (row) => `${row.uuid.slice(-1)}:${row.name}`,
      );

    beforeAll(async () => {
      const target = await configOf();
      drop = target.drop;
      dataSource = new PlatformDataSource(buildDataSourceOptions(target.config, { migrationsRun: true }));
      await dataSource.initialize();
      db = new Database(dataSource);
    });
    afterAll(async () => {
      await dataSource?.destroy();
      await drop?.();
    });
    beforeEach(() => db.run('DELETE FROM organizations'));

    it('answers how many rows a statement changed', async () => {
      await db.upsert(
        ORGANIZATION_ROWS,
        [
          { uuid: A, name: 'Acme' },
          { uuid: B, name: 'Globex' },
        ],
        ['uuid'],
      );
      expect(await db.run('UPDATE organizations SET name = ? WHERE uuid = ?', ['Acme 2', A])).toBe(1);
      expect(await db.run('UPDATE organizations SET name = ? WHERE uuid = ?', ['None', '0199bbbb-0000-7000-8000-0000000000ff'])).toBe(0);
    });

    it('upserts: inserts new rows and overwrites the other columns of existing ones', async () => {
      await db.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }], ['uuid']);
      await db.upsert(
        ORGANIZATION_ROWS,
        [
          { uuid: A, name: 'Acme renamed' },
          { uuid: B, name: 'Globex' },
        ],
        ['uuid'],
      );
      expect(await names()).toEqual(['a:Acme renamed', 'b:Globex']);
    });

    it('commits a unit of work whole', async () => {
      await db.transaction(async (tx) => {
        await tx.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }], ['uuid']);
        await tx.run('UPDATE organizations SET name = ? WHERE uuid = ?', ['Acme in tx', A]);
        expect(await tx.rows('SELECT name FROM organizations WHERE uuid = ?', [A])).toEqual([{ name: 'Acme in tx' }]);
      });
      expect(await names()).toEqual(['a:Acme in tx']);
    });

    it('rolls a unit of work back whole when it throws, and does not run it again', async () => {
      let runs = 0;
      const failure = new Error('a rule broke after the first write');
      await expect(
        db.transaction(async (tx) => {
          runs += 1;
          await tx.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }], ['uuid']);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(runs).toBe(1);
      expect(await names()).toEqual([]);
    });

    it('runs a unit of work again whole when the database aborts it for a lock conflict', async () => {
      let runs = 0;
      const deadlock = Object.assign(new Error('Deadlock found when trying to get lock'), { code: engine === 'SQLite' ? 'SQLITE_BUSY' : 'ER_LOCK_DEADLOCK' });
      await db.transaction(async (tx) => {
        runs += 1;
        await tx.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: `Acme ${runs}` }], ['uuid']);
        if (runs === 1) throw deadlock;
      });
      expect(runs).toBe(2);
      expect(await names()).toEqual(['a:Acme 2']);
    });
  });
}

describeDatabase('SQLite', async () => ({ config: sqliteTestConfig().database }));
describeDatabase('MariaDB', async () => {
  const name = uniqueDatabaseName('platform_db_helper');
  return { config: parseServerUrl(await createMigratedDatabase(name)), drop: () => dropDatabase(name) };
});
