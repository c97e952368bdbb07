import { DataSource } from 'typeorm';
import { Database } from './database';
import { ServerDatabase, ServerDatabaseOptions } from './server-database';
import { SqliteDatabase } from './sqlite-database';

/** The Database of an initialized DataSource, for its engine: the options are a server's (SQLite has one in-process connection). */
export function openDatabase(dataSource: DataSource, options: ServerDatabaseOptions = {}): Database {
  return dataSource.options.type === 'better-sqlite3' ? new SqliteDatabase(dataSource) : new ServerDatabase(dataSource, options);
}
