import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

/**
 * AUTH_API_KEY: where the key goes (`api_key_name`, `api_key_in`) and the key itself, sealed like the other secrets
 * (`api_key`). Three nullable columns at the end of the table: MariaDB adds them in place (ALGORITHM=INSTANT), without
 * copying the rows; the connectors stored before have none, which is what they are (another auth type).
 */
export class ApiKeyAuth1795824000000 implements MigrationInterface {
  name = 'ApiKeyAuth1795824000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('rest_connectors', [
      new TableColumn({ name: 'api_key_name', type: 'varchar', length: '256', isNullable: true }),
      new TableColumn({ name: 'api_key_in', type: 'varchar', length: '10', isNullable: true }),
      new TableColumn({ name: 'api_key', type: 'text', isNullable: true }),
    ]);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('rest_connectors', ['api_key', 'api_key_in', 'api_key_name']);
  }
}
