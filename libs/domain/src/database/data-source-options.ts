import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from './database-config';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './snake-naming.strategy';

/** Per connection. mysql2 preallocates its statement cache at this size. */
export const MAX_PREPARED_STATEMENTS = 64;

export interface DataSourceTuning {
  /** Run pending migrations on connect: the embedded default does, MySQL leaves it to `migration:run`. */
  migrationsRun?: boolean;
  logging?: boolean;
}

/** Options shared by the apps, the CLI and the TypeORM CLI. Never `synchronize`: migrations only. */
export function buildDataSourceOptions(config: DatabaseConfig, tuning: DataSourceTuning = {}): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    namingStrategy: new SnakeNamingStrategy(),
    synchronize: false,
    logging: tuning.logging ?? false,
  } as const;

  if (config.type === 'sqlite') {
    mkdirSync(dirname(config.path), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: config.path,
      enableWAL: true,
      // Writers from the three apps share the file: wait for a lock instead of failing at once.
      timeout: 10_000,
      migrationsRun: tuning.migrationsRun ?? true,
    };
  }

  const server = {
    connectorPackage: 'mysql2',
    // Dates are read and written in UTC whatever the server's or the host's time zone.
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    connectTimeout: 5_000,
    // A transaction's deferred writes go with its next statement as one text (ServerTransaction). Every value is
    // bound by mysql2, never spliced into SQL, so the texts are the platform's own (docs/decisions.md, "Data access").
    multipleStatements: true,
    extra: {
      connectionLimit: 10,
      enableKeepAlive: true,
      // TypeORM sends text queries, never prepared statements; mysql2's default cache of 16,000 statements
      // preallocates 0.5 MB of arrays per connection, 5 MB per pool of 10.
      maxPreparedStatements: MAX_PREPARED_STATEMENTS,
    },
  } as const;

  // The replicas (config.readUrls) are not TypeORM's: ReadReplicas keeps their pools (Database, "Read replicas").
  return {
    ...common,
    ...server,
    type: config.type,
    url: config.url,
    migrationsRun: tuning.migrationsRun ?? false,
  };
}
