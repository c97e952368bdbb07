import { applyDecorators } from '@nestjs/common';
import { Column, ColumnOptions, PrimaryColumn, ValueTransformer } from 'typeorm';

/** Columns that MySQL must hold as MEDIUMTEXT: a TEXT column stops at 65,535 bytes. */
export const LARGE_TEXT_COLUMNS: Array<{ target: Function; propertyName: string }> = [];

const markLarge: PropertyDecorator = (target, propertyName) => {
  LARGE_TEXT_COLUMNS.push({ target: target.constructor, propertyName: String(propertyName) });
};

/** UUIDs are stored as their canonical lower-case 36-character text on every engine. */
export const UuidPrimaryColumn = () => PrimaryColumn({ type: 'varchar', length: 36 });

export const UuidColumn = (options: ColumnOptions = {}) =>
  Column({ type: 'varchar', length: 36, ...options });

/** Text that may exceed 64 KiB bytes: `text` on SQLite, MEDIUMTEXT on MySQL (see PlatformDataSource). */
export const LargeTextColumn = (options: ColumnOptions = {}) =>
  applyDecorators(Column({ type: 'text', ...options }), markLarge);

/**
 * JSON documents stored as text on every engine. An explicit transformer rather than `simple-json`:
 * TypeORM only converts `simple-json` while the column keeps that type, and on MySQL it becomes MEDIUMTEXT.
 */
const JSON_TEXT: ValueTransformer = {
  to: (value: unknown) => (value === null || value === undefined ? value : JSON.stringify(value)),
  from: (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value),
};

export const LargeJsonColumn = (options: ColumnOptions = {}) =>
  applyDecorators(Column({ type: 'text', transformer: JSON_TEXT, ...options }), markLarge);

/** Millisecond-precision UTC timestamps. */
export const TimestampColumn = (options: ColumnOptions = {}) =>
  Column({ type: 'datetime', precision: 3, ...options });
