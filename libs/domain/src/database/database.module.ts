import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { PlatformDataSource } from './platform-data-source';

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
