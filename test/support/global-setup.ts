import { join } from 'node:path';
import { createMigratedDatabase, TEST_MYSQL_SERVER, uniqueDatabaseName } from './test-database';
import { redisAnswers, TEST_REDIS_URL } from './test-redis';
import { warmWorkerScripts } from './warm-worker-scripts';

export default async function globalSetup(): Promise<void> {
  warmWorkerScripts(join(__dirname, '..', '..'));
  const name = uniqueDatabaseName('platform_test');
  try {
    process.env.TEST_DATABASE_URL = await createMigratedDatabase(name);
  } catch (error) {
    throw new Error(`The end-to-end tests need MariaDB/MySQL at ${TEST_MYSQL_SERVER} (set TEST_MYSQL_SERVER to change it): ${String(error)}`, { cause: error });
  }
  process.env.TEST_DATABASE_NAME = name;
  if (!(await redisAnswers())) {
    throw new Error(`The end-to-end tests need Redis at ${TEST_REDIS_URL} (set TEST_REDIS_URL to change it; .ci/run starts it)`);
  }
}
