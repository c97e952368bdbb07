import { applyDecorators } from '@nestjs/common';
import { Column, ColumnOptions, PrimaryColumn, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';

/** What a column becomes on MySQL only: SQLite knows neither MEDIUMTEXT nor MySQL's collations, and increments only an INTEGER key. */
export interface MysqlColumnOverride {
  target: Function;
  propertyName: string;
  type?: 'mediumtext' | 'bigint';
  collation?: 'utf8mb4_bin';
}

export const MYSQL_COLUMN_OVERRIDES: MysqlColumnOverride[] = [];

const onMysql =
  (override: Pick<MysqlColumnOverride, 'type' | 'collation'>): PropertyDecorator =>
  (target, propertyName) => {
    MYSQL_COLUMN_OVERRIDES.push({ target: target.constructor, propertyName: String(propertyName), ...override });
  };

/** MySQL's TEXT stops at 65,535 bytes. */
const markLarge = onMysql({ type: 'mediumtext' });

/**
 * An AUTO_INCREMENT key of 64 bits: BIGINT on MySQL; on SQLite an INTEGER PRIMARY KEY, the only column it
 * increments (already 64-bit).
 */
export const SequenceColumn = () => applyDecorators(PrimaryGeneratedColumn({ type: 'integer' }), onMysql({ type: 'bigint' }));

/** UUIDs are stored as their canonical lower-case 36-character text on every engine. */
export const UuidPrimaryColumn = () => PrimaryColumn({ type: 'varchar', length: 36 });

export const UuidColumn = (options: ColumnOptions = {}) => Column({ type: 'varchar', length: 36, ...options });

/** Text that may exceed 64 KiB bytes: `text` on SQLite, MEDIUMTEXT on MySQL (see PlatformDataSource). */
export const LargeTextColumn = (options: ColumnOptions = {}) => applyDecorators(Column({ type: 'text', ...options }), markLarge);

/**
 * JSON documents stored as text on every engine. An explicit transformer rather than `simple-json`:
 * TypeORM only converts `simple-json` while the column keeps that type, and on MySQL it becomes MEDIUMTEXT.
 */
const JSON_TEXT: ValueTransformer = {
  to: (value: unknown) => (value === null || value === undefined ? value : JSON.stringify(value)),
  from: (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value),
};

/**
 * Text that may exceed 64 KiB, compared byte for byte (a BinaryKeyColumn's rule, for text a LIKE searches): MEDIUMTEXT
 * in utf8mb4_bin on MySQL, `text` on SQLite (which compares bytes already).
 */
export const LargeBinaryTextColumn = (options: ColumnOptions = {}) =>
  applyDecorators(Column({ type: 'text', ...options }), onMysql({ type: 'mediumtext', collation: 'utf8mb4_bin' }));

export const LargeJsonColumn = (options: ColumnOptions = {}) => applyDecorators(Column({ type: 'text', transformer: JSON_TEXT, ...options }), markLarge);

/** Millisecond-precision UTC timestamps. */
export const TimestampColumn = (options: ColumnOptions = {}) => Column({ type: 'datetime', precision: 3, ...options });

/**
 * A key compared byte for byte on every engine (SQLite's default): case- and accent-folding collations
 * would make `ß` equal `ss`, or one caller's `Bob` equal another's `bob`. Keys that must ignore case
 * store the lower-cased value.
 */
export const BinaryKeyColumn = (length: number, options: ColumnOptions = {}) =>
  applyDecorators(Column({ type: 'varchar', length, ...options }), onMysql({ collation: 'utf8mb4_bin' }));

export const BinaryKeyPrimaryColumn = (length: number) => applyDecorators(PrimaryColumn({ type: 'varchar', length }), onMysql({ collation: 'utf8mb4_bin' }));
