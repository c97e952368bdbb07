import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Promotions of a bot's connectors from another bot (connector_promotions: one row per applied promotion, its items
 * as JSON, listed per bot by its uuid v7), and the promotion each version was written by
 * (rest_connector_versions.promotion_id, nullable at the end of the table: MariaDB adds it in place; versions written
 * before were no promotion's). Nothing before this release reads them.
 */
export class ConnectorPromotions1796500000000 implements MigrationInterface {
  name = 'ConnectorPromotions1796500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    const uuid = (name: string) => ({ name, type: 'varchar', length: '36' });
    const count = (name: string) => ({ name, type: 'integer' });
    await queryRunner.createTable(
      new Table({
        name: 'connector_promotions',
        columns: [
          { ...uuid('uuid'), isPrimary: true },
          uuid('organization_uuid'),
          uuid('environment_uuid'),
          uuid('bot_uuid'),
          uuid('source_environment_uuid'),
          uuid('source_bot_uuid'),
          { name: 'prune', type: 'boolean', default: 0 },
          { name: 'created_at', type: 'datetime', precision: 3 },
          { name: 'created_by', type: 'varchar', length: '255' },
          { name: 'created_by_sub', type: 'varchar', length: '255', isNullable: true },
          { name: 'request_id', type: 'varchar', length: '128' },
          { name: 'reason', type: 'varchar', length: '500', isNullable: true },
          count('created'),
          count('updated'),
          count('deleted'),
          count('unchanged'),
          { name: 'items', type: mysql ? 'mediumtext' : 'text' },
          { name: 'reverted_at', type: 'datetime', precision: 3, isNullable: true },
          { name: 'reverted_by', type: 'varchar', length: '255', isNullable: true },
        ],
        indices: [{ name: 'idx_connector_promotions_bot', columnNames: ['bot_uuid', 'uuid'] }],
      }),
    );
    await queryRunner.addColumn('rest_connector_versions', new TableColumn({ name: 'promotion_id', type: 'varchar', length: '36', isNullable: true }));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('rest_connector_versions', 'promotion_id');
    await queryRunner.dropTable('connector_promotions');
  }
}
