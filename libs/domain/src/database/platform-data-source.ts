import { DataSource } from 'typeorm';
import { MYSQL_COLUMN_OVERRIDES } from './columns';

/**
 * The DataSource of the platform. Its one difference from TypeORM's: on MySQL the marked columns take
 * their MySQL-only type or collation (MEDIUMTEXT for large text, utf8mb4_bin for byte-exact keys),
 * which SQLite does not know. Used by the apps, the CLI and the TypeORM CLI alike, so the entities and
 * the migrations always agree.
 */
export class PlatformDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'mysql' && this.options.type !== 'mariadb') return;
    for (const metadata of this.entityMetadatas) {
      for (const column of metadata.columns) {
        const override = MYSQL_COLUMN_OVERRIDES.find((mark) => mark.target === metadata.target && mark.propertyName === column.propertyName);
        if (override?.type) column.type = override.type;
        if (override?.collation) column.collation = override.collation;
      }
    }
  }
}
