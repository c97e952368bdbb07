import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * Connector variables of environments: connector_variables (one row per variable, its name unique in its
 * environment, a secret one's value sealed) and connector_variable_sets (the version of each environment's set, for
 * its ETag). Nothing before this release reads them.
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
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('connector_variable_sets');
    await queryRunner.dropTable('connector_variables');
  }
}
