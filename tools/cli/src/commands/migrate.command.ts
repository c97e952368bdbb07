import { AppConfig } from '@app/platform';
import { openDataSource } from '../open-data-source';

/** `npm run migration:run`: applies pending migrations, each in its own transaction. */
export async function migrate(config: AppConfig): Promise<void> {
  const dataSource = await openDataSource(config.database);
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    console.log(applied.length ? `Applied ${applied.map((m) => m.name).join(', ')}` : 'No pending migrations');
  } finally {
    await dataSource.destroy();
  }
}

/** `npm run migration:revert`: reverts the last applied migration. */
export async function revertMigration(config: AppConfig): Promise<void> {
  const dataSource = await openDataSource(config.database);
  try {
    await dataSource.undoLastMigration({ transaction: 'each' });
    console.log('Reverted the last migration');
  } finally {
    await dataSource.destroy();
  }
}
