// Relative imports: jest's moduleNameMapper does not apply to globalSetup, which loads this file.
import { parseServerUrl } from '../../libs/platform/src/config/app-config';
import { buildDataSourceOptions } from '../../libs/domain/src/database/data-source-options';
import { PlatformDataSource } from '../../libs/domain/src/database/platform-data-source';
import { createConnection } from 'mysql2/promise';

/** The server the e2e tests use; CI and the README use MariaDB at 127.0.0.1:3306 as root. */
export const TEST_MYSQL_SERVER = process.env.TEST_MYSQL_SERVER ?? 'mysql://root@127.0.0.1:3306';

/** `server` defaults to the suite's server; mariadb-replication.ts passes its own primary. */
export function serverUrl(database: string, scheme: 'mysql' | 'mariadb' = 'mysql', server = TEST_MYSQL_SERVER): string {
  return `${server.replace(/^mysql:/, `${scheme}:`)}/${database}`;
}

export async function createDatabase(name: string, server = TEST_MYSQL_SERVER): Promise<void> {
  const connection = await createConnection({ uri: server, connectTimeout: 5_000 });
  try {
    await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await connection.end();
  }
}

export async function dropDatabase(name: string): Promise<void> {
  const connection = await createConnection({ uri: TEST_MYSQL_SERVER, connectTimeout: 5_000 });
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await connection.end();
  }
}

export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Creates a database and applies the real migrations to it (on the suite's server unless `server` says another). */
export async function createMigratedDatabase(name: string, server = TEST_MYSQL_SERVER): Promise<string> {
  await createDatabase(name, server);
  const url = serverUrl(name, 'mysql', server);
  const dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(url), { migrationsRun: false }));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
  return url;
}
