import { createMigratedDatabase, TEST_MYSQL_SERVER, uniqueDatabaseName } from './test-database';

export default async function globalSetup(): Promise<void> {
  const name = uniqueDatabaseName('platform_test');
  try {
    process.env.TEST_DATABASE_URL = await createMigratedDatabase(name);
  } catch (error) {
    throw new Error(
      `The end-to-end tests need MariaDB/MySQL at ${TEST_MYSQL_SERVER} (set TEST_MYSQL_SERVER to change it): ${String(error)}`,
    );
  }
  process.env.TEST_DATABASE_NAME = name;
}
