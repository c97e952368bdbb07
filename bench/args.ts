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

export const OPERATIONS = ['get', 'page', 'page-search', 'quicksearch', 'list', 'create', 'update', 'delete', 'environments', 'bots', 'test-run'] as const;
export type Operation = (typeof OPERATIONS)[number];
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
}

const USAGE = `npm run bench -- [--scale 1k|100k|1m ...] [--duration s] [--warmup s] [--connections n]
  [--write-connections n] [--callers n] [--ops ${OPERATIONS.join(',')}] [--rounds n] [--skip-seed] [--build] [--out results] [--report-only]
Environment: BENCH_MYSQL_SERVER (mysql://root@127.0.0.1:3306), BENCH_DATABASE_PREFIX (platform_bench: databases <prefix>_<scale>),
  BENCH_APP_NODE_ARGS (extra node flags for the apps, e.g. --cpu-prof).`;

export function parseArgs(argv: string[]): BenchArgs {
  const lists: Record<string, string[]> = {};
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=', 2);
    if (!name.startsWith('--')) fail(`unexpected argument ${argv[i]}`);
    if (['--skip-seed', '--build', '--report-only', '--help'].includes(name)) {
      flags.add(name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) fail(`${name} needs a value`);
    (lists[name] ??= []).push(...value.split(',').map((v) => v.trim()).filter(Boolean));
  }
  if (flags.has('--help')) {
    console.log(USAGE);
    process.exit(0);
  }
  for (const name of Object.keys(lists)) {
    if (!['--scale', '--duration', '--warmup', '--connections', '--write-connections', '--callers', '--ops', '--rounds', '--out'].includes(name)) {
      fail(`unknown option ${name}`);
    }
  }
  const scales = unique(lists['--scale'] ?? ['1k']).map((s) => (s in SCALES ? (s as Scale) : fail(`unknown scale ${s}`)));
  const ops = unique(lists['--ops'] ?? [...OPERATIONS]).map((o) =>
    (OPERATIONS as readonly string[]).includes(o) ? (o as Operation) : fail(`unknown operation ${o}`),
  );
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
    out: (lists['--out'] ?? ['results']).pop()!.replace(/[^\w.-]/g, '_'),
    reportOnly: flags.has('--report-only'),
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
