import { DataSource, EntityManager } from 'typeorm';

/**
 * Where a read goes when DATABASE_READ_URLS lists replicas. Plain reads go to a replica; the reads a
 * write depends on (does the bot exist, which version is current, is the key taken) go to the primary,
 * which always has the latest committed state. Without replicas both are the one database.
 */
export type ReadFrom = 'replica' | 'primary';

export async function readFrom<T>(dataSource: DataSource, from: ReadFrom, read: (manager: EntityManager) => Promise<T>): Promise<T> {
  if (from === 'replica') return read(dataSource.manager);
  const runner = dataSource.createQueryRunner('master');
  try {
    return await read(runner.manager);
  } finally {
    await runner.release();
  }
}
