import { MigrationInterface, QueryRunner, Table } from 'typeorm';

/**
 * The outbox of connector change events (connector_events) and the relay's state row (connector_event_relay).
 * Events start with the writes after this migration: the versions recorded before it have none (the history
 * has them).
 */
export class ConnectorEvents1795737600000 implements MigrationInterface {
  name = 'ConnectorEvents1795737600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const uuid = (name: string) => ({ name, type: 'varchar', length: '36' });
    // SQLite increments only an INTEGER PRIMARY KEY (64-bit there): see SequenceColumn.
    const sequence = queryRunner.connection.driver.options.type === 'better-sqlite3' ? 'integer' : 'bigint';
    await queryRunner.createTable(
      new Table({
        name: 'connector_events',
        columns: [
          { name: 'seq', type: sequence, isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          uuid('event_uuid'),
          { name: 'position', type: 'bigint', isNullable: true },
          uuid('organization_uuid'),
          uuid('environment_uuid'),
          uuid('bot_uuid'),
          uuid('connector_uuid'),
          { name: 'version', type: 'integer' },
          { name: 'created_at', type: 'datetime', precision: 3 },
        ],
        indices: [
          { name: 'idx_connector_events_position', columnNames: ['position', 'seq'] },
          { name: 'idx_connector_events_environment', columnNames: ['environment_uuid', 'position'] },
          { name: 'idx_connector_events_bot', columnNames: ['environment_uuid', 'bot_uuid', 'position'] },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'connector_event_relay',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true },
          { name: 'holder', type: 'varchar', length: '255', isNullable: true },
          { name: 'lease_until', type: 'datetime', precision: 3, isNullable: true },
          { name: 'sequenced_through', type: 'bigint' },
          { name: 'published_through', type: 'bigint' },
          { name: 'purged_through', type: 'bigint' },
        ],
      }),
    );
    await queryRunner.query(
      'INSERT INTO connector_event_relay (id, holder, lease_until, sequenced_through, published_through, purged_through) VALUES (1, NULL, NULL, 0, 0, 0)',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('connector_event_relay');
    await queryRunner.dropTable('connector_events');
  }
}
