import { MigrationInterface, QueryRunner, Table } from 'typeorm';

export class IdempotencyKeys1795392000000 implements MigrationInterface {
  name = 'IdempotencyKeys1795392000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    // MEDIUMTEXT on MySQL, where TEXT stops at 65,535 bytes; SQLite only knows text.
    const largeText = queryRunner.connection.driver.options.type === 'better-sqlite3' ? 'text' : 'mediumtext';
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'caller_sub', type: 'varchar', length: '255', isPrimary: true },
          { name: 'idempotency_key', type: 'varchar', length: '255', isPrimary: true },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'state', type: 'varchar', length: '16' },
          { name: 'response_status', type: 'integer', isNullable: true },
          { name: 'response_body', type: largeText, isNullable: true },
          { name: 'locked_at', type: 'datetime', precision: 3 },
          { name: 'expires_at', type: 'datetime', precision: 3 },
        ],
        indices: [{ name: 'idx_idempotency_keys_expires_at', columnNames: ['expires_at'] }],
      }),
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
