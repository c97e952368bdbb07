import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { connectorSnapshot } from './frozen/1795564800000-connector-snapshot';
import { bindable, CONNECTOR_ROWS, TAG_ROWS, VERSION_ROWS, VersionRow } from './frozen/1795564800000-table-rows';

/** Connectors recorded per batch: one SELECT of connectors, one of their tags, one multi-row INSERT. */
const BATCH = 500;

/**
 * The history of connectors (rest_connector_versions), and the trash's index. Every connector that exists
 * already gets its current state as its first recorded version, numbered as its ETag: CREATED at version 1,
 * UPDATED after, DELETED when it is deleted (who and when from the row); no changed fields are known.
 */
export class ConnectorVersions1795564800000 implements MigrationInterface {
  name = 'ConnectorVersions1795564800000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    const largeText = sqlite ? 'text' : 'mediumtext';
    await queryRunner.createTable(
      new Table({
        name: 'rest_connector_versions',
        columns: [
          { name: 'connector_uuid', type: 'varchar', length: '36', isPrimary: true },
          { name: 'version', type: 'integer', isPrimary: true },
          { name: 'operation', type: 'varchar', length: '16' },
          { name: 'updated_at', type: 'datetime', precision: 3 },
          { name: 'updated_by', type: 'varchar', length: '255' },
          { name: 'updated_by_image', type: 'varchar', length: '2048', isNullable: true },
          { name: 'changed_fields', type: largeText },
          { name: 'snapshot', type: largeText },
        ],
      }),
    );
    await queryRunner.createForeignKey(
      'rest_connector_versions',
      new TableForeignKey({
        name: 'fk_rest_connector_versions_connector',
        columnNames: ['connector_uuid'],
        referencedTableName: 'rest_connectors',
        referencedColumnNames: ['uuid'],
        onDelete: 'RESTRICT',
        onUpdate: 'NO ACTION',
      }),
    );
    await queryRunner.createIndex(
      'rest_connectors',
      new TableIndex({ name: 'idx_rest_connectors_bot_deleted_at', columnNames: ['bot_uuid', 'deleted_at', 'uuid'] }),
    );
    await this.recordCurrentStates(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('rest_connectors', 'idx_rest_connectors_bot_deleted_at');
    await queryRunner.dropTable('rest_connector_versions', true, true);
  }

  /** Keyset pages over the connectors' uuids, so that each batch is an index range whatever the table's size. */
  private async recordCurrentStates(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    let after = '';
    for (;;) {
      const rows: Array<Record<string, unknown>> = await queryRunner.query(
        `SELECT ${CONNECTOR_ROWS.names} FROM rest_connectors WHERE uuid > ? ORDER BY uuid LIMIT ${BATCH}`,
        [after],
      );
      if (rows.length === 0) return;
      const connectors = rows.map((row) => CONNECTOR_ROWS.from(row));
      const tagRows: Array<Record<string, unknown>> = await queryRunner.query(
        `SELECT ${TAG_ROWS.names} FROM rest_connector_tags WHERE connector_uuid IN (${connectors.map(() => '?').join(', ')}) ORDER BY connector_uuid, position`,
        connectors.map((connector) => connector.uuid),
      );
      const tags = new Map<string, Array<{ name: string }>>();
      for (const tag of tagRows.map((row) => TAG_ROWS.from(row))) {
        tags.set(tag.connectorUuid, [...(tags.get(tag.connectorUuid) ?? []), { name: tag.name }]);
      }
      const versions: VersionRow[] = connectors.map((connector) => {
        const deleted = connector.deletedAt !== null;
        return {
          connectorUuid: connector.uuid,
          version: connector.version,
          operation: deleted ? 'DELETED' : connector.version === 1 ? 'CREATED' : 'UPDATED',
          updatedAt: deleted ? connector.deletedAt! : connector.updatedAt,
          updatedBy: deleted ? (connector.deletedBy ?? connector.updatedBy) : connector.updatedBy,
          updatedByImage: deleted ? null : connector.updatedByImage,
          changedFields: [],
          snapshot: connectorSnapshot(connector, tags.get(connector.uuid) ?? []),
        };
      });
      await queryRunner.query(
        VERSION_ROWS.insertSql(versions.length),
        bindable(
          versions.flatMap((version) => VERSION_ROWS.values(version)),
          sqlite,
        ),
      );
      after = connectors[connectors.length - 1].uuid;
    }
  }
}
