import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseConfig } from '@app/domain';
import { buildDataSourceOptions } from '@app/domain';
import { PlatformDataSource } from '@app/domain';

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
