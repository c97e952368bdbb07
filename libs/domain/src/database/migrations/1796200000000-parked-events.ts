import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';

/**
 * Parked change events: how many times JetStream refused an event (`publish_attempts`) and its last refusal
 * (`publish_error`), when the relay set it aside unpublished behind the position it marked (`held_at`: a parked event,
 * and its connector's later events held behind it) and when it was parked (`parked_at`, cleared by a replay). The code
 * of the release before names its columns and reads none of these; the defaults leave every existing event as it was.
 */
export class ParkedEvents1796200000000 implements MigrationInterface {
  name = 'ParkedEvents1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('connector_events', [
      new TableColumn({ name: 'publish_attempts', type: 'integer', default: 0 }),
      new TableColumn({ name: 'publish_error', type: 'varchar', length: '1000', isNullable: true }),
      new TableColumn({ name: 'held_at', type: 'datetime', precision: 3, isNullable: true }),
      new TableColumn({ name: 'parked_at', type: 'datetime', precision: 3, isNullable: true }),
    ]);
    await queryRunner.createIndex('connector_events', new TableIndex({ name: 'idx_connector_events_held', columnNames: ['held_at'] }));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('connector_events', 'idx_connector_events_held');
    await queryRunner.dropColumns('connector_events', ['parked_at', 'held_at', 'publish_error', 'publish_attempts']);
  }
}
