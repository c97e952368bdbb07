/**
 * `npm run bench -- --replica`: a primary and a GTID replica of the bench's own (test/support/mariadb-replication.ts:
 * this machine's mariadbd on 127.0.0.1, private ports and directories), the apps reading the replica, and the
 * get-own-write operation, whose reads must see a write the replica has not applied.
 */
import { GtidPosition } from '@app/domain';
import { ReplicationPair, startReplicationPair } from '../test/support/mariadb-replication';
import { Scale } from './args';
import { databaseOf, Fixtures } from './database';
import { Server, sleep } from './processes';
import { ownWriteRequest, probe, Scenario } from './scenarios';

/**
 * The replica stays serving however far behind it falls: get-own-write stops its SQL thread for minutes, and a
 * replica beyond DATABASE_REPLICA_MAX_LAG_MS would send every read to the primary (`no_healthy_replica`).
 */
export const BENCH_REPLICA_MAX_LAG_MS = 3_600_000;
/** What the shared server (Debian's packaged MariaDB) runs with, and the apps' data set then fits as it does there. */
const BUFFER_POOL_BYTES = 128 * 1024 * 1024;

export interface BenchReplication {
  pair: ReplicationPair;
  /** The primary, without a database: the server the bench seeds and the baseline reads. */
  primaryServer: string;
  replicaServer: string;
  /** How the pair runs, in words (for the report). */
  servers: string;
  /** The apps' environment besides DATABASE_URL (the primary). */
  appEnv(scale: Scale): Record<string, string>;
  /** Both mariadbd, whose CPU time each run records as the database's. */
  pids(): number[];
  /** Stops both servers and removes their directories; safe to call twice. */
  close(): Promise<void>;
}

export async function startBenchReplication(log: (line: string) => void): Promise<BenchReplication> {
  const started = Date.now();
  const pair = await startReplicationPair({ name: 'bench' });
  try {
    // The pair starts with a 16 MB buffer pool (the tests' size); the shared server has 128 MB. Resized online.
    for (const server of [pair.primary, pair.replica]) {
      await server.query(`SET GLOBAL innodb_buffer_pool_size = ${BUFFER_POOL_BYTES}`);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const [{ size }] = await server.query<Array<{ size: string | number }>>('SELECT @@innodb_buffer_pool_size AS size');
        const [status] = await server.query<Array<{ Value: string }>>("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'");
        // Empty before any resize; "Completed resizing buffer pool at …" once done (MariaDB 10.11).
        if (Number(size) === BUFFER_POOL_BYTES && (!status?.Value || /completed/i.test(status.Value))) break;
        if (Date.now() > deadline) throw new Error(`mariadbd on port ${server.port} did not resize its buffer pool: ${status?.Value}`);
        await sleep(100);
      }
    }
  } catch (error) {
    await pair.close();
    throw error;
  }
  log(
    `replication pair up in ${Date.now() - started} ms: primary ${pair.primary.url()} (pid ${pair.primary.pid}), ` +
      `replica ${pair.replica.url()} (pid ${pair.replica.pid})`,
  );
  let closed: Promise<void> | undefined;
  return {
    pair,
    primaryServer: pair.primary.url(),
    replicaServer: pair.replica.url(),
    servers:
      "this machine's mariadbd twice on 127.0.0.1 (test/support/mariadb-replication.ts: --no-defaults, server-id 1 with a ROW binary log " +
      'and sync_binlog=0, server-id 2 replicating with MASTER_USE_GTID=slave_pos, innodb_flush_log_at_trx_commit=2, no performance ' +
      `schema), the buffer pool of each raised to ${BUFFER_POOL_BYTES / 2 ** 20} MB as the shared server's; the database seeded on the primary, the replica caught up before the apps start.`,
    appEnv: (scale) => ({
      DATABASE_READ_URLS: pair.replica.url(databaseOf(scale)),
      DATABASE_REPLICA_MAX_LAG_MS: String(BENCH_REPLICA_MAX_LAG_MS),
    }),
    pids: () => [pair.primary.pid, pair.replica.pid].filter((pid): pid is number => pid !== undefined),
    close: () => (closed ??= pair.close()),
  };
}

