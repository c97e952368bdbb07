import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * The relay's lease, recorded: how many times it was taken (`lease_epoch`, one more at each take) and when its holder
 * took it on the database's clock (`lease_taken_at`). Two columns of the one-row connector_event_relay; the code of
 * the release before names its columns and reads neither.
 */
export class RelayLeaseEpoch1795917600000 implements MigrationInterface {
  name = 'RelayLeaseEpoch1795917600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('connector_event_relay', [
      new TableColumn({ name: 'lease_epoch', type: 'bigint', default: 0 }),
      new TableColumn({ name: 'lease_taken_at', type: 'datetime', precision: 3, isNullable: true }),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('connector_event_relay', ['lease_taken_at', 'lease_epoch']);
  }
}
