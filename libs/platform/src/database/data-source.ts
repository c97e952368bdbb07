import { loadAppConfig } from '../config/app-config';
import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';

/** Entry point of the TypeORM CLI (`npm run migration:generate -- <path>`), reading DATABASE_URL. */
export default new PlatformDataSource(buildDataSourceOptions(loadAppConfig(process.env).database, { migrationsRun: false }));
