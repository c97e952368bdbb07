import {
  BATCH_LIMIT_BYTES,
  buildDataSourceOptions,
  Database,
  openDatabase,
  DatabaseDeadlineError,
  DatabaseConfig,
  ORGANIZATION_ROWS,
  PlatformDataSource,
  ServerConnection,
  Transaction,
} from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { ReplicationPair, startReplicationPair } from '../support/mariadb-replication';
import { sqliteTestConfig } from '../support/test-config';
import { createMigratedDatabase, dropDatabase, uniqueDatabaseName } from '../support/test-database';

const A = '0199bbbb-0000-7000-8000-00000000000a';
const B = '0199bbbb-0000-7000-8000-00000000000b';

function describeDatabase(engine: string, configOf: () => Promise<{ config: DatabaseConfig; drop?: () => Promise<void> }>) {
  describe(`Database on ${engine}`, () => {
    const DUPLICATE = engine === 'SQLite' ? 'SQLITE_CONSTRAINT_PRIMARYKEY' : 'ER_DUP_ENTRY';
    let dataSource: PlatformDataSource;
    let db: Database;
    let drop: (() => Promise<void>) | undefined;
    const names = async () =>
      (await db.rows<{ uuid: string; name: string }>('SELECT uuid, name FROM organizations ORDER BY uuid', [], 'primary')).map(
        (row) => `${row.uuid.slice(-1)}:${row.name}`,
      );
    const count = async () => Number((await db.rows<{ n: number }>('SELECT COUNT(*) AS n FROM organizations', [], 'primary'))[0].n);

    beforeAll(async () => {
      const target = await configOf();
      drop = target.drop;
      dataSource = new PlatformDataSource(buildDataSourceOptions(target.config, { migrationsRun: true }));
      await dataSource.initialize();
      db = openDatabase(dataSource);
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
        tx.defer.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }], ['uuid']);
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
          tx.defer.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }], ['uuid']);
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
        tx.defer.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: `Acme ${runs}` }], ['uuid']);
        if (runs === 1) throw deadlock;
      });
      expect(runs).toBe(2);
      expect(await names()).toEqual(['a:Acme 2']);
    });

    it('fails a unit of work whose insert fails, keeping nothing of it, nor of what came after the insert', async () => {
      await expect(
        db.transaction(async (tx) => {
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme again' }]);
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: B, name: 'Globex' }]);
        }),
      ).rejects.toMatchObject({ code: engine === 'SQLite' ? 'SQLITE_CONSTRAINT_PRIMARYKEY' : 'ER_DUP_ENTRY' });
      expect(await names()).toEqual([]);
    });

    it('fails the rest of a unit of work, and its commit, once a write failed, also when the work caught the error', async () => {
      await expect(
        db.transaction(async (tx) => {
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme again' }]);
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: B, name: 'Globex' }]);
          // The duplicate's error comes here, at the next statement that answers, where the work does not expect it.
          await tx.run('UPDATE organizations SET name = ? WHERE uuid = ?', ['Acme renamed', A]).catch(() => undefined);
        }),
      ).rejects.toMatchObject({ code: engine === 'SQLite' ? 'SQLITE_CONSTRAINT_PRIMARYKEY' : 'ER_DUP_ENTRY' });
      expect(await names()).toEqual([]);
    });

    it("throws a deferred write's error at the next statement that answers, never at the write, also when its batch went ahead alone", async () => {
      // Past one batch: on a MariaDB server the duplicate goes ahead in a batch of its own, sent while the work defers more.
      const rows = Array.from({ length: 6_000 }, (_, n) => ({
        uuid: `0199dddd-0000-7000-8000-${String(n).padStart(12, '0')}`,
        name: `${n} ${'z'.repeat(250)}`,
      }));
      const seen: string[] = [];
      await expect(
        db.transaction(async (tx) => {
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);
          tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme again' }]);
          for (let start = 0; start < rows.length; start += 500) tx.defer.insert(ORGANIZATION_ROWS, rows.slice(start, start + 500));
          seen.push('every write deferred');
          await tx.rows('SELECT 1 AS one').catch((error: unknown) => {
            seen.push(`the next statement failed: ${(error as { code?: string }).code}`);
            throw error;
          });
        }),
      ).rejects.toMatchObject({ code: DUPLICATE });
      expect(seen).toEqual(['every write deferred', `the next statement failed: ${DUPLICATE}`]);
      expect(await count()).toBe(0);
    });

    it('answers reads in a unit of work with every insert made before them, in order', async () => {
      const seen = await db.transaction(async (tx) => {
        tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);
        const renamed = await tx.run('UPDATE organizations SET name = ? WHERE uuid = ?', ['Acme renamed', A]);
        tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: B, name: 'Globex' }]);
        return { renamed, rows: await tx.rows<{ name: string }>('SELECT name FROM organizations ORDER BY uuid') };
      });
      expect(seen).toEqual({ renamed: 1, rows: [{ name: 'Acme renamed' }, { name: 'Globex' }] });
    });

    it(`commits, or rolls back, inserts larger than one batch (${BATCH_LIMIT_BYTES} characters) whole`, async () => {
      const rows = Array.from({ length: 6_000 }, (_, n) => ({
        uuid: `0199bbbb-0000-7000-8000-${String(n).padStart(12, '0')}`,
        name: `${n} ${'x'.repeat(250)}`,
      }));
      const insertAll = async (tx: Transaction) => {
        for (let start = 0; start < rows.length; start += 500) tx.defer.insert(ORGANIZATION_ROWS, rows.slice(start, start + 500));
      };
      const failure = new Error('a rule broke after the writes');
      await expect(
        db.transaction(async (tx) => {
          await insertAll(tx);
          throw failure;
        }),
      ).rejects.toBe(failure);
      expect(await count()).toBe(0);
      await db.transaction(insertAll);
      expect(await count()).toBe(rows.length);
    });

    it('commits writes that each exceed one batch, one after another', async () => {
      // Each INSERT alone is over the limit: the first goes alone, and the second must not send an empty batch first.
      const big = (n: number) =>
        Array.from({ length: 2_500 }, (_, k) => ({ uuid: `0199bbbb-0000-7000-8${n}00-${String(k).padStart(12, '0')}`, name: 'y'.repeat(250) }));
      await db.transaction(async (tx) => {
        tx.defer.insert(ORGANIZATION_ROWS, big(1));
        tx.defer.insert(ORGANIZATION_ROWS, big(2));
        tx.defer.insert(ORGANIZATION_ROWS, big(3));
      });
      expect(await count()).toBe(7_500);
    });

    it('sends an insert larger than one batch alone after a statement that answered (no empty batch)', async () => {
      const rows = Array.from({ length: 3_000 }, (_, n) => ({
        uuid: `0199cccc-0000-7000-8000-${String(n).padStart(12, '0')}`,
        name: `${n} ${'y'.repeat(250)}`,
      }));
      await db.transaction(async (tx) => {
        await tx.rows('SELECT 1 AS one');
        tx.defer.insert(ORGANIZATION_ROWS, rows);
      });
      expect(await count()).toBe(rows.length);
    });
  });
}

