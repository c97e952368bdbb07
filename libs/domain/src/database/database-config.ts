/** Where the platform's data lives: a MySQL-compatible server (with optional read replicas) or an embedded SQLite file. */
export type DatabaseConfig =
  /** `mariadb` only makes TypeORM introspect a MariaDB server exactly; both speak through mysql2. */
  | {
      type: 'mysql' | 'mariadb';
      url: string;
      readUrls: string[];
      /** DATABASE_REPLICA_MAX_LAG_MS: a replica further behind serves no reads. */
      replicaMaxLagMs?: number;
      /** DATABASE_STATEMENT_TIMEOUT_MS: each statement, and the wait for a connection. */
      statementTimeoutMs?: number;
    }
  | { type: 'sqlite'; path: string };

/** Whether plain reads go to replicas (DATABASE_READ_URLS on a server database): what read-your-writes needs then. */
export function readsReplicas(config: DatabaseConfig): config is Extract<DatabaseConfig, { type: 'mysql' | 'mariadb' }> {
  return config.type !== 'sqlite' && config.readUrls.length > 0;
}
