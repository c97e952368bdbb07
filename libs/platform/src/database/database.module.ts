import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { buildDataSourceOptions, DatabaseConfig, PlatformDataSource } from '@app/domain';

@Module({})
export class DatabaseModule {
  static forRoot(config: DatabaseConfig): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => buildDataSourceOptions(config),
          dataSourceFactory: async (options) => new PlatformDataSource(options!).initialize(),
        }),
      ],
    };
  }
}
