import {
  BotRepository,
  ConnectorEventOutbox,
  ConnectorEventRepository,
  ConnectorHistoryRepository,
  ConnectorPromotionRepository,
  ConnectorRelationsRepository,
  ConnectorTestRunRepository,
  ConnectorVariableRepository,
  Database,
  DummyValue,
  ERRORS_LATER,
  ErrorsLater,
  EnvironmentRepository,
  GENERATE_SQL,
  GenerateSqlCall,
  IdempotencyRepository,
  ParkedEventRepository,
  RestConnectorRepository,
  RestConnectorSearchRepository,
  rowsWrite,
  ScopeRepository,
  Statement,
  Transaction,
} from '@app/domain';
import { format } from 'sql-formatter';

/** Every repository of libs/domain (and the outbox's append): the statements of their @GenerateSql methods are committed in docs/sql. */
export const REPOSITORIES = [
  ScopeRepository,
  EnvironmentRepository,
  BotRepository,
  RestConnectorRepository,
  RestConnectorSearchRepository,
  ConnectorRelationsRepository,
  ConnectorEventRepository,
  ConnectorEventOutbox,
  ParkedEventRepository,
  ConnectorHistoryRepository,
  ConnectorTestRunRepository,
  ConnectorVariableRepository,
  ConnectorPromotionRepository,
  IdempotencyRepository,
] as const;

type Engine = 'MySQL' | 'SQLite';

/**
 * A Database that runs nothing: it keeps each statement it is sent, deferred or not, answers no rows and one affected
 * row (so a write goes on to its next statement).
 */
class RecordingDatabase extends Database {
  statements: string[] = [];
  /** What DummyValue.TX stands for: every statement recorded where it is made, deferred or not. */
  readonly tx: Transaction = {
    rows: (sql: string | Statement<unknown, unknown>, params?: unknown) => this.rows(sql as string, params as unknown[]),
    run: (sql: string | Statement<unknown, unknown>, params?: unknown) => this.run(sql as string, params as unknown[]),
    defer: {
      write: (statement, params) => this.recorded(statement, params),
      insert: (table, rows) => this.recorded(rowsWrite(table, rows, this.isSqlite)?.sql),
      upsert: (table, rows, key) => this.recorded(rowsWrite(table, rows, this.isSqlite, key)?.sql),
    },
  } as Transaction;

  constructor(readonly engine: Engine) {
    super(engine === 'SQLite');
  }

  override async rows<R>(sql: string | Statement<unknown, unknown>, params?: unknown): Promise<R[]> {
    this.record(sql, params);
    return [];
  }

  override async run(sql: string | Statement<unknown, unknown>, params?: unknown): Promise<number> {
    this.record(sql, params);
    return 1;
  }

  protected attempt<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return work(this.tx);
  }

  /** Only `rows` reads, and it records its statement itself. */
  protected async read<R>(): Promise<R[]> {
    return [];
  }

  /** What `insert` and `upsert` send. */
  protected async execute(sql: string): Promise<number> {
    this.record(sql, []);
    return 1;
  }

  private recorded(sql: string | Statement<unknown, unknown> | undefined, params?: unknown): ErrorsLater {
    if (sql !== undefined) this.record(sql, params);
    return ERRORS_LATER;
  }

  /** The text as written (named placeholders); a Statement is also bound, so a name the call does not give fails here. */
  private record(sql: string | Statement<unknown, unknown>, params: unknown): void {
    if (typeof sql !== 'string') sql.bind(params, this.engine === 'SQLite');
    this.statements.push(format(typeof sql === 'string' ? sql : sql.source, { language: 'mysql', paramTypes: { named: [':'], positional: true } }));
  }
}

/** docs/sql/<file>: `RestConnectorSearchRepository` is rest-connector-search.repository.sql, `ConnectorEventOutbox` connector-event-outbox.sql. */
export const sqlFileOf = (repository: string): string =>
  `${repository
    .replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)
    .slice(1)
    .replace(/-repository$/, '.repository')}.sql`;

/** A repository method: most answer a promise, a deferred write ErrorsLater. */
type RepositoryMethod = (...params: unknown[]) => unknown;

/** The statements each call of each @GenerateSql method sends, on one engine. */
async function statementsOn(engine: Engine, Repository: (typeof REPOSITORIES)[number]): Promise<Map<string, string[]>> {
  const db = new RecordingDatabase(engine);
  const repository = new Repository(db) as unknown as Record<string, RepositoryMethod>;
  const byCall = new Map<string, string[]>();
  for (const method of Object.getOwnPropertyNames(Repository.prototype)) {
    const calls = Reflect.getMetadata(GENERATE_SQL, repository[method]) as GenerateSqlCall[] | undefined;
    for (const { name, params } of calls ?? []) {
      const label = `${Repository.name}.${method}${name ? ` (${name})` : ''}`;
      db.statements = [];
      // A call fails after its statements when the empty answers are not what it expects (a count's row): the statements are what counts.
      const failure = await Promise.resolve()
        .then(() => repository[method](...params.map((param) => (param === DummyValue.TX ? db.tx : param))))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      // None on one engine may be the point (a lock SQLite does not need); none on both is a mistake (sqlDocuments).
      if (db.statements.length === 0 && failure) throw new Error(`${label} sent no statement: ${String(failure)}`);
      byCall.set(label, db.statements);
    }
  }
  return byCall;
}

/** The text of each docs/sql file, by file name. */
export async function sqlDocuments(): Promise<Map<string, string>> {
  const documents = new Map<string, string>();
  for (const Repository of REPOSITORIES) {
    const mysql = await statementsOn('MySQL', Repository);
    const sqlite = await statementsOn('SQLite', Repository);
    const sections = [...mysql].flatMap(([label, statements]) => {
      const onSqlite = sqlite.get(label)!;
      if (statements.length === 0 && onSqlite.length === 0) throw new Error(`${label} sent no statement`);
      const same = onSqlite.join('\n') === statements.join('\n');
      return same ? [section(label, statements)] : [section(`${label}, MySQL`, statements), section(`${label}, SQLite`, onSqlite)];
    });
    documents.set(
      sqlFileOf(Repository.name),
      [`-- The statements of ${Repository.name}, written by \`npm run sql\` (tools/sql) from its @GenerateSql methods.`, '', ...sections].join('\n'),
    );
  }
  return documents;
}

const section = (label: string, statements: string[]) =>
  [`-- ${label}`, ...(statements.length === 0 ? ['-- (no statement)'] : statements.map((statement) => `${statement};`)), ''].join('\n');
