import { buildDataSourceOptions, MAX_PREPARED_STATEMENTS, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import type { MysqlDriver } from 'typeorm/driver/mysql/MysqlDriver';

interface Mysql2PoolConnection {
  _statements: { max: number };
  release(): void;
}

/** What the apps' MySQL pool hands out, read off mysql2's own connections. */
describe('MySQL connection pool', () => {
  let dataSource: PlatformDataSource;

  beforeAll(async () => {
    dataSource = await new PlatformDataSource(buildDataSourceOptions(parseServerUrl(process.env.TEST_DATABASE_URL!), { migrationsRun: false })).initialize();
  });
  afterAll(() => dataSource.destroy());

  it("caps mysql2's prepared-statement cache, which it preallocates per connection (16,000 entries by default)", async () => {
    const pool = (dataSource.driver as MysqlDriver).pool as {
      getConnection(callback: (error: Error | null, connection: Mysql2PoolConnection) => void): void;
    };
    const connection = await new Promise<Mysql2PoolConnection>((resolve, reject) =>
      pool.getConnection((error, acquired) => (error ? reject(error) : resolve(acquired))),
    );
    try {
      expect(connection._statements.max).toBe(MAX_PREPARED_STATEMENTS);
      expect(MAX_PREPARED_STATEMENTS).toBeLessThan(1_000);
    } finally {
      connection.release();
    }
  });
});
