import type { Pool, PoolOptions } from 'mysql2';
import { DataSource } from 'typeorm';
import { DatabaseConfig, readsReplicas } from '../database-config';
import { DEFAULT_STATEMENT_TIMEOUT_MS, ServerPool } from '../server-pool';
import { ReadReplicaOptions, ReadReplicas, Replica, ReplicaEvents } from './read-replicas';

/** What TypeORM's MysqlDriver offers to build a pool exactly as it builds the primary's. */
interface MysqlDriverInternals {
  mysql: { createPool(options: PoolOptions): Pool };
  options: unknown;
  createConnectionOptions(options: unknown, credentials: { url: string }): PoolOptions;
}

/**
 * The replicas of `config.readUrls` beside the primary of an initialized DataSource: each a pool built with
 * the primary's very options (so rows read the same from both), created lazily (a replica that is down at
 * start does not stop the app), and probed once before this answers; the probes of the primary on a
 * connection of their own. Undefined without read URLs.
 */
export async function createReadReplicas(
  dataSource: DataSource,
  config: DatabaseConfig,
  events: ReplicaEvents,
  options: ReadReplicaOptions = {},
): Promise<ReadReplicas | undefined> {
  if (!readsReplicas(config)) return undefined;
  const driver = dataSource.driver as unknown as MysqlDriverInternals;
  const deadlineMs = config.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const poolOf = (url: string, connectionLimit?: number) =>
    new ServerPool(
      // Reads only: no multi-statement texts (the primary's batches, ServerTransaction) are sent here.
      driver.mysql.createPool({
        ...driver.createConnectionOptions(driver.options, { url }),
        multipleStatements: false,
        ...(connectionLimit ? { connectionLimit } : {}),
      }),
      deadlineMs,
    );
  const replicas = config.readUrls.map((url, index) => new Replica(`replica-${index + 1}`, addressOf(url), poolOf(url)));
  const readReplicas = new ReadReplicas(replicas, poolOf(config.url, 1), events, { maxLagMs: config.replicaMaxLagMs, ...options });
  await readReplicas.start();
  return readReplicas;
}

/** host:port of a mysql:// URL, for the log: never its credentials. */
function addressOf(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port || '3306'}`;
  } catch {
    return 'an unparseable URL';
  }
}
