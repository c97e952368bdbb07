import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * What support reads of a write beside the record: the token's `sub`, the request id, the writer's reason and, for
 * a revert, the version put back. Nullable columns at the end of the table: MariaDB adds them in place
 * (ALGORITHM=INSTANT); versions recorded before have none, which is what is known of them.
 */
export class VersionSupportTrail1796100000000 implements MigrationInterface {
  name = 'VersionSupportTrail1796100000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('rest_connector_versions', [
      new TableColumn({ name: 'updated_by_sub', type: 'varchar', length: '255', isNullable: true }),
      new TableColumn({ name: 'request_id', type: 'varchar', length: '128', isNullable: true }),
      new TableColumn({ name: 'reason', type: 'varchar', length: '500', isNullable: true }),
      new TableColumn({ name: 'reverted_to', type: 'integer', isNullable: true }),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('rest_connector_versions', ['reverted_to', 'reason', 'request_id', 'updated_by_sub']);
  }
}