/** Until the app's readiness shows every replica serving (it probes them at start, then every 500 ms). */
export async function waitForReplicasUp(app: Server, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${app.port}/health/ready`);
    const body = (await res.json()) as { checks?: { replicas?: Record<string, { state: string }> } };
    const last = JSON.stringify(body.checks);
    const replicas = Object.values(body.checks?.replicas ?? {});
    if (replicas.length > 0 && replicas.every((replica) => replica.state === 'up')) return;
    if (Date.now() > deadline) throw new Error(`${app.name}: its replicas do not serve after ${timeoutMs} ms: ${last}`);
    await sleep(200);
  }
}

/** The app's `db_replica_fallback_reads_total`, by reason: reads the primary served instead of a replica. */
export async function fallbackReads(app: Server): Promise<Record<string, number>> {
  const res = await fetch(`http://127.0.0.1:${app.port}/metrics`);
  if (res.status !== 200) throw new Error(`${app.name}: GET /metrics answered ${res.status}`);
  const counts: Record<string, number> = {};
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('db_replica_fallback_reads_total{')) continue;
    const reason = /reason="([^"]*)"/.exec(line)?.[1];
    if (reason) counts[reason] = (counts[reason] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return counts;
}

export function difference(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([reason, n]) => [reason, n - (before[reason] ?? 0)])
      .filter(([, n]) => n !== 0),
  );
}

export interface OwnWrite {
  /** The write's Consistency-Token, which the replica has not applied. */
  consistencyToken: string;
  /** The replica's @@gtid_current_pos after the write. */
  replicaPosition: string;
  /** Starts the replica's SQL thread again and waits until it has caught up, and the apps' probes have seen it. */
  release(): Promise<void>;
}

/**
 * Stops the replica's SQL thread, then writes through the app (a PUT, as `writer`: a caller none of the bench's
 * requests use) and keeps the Consistency-Token it answers: a position the replica lacks until `release()`.
 */
export async function holdOwnWrite(replication: BenchReplication, app: Server, fixtures: Fixtures, writer: string): Promise<OwnWrite> {
  const { pair } = replication;
  let released: Promise<void> | undefined;
  const release = () =>
    (released ??= (async () => {
      await pair.startSqlThread();
      await pair.caughtUp(120_000);
      // The apps learn the replica's position at their next probe (every 500 ms).
      await sleep(1_500);
    })());
  await pair.stopSqlThread();
  try {
    const { path, body } = ownWriteRequest(fixtures);
    const res = await fetch(`http://127.0.0.1:${app.port}${path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      body,
    });
    const text = await res.text();
    const consistencyToken = res.headers.get('consistency-token');
    if (res.status !== 200 || !consistencyToken) {
      throw new Error(`get-own-write: the write (PUT ${path}) answered ${res.status} with Consistency-Token ${consistencyToken}: ${text.slice(0, 500)}`);
    }
    const [{ position }] = await pair.replica.query<Array<{ position: string }>>('SELECT @@gtid_current_pos AS position');
    const wrote = GtidPosition.parse(consistencyToken);
    if (!wrote || wrote.isEmpty) throw new Error(`get-own-write: the write answered a Consistency-Token that is no GTID position: ${consistencyToken}`);
    if (GtidPosition.parse(position)?.covers(wrote)) {
      throw new Error(`get-own-write: the replica (at ${position}) has applied the write (${consistencyToken}) although its SQL thread was stopped`);
    }
    return { consistencyToken, replicaPosition: position, release };
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * Before get-own-write is measured: one of its requests (with the Consistency-Token) answers 200, and the app's
 * `read_your_writes` fallbacks grow: it read the primary. Answers by how much they grew.
 */
export async function checkReadsPrimary(scenario: Scenario, app: Server, token: string): Promise<number> {
  const before = await fallbackReads(app);
  const answer = await probe(scenario, app.port, token);
  const grown = difference(await fallbackReads(app), before);
  const readYourWrites = grown.read_your_writes ?? 0;
  if (answer.status !== 200 || readYourWrites < 1) {
    throw new Error(
      `get-own-write: a get with the write's Consistency-Token answered ${answer.status} and moved the app's fallbacks by ${JSON.stringify(grown)}: ` +
        'it did not read the primary for read_your_writes, so this would not measure what it says',
    );
  }
  return readYourWrites;
}
