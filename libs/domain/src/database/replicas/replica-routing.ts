import { isDatabaseUnavailable } from '../database-errors';
import type { ServerConnection, ServerPool } from '../server-pool';
import { GtidPosition } from './gtid-position';
import { ConsistencyScope } from './read-consistency';
import { ReadReplicas } from './read-replicas';

/**
 * Where a MySQL server's reads go when DATABASE_READ_URLS lists replicas (docs/operations.md "Read replicas"), and
 * where a unit of work's write is noted so the request's later reads see it.
 */
export class ReplicaRouting {
  constructor(
    private readonly replicas: ReadReplicas,
    /** The primary's pool: the reads no replica can answer, and the position fallback. */
    private readonly primary: () => ServerPool,
  ) {}

  /**
   * A plain read on a replica that has what the request must see, else on the primary. A replica that fails
   * for its connection (or its deadline) is marked down and the read moves on to the next; one that refuses the
   * statement (a table a migration has just added, not replicated yet) leaves it to the primary, whose answer,
   * error or not, is the read's. A replica is never the reason a read fails while the primary answers.
   */
  async read<R>(sql: string, params: unknown[], scope: ConsistencyScope | undefined): Promise<R[]> {
    const requirement = scope ? scope.requirement() : GtidPosition.EMPTY;
    const required = requirement instanceof GtidPosition ? requirement : await requirement;
    const { replicas: candidates, fallback } = scope?.primaryOnly
      ? { replicas: [], fallback: 'read_your_writes' as const }
      : this.replicas.candidates(required);
    for (const replica of candidates) {
      try {
        return await replica.pool.query<R[]>(sql, params);
      } catch (error) {
        if (!isDatabaseUnavailable(error)) break;
        this.replicas.failed(replica, error);
      }
    }
    this.replicas.fellBack(fallback ?? 'replica_failed');
    return this.primary().query<R[]>(sql, params);
  }

  /**
   * Where the write just committed on `connection` (`@@last_gtid`: this session's last transaction) goes to the
   * request's scope: its later reads, the caller's next ones and the Consistency-Token answer see it. The write
   * has committed whatever happens here: when the session cannot tell, the primary's whole position (a fresh
   * connection) stands in for it, and when neither answers, the request's own later reads go to the primary
   * and nothing fails.
   */
  async noteWrite(connection: ServerConnection, scope: ConsistencyScope): Promise<void> {
    const primary = this.primary();
    const position = await connection
      .query<Array<{ gtid: string | null }>>('SELECT @@last_gtid AS gtid')
      .then(([row]) => GtidPosition.parse(row?.gtid ?? ''))
      .catch(() =>
        primary
          .query<Array<{ gtid: string | null }>>('SELECT @@gtid_binlog_pos AS gtid', [], Math.min(primary.deadlineMs, 1_000))
          .then(([row]) => GtidPosition.parse(row?.gtid ?? ''))
          .catch(() => undefined),
      );
    if (position === undefined) scope.writtenSomewhere();
    else if (!position.isEmpty) scope.written(position);
  }
}
