import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The record of connector test runs (connector_test_runs): who ran which connector of which bot, when, the host and
 * port called, the outcome, the answer's status and the duration. No secret, header, path, query or body. Runs start
 * being recorded with this migration; the ones before it are in the logs only.
 */
export class ConnectorTestRuns1796000000000 implements MigrationInterface {
  name = 'ConnectorTestRuns1796000000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const uuid = (name: string, isNullable = false) => ({ name, type: 'varchar', length: '36', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'connector_test_runs',
        columns: [
          { ...uuid('uuid'), isPrimary: true },
          uuid('organization_uuid'),
          uuid('environment_uuid'),
          uuid('bot_uuid'),
          uuid('connector_uuid', true),
          { name: 'caller_sub', type: 'varchar', length: '255' },
          { name: 'caller_username', type: 'varchar', length: '255' },
          { name: 'request_id', type: 'varchar', length: '128' },
          { name: 'destination_host', type: 'varchar', length: '255' },
          { name: 'outcome', type: 'varchar', length: '32' },
          { name: 'http_status', type: 'integer', isNullable: true },
          { name: 'duration_ms', type: 'integer' },
          { name: 'started_at', type: 'datetime', precision: 3 },
        ],
        // A connector's runs, and a bot's runs of unsaved connectors (connector_uuid IS NULL), newest first; and the
        // pruning of both.
        indices: [{ name: 'idx_connector_test_runs_bot_connector', columnNames: ['bot_uuid', 'connector_uuid', 'started_at', 'uuid'] }],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('connector_test_runs');
  }
}
