/** The command line of `npm run bench` and the data set of each scale. */

/**
 * Connectors per bot stay the same (50) at every scale: only the table grows, so comparing the scales
 * measures what the size of the table costs, not what a bigger bot costs.
 */
export const CONNECTORS_PER_BOT = 50;
export const SCALES = {
  '1k': { connectors: 1_000, bots: 1_000 / CONNECTORS_PER_BOT },
  '100k': { connectors: 100_000, bots: 100_000 / CONNECTORS_PER_BOT },
  '1m': { connectors: 1_000_000, bots: 1_000_000 / CONNECTORS_PER_BOT },
} as const;
export type Scale = keyof typeof SCALES;

/** What a run without `--ops` measures. */
export const OPERATIONS = ['get', 'page', 'page-search', 'quicksearch', 'list', 'create', 'update', 'delete', 'environments', 'bots', 'test-run'] as const;
/**
 * Only with `--replica` (and then by default): get-own-write is the get with a Consistency-Token the replica has not
 * applied, so each of its reads goes to the primary (bench/replica.ts).
 */
export const REPLICA_OPERATIONS = ['get-own-write'] as const;
export type Operation = (typeof OPERATIONS)[number] | (typeof REPLICA_OPERATIONS)[number];
const ALL_OPERATIONS: readonly Operation[] = [...OPERATIONS, ...REPLICA_OPERATIONS];
export const WRITES: readonly Operation[] = ['create', 'update', 'delete'];
/** Measured against its far side, not the baseline (bench/test-run-bench.ts). */
export const AGAINST_FAR_SIDE: readonly Operation[] = ['test-run'];

export interface BenchArgs {
  scales: Scale[];
  /** Seconds of each measured run. */
  duration: number;
  /** Seconds of load before each measured run, not measured. */
  warmup: number;
  connections: number;
  /** Connections of create and update; defaults to `connections`. */
  writeConnections: number;
  ops: Operation[];
  /** Distinct callers (tokens with their own `sub`) the requests take in turn: the rate limit counts per caller. */
  callers: number;
  /** Measured runs per server and operation (3 unless told), alternated app/baseline (ABBA across operations). */
  rounds: number;
  skipSeed: boolean;
  /** Run `npm run build` even when dist/ exists. */
  build: boolean;
  /** Results go to bench/<out>.md and bench/<out>.json. */
  out: string;
  /** Only write bench/<out>.md again from bench/<out>.json. */
  reportOnly: boolean;
  /**
   * A replication pair of its own (a primary and a GTID replica, test/support/mariadb-replication.ts) instead of
   * BENCH_MYSQL_SERVER: the apps read the replica (DATABASE_READ_URLS), the baseline the primary.
   */
  replica: boolean;
  /** A checkout whose built apps (its dist/) run instead of this one's: the code before a change, to compare. */
  appRoot?: string;
  /** Record runs during which other load kept cores busy (marked); without it such a run is measured again, then refused. */
  allowBusy: boolean;
}

const USAGE = `npm run bench -- [--scale 1k|100k|1m ...] [--duration s] [--warmup s] [--connections n]
  [--write-connections n] [--callers n] [--ops ${OPERATIONS.join(',')}] [--rounds n] [--skip-seed] [--build] [--out results] [--report-only]
  [--replica [--ops ...,${REPLICA_OPERATIONS.join(',')}]] [--app-root <checkout>] [--allow-busy]
--app-root: the apps of another checkout (its built dist/), e.g. a worktree of an older commit, against the same floors.
--allow-busy: record runs the machine was busy beside (other load above 0.3 cores), marked so; without it such a run is
  measured again (twice at most) and the bench then stops without recording it.
--replica: a primary and a GTID replica of the bench's own (mariadbd on 127.0.0.1, private ports and directories), seeded
  on the primary; the apps read the replica (DATABASE_READ_URLS), the baseline the primary; results go to results-replica
  unless --out says otherwise. ${REPLICA_OPERATIONS.join(', ')} (replica only): the get with the Consistency-Token of a
  write the replica has not applied, so each read goes to the primary.
Environment: BENCH_MYSQL_SERVER (mysql://root@127.0.0.1:3306; not with --replica), BENCH_DATABASE_PREFIX (platform_bench: databases
  <prefix>_<scale>), BENCH_APP_NODE_ARGS (extra node flags for the apps, e.g. --cpu-prof), BENCH_APP_UNSET (variables of the
  image's environment the apps start without, e.g. MALLOC_ARENA_MAX: as a host that does not set them runs them; npm start's
  defaults still apply, as its launcher sets them, unless BENCH_APP_DEFAULTS=off).`;

export function parseArgs(argv: string[]): BenchArgs {
  const lists: Record<string, string[]> = {};
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=', 2);
    if (!name.startsWith('--')) fail(`unexpected argument ${argv[i]}`);
    if (['--skip-seed', '--build', '--report-only', '--replica', '--allow-busy', '--help'].includes(name)) {
      flags.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) fail(`${name} needs a value`);
    (lists[name] ??= []).push(
      ...value
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    );
  }
  if (flags.has('--help')) {
    console.log(USAGE);
    process.exit(0);
  }
  for (const name of Object.keys(lists)) {
    if (
      !['--scale', '--duration', '--warmup', '--connections', '--write-connections', '--callers', '--ops', '--rounds', '--out', '--app-root'].includes(name)
    ) {
      fail(`unknown option ${name}`);
    }
  }
  const replica = flags.has('--replica');
  const scales = unique(lists['--scale'] ?? ['1k']).map((s) => (s in SCALES ? (s as Scale) : fail(`unknown scale ${s}`)));
  const ops = unique(lists['--ops'] ?? (replica ? [...ALL_OPERATIONS] : [...OPERATIONS])).map((o) =>
    (ALL_OPERATIONS as readonly string[]).includes(o) ? (o as Operation) : fail(`unknown operation ${o}`),
  );
  const replicaOnly = ops.filter((op) => (REPLICA_OPERATIONS as readonly string[]).includes(op));
  if (!replica && replicaOnly.length > 0) {
    fail(`${replicaOnly.join(', ')} needs a read replica: run it with --replica (the bench then starts a primary and a replica of its own)`);
  }
  if (replica && flags.has('--skip-seed'))
    fail('--skip-seed does not go with --replica: the replication pair is new each run, so its database is seeded each run');
  const connections = number(lists, '--connections', 100);
  return {
    scales,
    duration: number(lists, '--duration', 10),
    warmup: number(lists, '--warmup', 3),
    connections,
    writeConnections: number(lists, '--write-connections', connections),
    ops,
    callers: Math.max(1, number(lists, '--callers', 100)),
    rounds: Math.max(1, number(lists, '--rounds', 3)),
    skipSeed: flags.has('--skip-seed'),
    build: flags.has('--build'),
    out: (lists['--out'] ?? [replica ? 'results-replica' : 'results']).pop()!.replace(/[^\w.-]/g, '_'),
    reportOnly: flags.has('--report-only'),
    replica,
    appRoot: lists['--app-root']?.pop(),
    allowBusy: flags.has('--allow-busy'),
  };
}

function number(lists: Record<string, string[]>, name: string, fallback: number): number {
  const values = lists[name];
  if (!values) return fallback;
  const value = Number(values[values.length - 1]);
  if (!Number.isFinite(value) || value < 0) fail(`${name} must be a number`);
  return value;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}
