import { DataSource } from 'typeorm';
import { MYSQL_COLUMN_OVERRIDES } from './columns';

/**
 * The DataSource of the platform. Its one difference from TypeORM's: on MySQL the marked columns take
 * their MySQL-only type or collation (MEDIUMTEXT for large text, utf8mb4_bin for byte-exact keys),
 * which SQLite does not know. Used by the apps, the CLI and the TypeORM CLI alike, so the entities and
 * the migrations always agree.
 */
export class PlatformDataSource extends DataSource {
  /** On a MySQL server, refuses one whose sql_mode makes mysql2's escaping unsafe (refuseUnsafeSqlMode). */
  override async initialize(): Promise<this> {
    await super.initialize();
    if (!this.onServer) return this;
    try {
      const [modes] = (await this.query('SELECT @@GLOBAL.sql_mode AS global, @@SESSION.sql_mode AS session')) as Array<{ global: string; session: string }>;
      refuseUnsafeSqlMode(modes.global, modes.session);
    } catch (error) {
      await this.destroy();
      throw error;
    }
    return this;
  }

  /** A MySQL server (MariaDB), not the embedded SQLite. */
  private get onServer(): boolean {
    return this.options.type === 'mysql' || this.options.type === 'mariadb';
  }

  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (!this.onServer) return;
    for (const metadata of this.entityMetadatas) {
      for (const column of metadata.columns) {
        const override = MYSQL_COLUMN_OVERRIDES.find((mark) => mark.target === metadata.target && mark.propertyName === column.propertyName);
        if (override?.type) column.type = override.type;
        if (override?.collation) column.collation = override.collation;
      }
    }
  }
}

/**
 * mysql2 binds a value by escaping it into the statement's text, quotes escaped with a backslash. A server whose
 * sql_mode has NO_BACKSLASH_ESCAPES reads that backslash as a character and the quote as the end of the string: a
 * value could then end its string and add SQL of its own, and with the primary's multi-statement batches
 * (ServerTransaction) whole statements. The platform does not start on such a server.
 */
export function refuseUnsafeSqlMode(...modes: string[]): void {
  if (modes.some((mode) => mode.split(',').includes('NO_BACKSLASH_ESCAPES'))) {
    throw new Error(
      "The MySQL server's sql_mode has NO_BACKSLASH_ESCAPES, with which the driver's escaping of values is not safe: " +
        "remove it from the server's sql_mode (SET GLOBAL sql_mode, and the sql_mode in its configuration) and start again",
    );
  }
}
