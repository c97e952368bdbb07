/** Where the platform's data lives: a MySQL-compatible server (with optional read replicas) or an embedded SQLite file. */
export type DatabaseConfig =
  /** `mariadb` only makes TypeORM introspect a MariaDB server exactly; both speak through mysql2. */
  | { type: 'mysql' | 'mariadb'; url: string; readUrls: string[] }
  | { type: 'sqlite'; path: string };