describeDatabase('SQLite', async () => ({ config: sqliteTestConfig().database }));
describeDatabase('MariaDB', async () => {
  const name = uniqueDatabaseName('platform_db_helper');
  return { config: parseServerUrl(await createMigratedDatabase(name)), drop: () => dropDatabase(name) };
});

describe("A MariaDB transaction's round trips", () => {
  const name = uniqueDatabaseName('platform_db_batches');
  let dataSource: PlatformDataSource;
  let db: Database;

  beforeAll(async () => {
    dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(await createMigratedDatabase(name))));
    await dataSource.initialize();
    db = openDatabase(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(name);
  });

  /** The texts the transaction sent to the server, one per round trip. */
  async function roundTrips(work: (tx: Transaction) => Promise<unknown>): Promise<string[]> {
    const sent = jest.spyOn(ServerConnection.prototype, 'query');
    try {
      await db.transaction(work);
      return sent.mock.calls.map(([sql]) => sql.replace(/\s+/g, ' ').replace(/\(.*?\)/g, '()'));
    } finally {
      sent.mockRestore();
    }
  }

  it('sends inserts with the next statement that answers, and the last ones with the COMMIT', async () => {
    const texts = await roundTrips(async (tx) => {
      tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);
      await tx.run('UPDATE organizations SET name = ? WHERE uuid = ?', ['Acme renamed', A]);
      tx.defer.insert(ORGANIZATION_ROWS, [{ uuid: B, name: 'Globex' }]);
      tx.defer.upsert(ORGANIZATION_ROWS, [{ uuid: B, name: 'Globex renamed' }], ['uuid']);
    });
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/^START TRANSACTION; INSERT INTO organizations .*; UPDATE organizations SET name = \? WHERE uuid = \?$/);
    expect(texts[1]).toMatch(/^INSERT INTO organizations .*; INSERT INTO organizations .* ON DUPLICATE KEY UPDATE .*; COMMIT$/);
    expect(await db.rows('SELECT name FROM organizations ORDER BY uuid', [], 'primary')).toEqual([{ name: 'Acme renamed' }, { name: 'Globex renamed' }]);
  });
});

