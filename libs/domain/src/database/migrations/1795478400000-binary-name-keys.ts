import { MigrationInterface, QueryRunner } from 'typeorm';

interface KeyChange {
  table: string;
  column: string;
  length: number;
  nullable?: boolean;
  primary?: boolean;
}

/** Name keys twice as long (lower-casing can grow a string) and all keys compared byte for byte. */
const WIDENED: KeyChange[] = [
  { table: 'rest_connectors', column: 'name_key', length: 200 },
  { table: 'rest_connectors', column: 'active_name_key', length: 200, nullable: true },
  { table: 'rest_connector_tags', column: 'name_key', length: 100, primary: true },
  { table: 'idempotency_keys', column: 'caller_sub', length: 255, primary: true },
  { table: 'idempotency_keys', column: 'idempotency_key', length: 255, primary: true },
];
const PREVIOUS_LENGTH: Record<string, number> = { 'rest_connectors.name_key': 100, 'rest_connectors.active_name_key': 100, 'rest_connector_tags.name_key': 50 };

export class BinaryNameKeys1795478400000 implements MigrationInterface {
  name = 'BinaryNameKeys1795478400000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.change(queryRunner, (change) => change.length, 'utf8mb4_bin');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.change(queryRunner, (change) => PREVIOUS_LENGTH[`${change.table}.${change.column}`] ?? change.length, undefined);
  }

  private async change(queryRunner: QueryRunner, lengthOf: (change: KeyChange) => number, collation: string | undefined) {
    const sqlite = queryRunner.connection.driver.options.type === 'better-sqlite3';
    for (const change of WIDENED) {
      const length = lengthOf(change);
      if (!sqlite) {
        // MODIFY keeps the data and the indexes; TypeORM's changeColumn would drop and re-add the column.
        const collate = collation ? ` COLLATE ${collation}` : '';
        await queryRunner.query(
          `ALTER TABLE \`${change.table}\` MODIFY \`${change.column}\` varchar(${length})${collate} ${change.nullable ? 'NULL' : 'NOT NULL'}`,
        );
        continue;
      }
      // SQLite compares bytes already; it only records the new length (changeColumn copies the table).
      const table = (await queryRunner.getTable(change.table))!;
      const old = table.findColumnByName(change.column)!;
      const widened = old.clone();
      widened.length = String(length);
      await queryRunner.changeColumn(table, old, widened);
    }
  }
}
