import { DataSource } from 'typeorm';
import { LARGE_TEXT_COLUMNS } from './columns';

/**
 * The DataSource of the platform. Its one difference from TypeORM's: on MySQL the columns marked
 * with LargeTextColumn/LargeJsonColumn become MEDIUMTEXT, which SQLite does not know and TEXT
 * (65,535 bytes) is too small for (a connector body may be 64 KiB). Used by the apps, the CLI
 * and the TypeORM CLI alike, so the entities and the migrations always agree.
 */
export class PlatformDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'mysql' && this.options.type !== 'mariadb') return;
    for (const metadata of this.entityMetadatas) {
      for (const column of metadata.columns) {
        const large = LARGE_TEXT_COLUMNS.some(
          (mark) => mark.target === metadata.target && mark.propertyName === column.propertyName,
        );
        if (large) column.type = 'mediumtext';
      }
    }
  }
}
