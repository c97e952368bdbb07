import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';

/**
 * Connector variables of environments: connector_variables (one row per variable, its name unique in its
 * environment, a secret one's value sealed) and connector_variable_sets (the version of each environment's set, for
 * its ETag), connector_variable_set_versions (each version of a set: who, when, why, what changed, the set it left,
 * secrets as placeholders) and connector_events.kind (an outbox row announces a connector's version, `connector`, or
 * a set's, `variables`). Nothing before this release reads them; the default leaves every existing event a connector's.
 */
export class ConnectorVariables1796400000000 implements MigrationInterface {
  name = 'ConnectorVariables1796400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const mysql = queryRunner.connection.driver.options.type !== 'better-sqlite3';
    const uuid = (name: string) => ({ name, type: 'varchar', length: '36' });
    const largeText = (name: string, isNullable: boolean) => ({ name, type: mysql ? 'mediumtext' : 'text', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'connector_variables',
        columns: [
          { ...uuid('uuid'), isPrimary: true },
          uuid('organization_uuid'),
          uuid('environment_uuid'),
          { name: 'name', type: 'varchar', length: '64', ...(mysql && { collation: 'utf8mb4_bin' }) },
          { name: 'secret', type: 'boolean', default: 0 },
          largeText('value', true),
          largeText('sealed_value', true),
          largeText('destinations', false),
          { name: 'updated_at', type: 'datetime', precision: 3 },
          { name: 'updated_by', type: 'varchar', length: '255' },
        ],
        indices: [{ name: 'uq_connector_variables_environment_name', columnNames: ['environment_uuid', 'name'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'connector_variable_sets',
        columns: [
          { ...uuid('environment_uuid'), isPrimary: true },
          uuid('organization_uuid'),
          { name: 'version', type: 'integer' },
          { name: 'updated_at', type: 'datetime', precision: 3 },
          { name: 'updated_by', type: 'varchar', length: '255' },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'connector_variable_set_versions',
        columns: [
          { ...uuid('environment_uuid'), isPrimary: true },
          { name: 'version', type: 'integer', isPrimary: true },
          uuid('organization_uuid'),
          { name: 'updated_at', type: 'datetime', precision: 3 },
          { name: 'updated_by', type: 'varchar', length: '255' },
          { name: 'updated_by_sub', type: 'varchar', length: '255', isNullable: true },
          { name: 'request_id', type: 'varchar', length: '128', isNullable: true },
          { name: 'reason', type: 'varchar', length: '500', isNullable: true },
          { ...uuid('promotion_id'), isNullable: true },
          largeText('changes', false),
          largeText('snapshot', false),
        ],
      }),
    );
    await queryRunner.addColumn('connector_events', new TableColumn({ name: 'kind', type: 'varchar', length: '16', default: "'connector'" }));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('connector_events', 'kind');
    await queryRunner.dropTable('connector_variable_set_versions');
    await queryRunner.dropTable('connector_variable_sets');
    await queryRunner.dropTable('connector_variables');
  }
}
