import { MigrationInterface, QueryRunner, Table, TableColumnOptions } from 'typeorm';

// Written with the Table API, not generated SQL, so that one migration serves MySQL and SQLite.
const uuid = (name: string, extra: Partial<TableColumnOptions> = {}): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: '36',
  ...extra,
});
const text = (name: string, length: number, nullable = false): TableColumnOptions => ({
  name,
  type: 'varchar',
  length: String(length),
  isNullable: nullable,
});
const timestamp = (name: string, nullable = false): TableColumnOptions => ({
  name,
  type: 'datetime',
  precision: 3,
  isNullable: nullable,
});

export class InitialSchema1795305600000 implements MigrationInterface {
  name = 'InitialSchema1795305600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // MEDIUMTEXT on MySQL, where TEXT stops at 65,535 bytes; SQLite only knows text.
    const largeText = queryRunner.connection.driver.options.type === 'better-sqlite3' ? 'text' : 'mediumtext';

    await queryRunner.createTable(
      new Table({
        name: 'organizations',
        columns: [uuid('uuid', { isPrimary: true }), text('name', 255)],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'environments',
        columns: [
          uuid('uuid', { isPrimary: true }),
          uuid('organization_uuid'),
          text('name', 255),
          { name: 'removed', type: 'boolean', default: 0 },
          text('instance_uuid', 255, true),
          text('instance_name', 255, true),
          text('channel_instance_uuid', 255, true),
          text('channel_instance_name', 255, true),
          text('connector_instance_uuid', 255, true),
          text('connector_instance_name', 255, true),
          text('dns', 255, true),
          text('api_url', 2048, true),
          text('channel_api_url', 2048, true),
          text('connector_api_url', 2048, true),
          { name: 'applications', type: largeText },
          { name: 'permissions', type: largeText },
        ],
        indices: [{ name: 'idx_environments_org_name', columnNames: ['organization_uuid', 'name'] }],
        foreignKeys: [
          {
            name: 'fk_environments_organization',
            columnNames: ['organization_uuid'],
            referencedTableName: 'organizations',
            referencedColumnNames: ['uuid'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'bots',
        columns: [uuid('uuid', { isPrimary: true }), uuid('environment_uuid'), text('name', 255), text('image', 2048, true)],
        indices: [{ name: 'idx_bots_env_name', columnNames: ['environment_uuid', 'name'] }],
        foreignKeys: [
          {
            name: 'fk_bots_environment',
            columnNames: ['environment_uuid'],
            referencedTableName: 'environments',
            referencedColumnNames: ['uuid'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'flows',
        columns: [uuid('uuid', { isPrimary: true }), uuid('bot_uuid'), text('name', 255)],
        indices: [{ name: 'idx_flows_bot', columnNames: ['bot_uuid'] }],
        foreignKeys: [
          {
            name: 'fk_flows_bot',
            columnNames: ['bot_uuid'],
            referencedTableName: 'bots',
            referencedColumnNames: ['uuid'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'flow_connectors',
        columns: [uuid('flow_uuid', { isPrimary: true }), uuid('connector_uuid', { isPrimary: true })],
        indices: [{ name: 'idx_flow_connectors_connector', columnNames: ['connector_uuid'] }],
        foreignKeys: [
          {
            name: 'fk_flow_connectors_flow',
            columnNames: ['flow_uuid'],
            referencedTableName: 'flows',
            referencedColumnNames: ['uuid'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'rest_connectors',
        columns: [
          uuid('uuid', { isPrimary: true }),
          uuid('bot_uuid'),
          text('name', 100),
          text('name_key', 100),
          text('active_name_key', 100, true),
          text('description', 1000, true),
          text('request_type', 16),
          text('url', 2048),
          { name: 'headers', type: largeText },
          text('content_type', 40),
          text('auth_type', 20),
          text('grant_type', 20, true),
          { name: 'basic_token', type: 'text', isNullable: true },
          { name: 'bearer_token', type: 'text', isNullable: true },
          text('client_id', 1000, true),
          { name: 'client_secret', type: 'text', isNullable: true },
          text('oauth_url', 2048, true),
          text('auth_username', 1000, true),
          { name: 'auth_password', type: 'text', isNullable: true },
          { name: 'body', type: largeText },
          { name: 'output', type: largeText },
          timestamp('created_at'),
          text('created_by', 255),
          timestamp('updated_at'),
          text('updated_by', 255),
          text('updated_by_image', 2048, true),
          timestamp('deleted_at', true),
          text('deleted_by', 255, true),
          { name: 'version', type: 'integer' },
        ],
        indices: [
          {
            name: 'uq_rest_connectors_bot_active_name',
            columnNames: ['bot_uuid', 'active_name_key'],
            isUnique: true,
          },
          {
            name: 'idx_rest_connectors_bot_updated_at',
            columnNames: ['bot_uuid', 'deleted_at', 'updated_at', 'uuid'],
          },
          { name: 'idx_rest_connectors_bot_name', columnNames: ['bot_uuid', 'deleted_at', 'name_key', 'uuid'] },
          {
            name: 'idx_rest_connectors_bot_updated_by',
            columnNames: ['bot_uuid', 'deleted_at', 'updated_by', 'uuid'],
          },
        ],
        foreignKeys: [
          {
            name: 'fk_rest_connectors_bot',
            columnNames: ['bot_uuid'],
            referencedTableName: 'bots',
            referencedColumnNames: ['uuid'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'rest_connector_tags',
        columns: [
          uuid('connector_uuid', { isPrimary: true }),
          { ...text('name_key', 50), isPrimary: true },
          text('name', 50),
          { name: 'position', type: 'integer' },
        ],
        indices: [{ name: 'idx_rest_connector_tags_name', columnNames: ['name_key'] }],
        foreignKeys: [
          {
            name: 'fk_rest_connector_tags_connector',
            columnNames: ['connector_uuid'],
            referencedTableName: 'rest_connectors',
            referencedColumnNames: ['uuid'],
            onDelete: 'CASCADE',
            onUpdate: 'NO ACTION',
          },
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'connector_content',
        columns: [uuid('connector_uuid', { isPrimary: true }), { name: 'content', type: largeText }],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['connector_content', 'rest_connector_tags', 'rest_connectors', 'flow_connectors', 'flows', 'bots', 'environments', 'organizations']) {
      await queryRunner.dropTable(table);
    }
  }
}
