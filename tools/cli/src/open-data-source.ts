import { buildDataSourceOptions, DatabaseConfig, PlatformDataSource } from '@app/domain';

/** A DataSource for a command: migrations are applied explicitly, never on connect. */
export function openDataSource(database: DatabaseConfig): Promise<PlatformDataSource> {
  return new PlatformDataSource(buildDataSourceOptions(database, { migrationsRun: false })).initialize();
}
