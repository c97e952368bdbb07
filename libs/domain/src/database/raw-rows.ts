import { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { ReadFrom } from './read-from';

/**
 * Runs one hand-written statement on a replica or the primary (see ReadFrom) and answers the driver's
 * rows. The hot reads use it instead of the query builder: building SQL and entities cost more CPU per
 * request than the query itself (docs/performance.md). `?` placeholders work on MySQL and SQLite.
 */
export async function queryRows<R = Record<string, unknown>>(dataSource: DataSource, from: ReadFrom, sql: string, params: unknown[]): Promise<R[]> {
  const runner = dataSource.createQueryRunner(from === 'primary' ? 'master' : 'slave');
  try {
    return (await runner.query(sql, params)) as R[];
  } finally {
    await runner.release();
  }
}

/**
 * Reads some columns of an entity's table from raw rows, converted as TypeORM converts them (dates,
 * booleans, JSON transformers) on either engine, into plain objects: no entity instances, no relations.
 * The SQL names each column by its database name (`select()` writes that list); without `properties`,
 * every column of the table.
 */
export class EntityColumns<T extends ObjectLiteral, K extends keyof T & string = keyof T & string> {
  private readonly columns: ColumnMetadata[];
  /** `column, column, ...`, escaped for the engine: the column list of an INSERT. */
  readonly names: string;
  /** `?, ?, ...`: one placeholder per column (an INSERT's row, or its SELECT list). */
  readonly placeholders: string;
  /** select()'s lists by alias, built once: they are part of every request's SQL. */
  private readonly selects = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    target: EntityTarget<T>,
    properties?: readonly K[],
  ) {
    const metadata = dataSource.getMetadata(target);
    this.columns = properties
      ? properties.map((property) => {
          const column = metadata.findColumnWithPropertyName(property);
          if (!column) throw new Error(`${metadata.name} has no column ${property}`);
          return column;
        })
      : metadata.columns;
    this.names = this.columns.map((column) => this.escaped(column)).join(', ');
    this.placeholders = this.columns.map(() => '?').join(', ');
  }

  /** `alias.column AS column, ...`, escaped for the engine. */
  select(alias: string): string {
    let list = this.selects.get(alias);
    if (list === undefined) {
      list = this.columns.map((column) => `${alias}.${this.escaped(column)} AS ${this.escaped(column)}`).join(', ');
      this.selects.set(alias, list);
    }
    return list;
  }

  /** The values of those columns, converted for the engine as TypeORM converts them when it writes. */
  values(entity: Partial<T>): unknown[] {
    return this.columns.map((column) => this.dataSource.driver.preparePersistentValue(column.getEntityValue(entity), column));
  }

  from(row: Record<string, unknown>): Pick<T, K> {
    const value: Record<string, unknown> = {};
    for (const column of this.columns) {
      value[column.propertyName] = this.dataSource.driver.prepareHydratedValue(row[column.databaseName], column);
    }
    return value as Pick<T, K>;
  }

  private escaped(column: ColumnMetadata): string {
    return this.dataSource.driver.escape(column.databaseName);
  }
}
