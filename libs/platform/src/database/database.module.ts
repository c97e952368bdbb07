import { DynamicModule, Global, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { buildDataSourceOptions, createReadReplicas, Database, DatabaseConfig, openDatabase, PlatformDataSource, ReadReplicas } from '@app/domain';
import { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { PlatformMetrics } from '../metrics/metrics';
import { WRITE_POSITIONS } from './read-your-writes';
import { replicaEvents } from './replica-events';
import { WritePositions } from './write-positions';

export const READ_REPLICAS = Symbol('READ_REPLICAS');

/** How long a caller's last write is remembered beyond the lag bound: longer than a probe sees a lag late. */
const WRITE_POSITION_MARGIN_MS = 60_000;

/** Stops the replicas' probes and pools, and the write positions' Redis connection, with the app. */
class DatabaseShutdown implements OnApplicationShutdown {
  constructor(
    @Optional() @Inject(READ_REPLICAS) private readonly replicas: ReadReplicas | null,
    @Optional() @Inject(WRITE_POSITIONS) private readonly positions: WritePositions | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.replicas?.stop();
    await this.positions?.close();
  }
}

/**
 * The database of an app: TypeORM's DataSource (schema, migrations, the primary's pool), the read replicas
 * with their probes, the Database every repository uses, and where callers' writes are remembered
 * (read-your-writes). Global: DomainModule's repositories inject Database from here.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(config: DatabaseConfig, options: { logger: Logger; metrics: PlatformMetrics; redisUrl?: string }): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => buildDataSourceOptions(config),
          dataSourceFactory: async (dataSourceOptions) => new PlatformDataSource(dataSourceOptions!).initialize(),
        }),
      ],
      providers: [
        {
          provide: READ_REPLICAS,
          inject: [getDataSourceToken()],
          useFactory: async (dataSource: DataSource) => {
            return (await createReadReplicas(dataSource, config, replicaEvents(options.logger, options.metrics))) ?? null;
          },
        },
        {
          provide: Database,
          inject: [getDataSourceToken(), READ_REPLICAS],
          useFactory: (dataSource: DataSource, replicas: ReadReplicas | null) =>
            openDatabase(dataSource, { statementTimeoutMs: config.type === 'sqlite' ? undefined : config.statementTimeoutMs, replicas: replicas ?? undefined }),
        },
        {
          provide: WRITE_POSITIONS,
          inject: [READ_REPLICAS],
          useFactory: async (replicas: ReadReplicas | null) => {
            if (!replicas) return null;
            return WritePositions.connect(replicas.maxLagMs + WRITE_POSITION_MARGIN_MS, options.redisUrl, replicas, options.logger);
          },
        },
        DatabaseShutdown,
      ],
      exports: [Database, READ_REPLICAS, WRITE_POSITIONS],
    };
  }
}