describe("A MariaDB transaction's deadline", () => {
  const name = uniqueDatabaseName('platform_db_deadline');
  let dataSource: PlatformDataSource;
  let db: Database;

  beforeAll(async () => {
    dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(await createMigratedDatabase(name))));
    await dataSource.initialize();
    db = openDatabase(dataSource, { statementTimeoutMs: 1_000 });
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await dropDatabase(name);
  });

  it('stops, on the server, a batch that waits for a lock past the deadline: its COMMIT never runs', async () => {
    await db.insert(ORGANIZATION_ROWS, [{ uuid: A, name: 'Acme' }]);
    const locker = dataSource.createQueryRunner();
    await locker.startTransaction();
    await locker.query('SELECT uuid FROM organizations WHERE uuid = ? FOR UPDATE', [A]);
    try {
      // The upsert waits for the row's lock; it is sent with the COMMIT, in one text.
      await expect(
        db.transaction(async (tx) => {
          tx.defer.upsert(ORGANIZATION_ROWS, [{ uuid: A, name: 'written after the deadline' }], ['uuid']);
        }),
      ).rejects.toBeInstanceOf(DatabaseDeadlineError);
      // Killed: the waiting statement is gone from the server while the lock is still held.
      await until(async () => {
        const waiting = await locker.query(
          "SELECT COUNT(*) AS n FROM information_schema.processlist WHERE info LIKE '%written after the deadline%' AND id <> CONNECTION_ID()",
        );
        return Number(waiting[0].n) === 0;
      });
    } finally {
      await locker.rollbackTransaction();
      await locker.release();
    }
    expect(await db.rows('SELECT name FROM organizations WHERE uuid = ?', [A], 'primary')).toEqual([{ name: 'Acme' }]);
  });
});

describe('A MariaDB server whose sql_mode has NO_BACKSLASH_ESCAPES', () => {
  let pair: ReplicationPair | undefined;
  afterAll(() => pair?.close());

  it('is refused at start: the driver escapes quotes with a backslash, which that mode reads as a character', async () => {
    pair = await startReplicationPair({ name: 'sql-mode' });
    await pair.primary.query("SET GLOBAL sql_mode = CONCAT(@@GLOBAL.sql_mode, ',NO_BACKSLASH_ESCAPES')");
    const dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(pair.primary.url('mysql'))));

    await expect(dataSource.initialize()).rejects.toThrow(/sql_mode has NO_BACKSLASH_ESCAPES.*remove it/);
    expect(dataSource.isInitialized).toBe(false);
  });
});

/** Resolves once `check` answers true; fails the test after 10 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) if (await check()) return;
  throw new Error('the condition did not hold within 10 s');
}
