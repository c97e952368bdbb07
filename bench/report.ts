/** Aggregation, the targets of the issue, bench/results.json and bench/results.md. */
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { BenchArgs, CONNECTORS_PER_BOT, Operation, Scale, SCALES, WRITES } from './args';
import { Fixtures } from './database';
import { imageNodeFlags, MemoryBreakdown } from './processes';
import { RunResult } from './scenarios';
import type { TestRunResult } from './test-run-bench';

export const TARGETS = { throughputRatio: 0.6, p99Ratio: 2, crossScaleRatio: 1.5, rssMb: 150, createsPerSecond: 1_000 } as const;
/** Against the denormalized floor (bench/baseline-server.js, FLOOR=denormalized): the reads of connectors only. */
export const DENORMALIZED_TARGETS = { throughputRatio: 0.8, pageThroughputRatio: 1, p99Ratio: 1.5 } as const;
/** The reads the denormalized floor answers from its own table; the other operations are the union floor's alone. */
export const DENORMALIZED_OPS: readonly Operation[] = ['get', 'page', 'page-search', 'quicksearch', 'list'];

/** app: the app; baseline: the union floor; denormalized: the denormalized floor. */
export type ServerKind = 'app' | 'baseline' | 'denormalized';
export interface Measurement extends RunResult {
  server: ServerKind;
  round: number;
  /** Highest VmRSS sampled every 200 ms during the warm-up and the measured run. */
  peakRssMb: number;
  /** CPU time per request during the measured run: the server, mariadbd, and this process (autocannon). */
  cpuMsPerRequest: { server: number; database: number; loadGenerator: number };
  /** Statements the database received per request (its 'Questions' counter), transactions included. */
  queriesPerRequest: number;
  /** Cores busy with anything but the server, mariadbd and the bench during the run: another load skews it. */
  otherCores: number;
  /** Recorded with --allow-busy although otherCores was above the threshold (absent otherwise). */
  busy?: boolean;
  /** With `--replica`: of `queriesPerRequest` (both servers), the statements the replica received per request. */
  replicaQueriesPerRequest?: number;
  /**
   * With `--replica`, the app's runs: reads the primary served instead of the replica during the measured run, by
   * reason (the app's `db_replica_fallback_reads_total`); none for a read the replica served.
   */
  primaryFallbackReads?: Record<string, number>;
}
export interface Summary {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
  peakRssMb: number;
  cpuMsPerRequest: { server: number; database: number; loadGenerator: number };
  queriesPerRequest: number;
  /** Highest of the runs (absent in results written before it was measured). */
  otherCores?: number;
  /** With `--replica`: mean statements per request the replica received (the rest went to the primary). */
  replicaQueriesPerRequest?: number;
  /** With `--replica`, the app: reads the primary served instead of the replica, per request, all runs together. */
  primaryFallbackReadsPerRequest?: number;
}
export type Verdict = boolean | null;
/** Lowest, middle and highest of the rounds. */
export interface Range {
  min: number;
  median: number;
  max: number;
}
/** How far the rounds of an operation swung. */
export interface Spread {
  /** Rounds with both an app and a floor run: the ratios are taken round by round. */
  rounds: number;
  appRequestsPerSecond: Range;
  baselineRequestsPerSecond: Range;
  /** App req/s over the baseline's of the same round. */
  throughputRatio: Range;
  /** App p99 over the baseline's of the same round (at least 1 ms). */
  p99Ratio: Range;
}
export interface OpResult {
  op: Operation;
  appName: string;
  connections: number;
  app: Summary;
  baseline: Summary;
  /** Medians of the rounds' ratios (`spread`), on which the targets are judged. */
  ratios: { throughput: number; p99: number };
  /** Absent in results written before the rounds' spread was kept. */
  spread?: Spread;
  /**
   * Against the denormalized floor (the reads in DENORMALIZED_OPS; absent otherwise and in results written before it):
   * its summary, the median ratios of the rounds and their spread, judged by `targets.throughputDenormalized` and
   * `targets.p99Denormalized`.
   */
  denormalized?: { floor: Summary; ratios: { throughput: number; p99: number }; spread: Spread };
  targets: {
    throughput: Verdict;
    p99: Verdict;
    rss: Verdict;
    errors: Verdict;
    creates: Verdict;
    throughputDenormalized?: Verdict;
    p99Denormalized?: Verdict;
  };
  runs: Measurement[];
}
export interface ScaleResult {
  scale: Scale;
  database: string;
  seedSeconds: number | null;
  counts: Fixtures['counts'];
  ops: OpResult[];
  /** The test-run operation, measured against its far side (absent when not run). */
  testRun?: TestRunResult;
  /** VmHWM of each process at the end: its peak since start, start-up included. */
  processHighWaterMb: Record<string, number>;
  /** Each process's threads and malloc arenas at the end (absent in results written before it was measured). */
  processMemory?: Record<string, MemoryBreakdown>;
}
export interface CrossScale {
  op: Operation;
  scale: Scale;
  /** The scale compared against: 1k for the target, 100k for information. */
  base: Scale;
  p50Ratio: number;
  p99Ratio: number;
  /** Only 1m against 1k is a target; the other pairs are for information (null). */
  pass: boolean | null;
}
/** With `--replica`: the bench's own primary and GTID replica (bench/replica.ts). */
export interface ReplicaSetup {
  /** How the pair was started and tuned, in words. */
  servers: string;
  /** What the apps got besides DATABASE_URL (the primary); the baseline reads the primary. */
  appEnv: Record<string, string>;
  /** get-own-write's write, per scale: its Consistency-Token and the check that the app then read the primary. */
  ownWrites: Array<{ scale: Scale; consistencyToken: string; replicaPosition: string; readYourWritesFallbacksOfOneGet: number }>;
}
export interface BenchResults {
  date: string;
  machine: { cpuModel: string; cores: number; memoryGb: number; node: string; mariadb: string };
  settings: Pick<BenchArgs, 'duration' | 'warmup' | 'connections' | 'writeConnections' | 'callers' | 'rounds'>;
  scales: ScaleResult[];
  crossScale: CrossScale[];
  /** Absent without `--replica`. */
  replica?: ReplicaSetup;
  /** The variables of the image's environment the apps were started without (BENCH_APP_UNSET); absent or empty: none. */
  appEnvUnset?: string[];
  /** The environment the image's settings gave the apps (appStartEnv: the image's, less appEnvUnset, with npm start's defaults). */
  appStartEnv?: Record<string, string>;
}

const READS: Operation[] = ['get', 'get-own-write', 'page', 'page-search', 'quicksearch', 'list', 'environments', 'bots'];
const CROSS_SCALE_OPS: Operation[] = ['page', 'page-search', 'quicksearch'];

export function summarize(runs: Measurement[]): Summary {
  const mean = (pick: (run: Measurement) => number, digits = 1) => round(runs.reduce((sum, run) => sum + pick(run), 0) / runs.length, digits);
  return {
    requestsPerSecond: mean((run) => run.requestsPerSecond),
    p50: mean((run) => run.latency.p50),
    p99: mean((run) => run.latency.p99),
    errors: runs.reduce((sum, run) => sum + run.errors + run.timeouts + run.non2xx, 0),
    peakRssMb: Math.max(...runs.map((run) => run.peakRssMb)),
    queriesPerRequest: mean((run) => run.queriesPerRequest, 2),
    otherCores: runs.every((run) => run.otherCores === undefined) ? undefined : Math.max(...runs.map((run) => run.otherCores ?? 0)),
    replicaQueriesPerRequest: runs.every((run) => run.replicaQueriesPerRequest === undefined) ? undefined : mean((run) => run.replicaQueriesPerRequest ?? 0, 2),
    primaryFallbackReadsPerRequest: runs.every((run) => run.primaryFallbackReads === undefined)
      ? undefined
      : round(
          runs.reduce((sum, run) => sum + Object.values(run.primaryFallbackReads ?? {}).reduce((a, b) => a + b, 0), 0) /
            Math.max(
              runs.reduce((sum, run) => sum + run.total, 0),
              1,
            ),
          2,
        ),
    cpuMsPerRequest: {
      server: mean((run) => run.cpuMsPerRequest.server, 3),
      database: mean((run) => run.cpuMsPerRequest.database, 3),
      loadGenerator: mean((run) => run.cpuMsPerRequest.loadGenerator, 3),
    },
  };
}

/** The middle value; the mean of the two middle ones for an even count (NaN for none). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function range(values: number[], digits: number): Range {
  return { min: round(Math.min(...values), digits), median: round(median(values), digits), max: round(Math.max(...values), digits) };
}

/** The app's and the floor's run of each round that has both, in round order. */
function roundPairs(runs: Measurement[], floor: ServerKind): Array<[Measurement, Measurement]> {
  const rounds = [...new Set(runs.map((run) => run.round))].sort((a, b) => a - b);
  return rounds.flatMap((r) => {
    const [app, baseline] = (['app', floor] as const).map((kind) => runs.find((run) => run.server === kind && run.round === r));
    return app && baseline ? [[app, baseline] as [Measurement, Measurement]] : [];
  });
}

/** The ratios of each round against a floor (the union floor unless told), unrounded. */
function roundRatios(runs: Measurement[], floor: ServerKind = 'baseline'): { throughput: number[]; p99: number[] } {
  const pairs = roundPairs(runs, floor);
  return {
    throughput: pairs.map(([app, baseline]) => app.requestsPerSecond / baseline.requestsPerSecond),
    p99: pairs.map(([app, baseline]) => app.latency.p99 / Math.max(baseline.latency.p99, 1)),
  };
}

/** Min, median and max over the rounds of the req/s of each side and of the ratios of each round (`ratios`, when already taken). */
export function spreadOf(runs: Measurement[], ratios = roundRatios(runs), floor: ServerKind = 'baseline'): Spread {
  const requestsPerSecond = (kind: ServerKind) =>
    range(
      runs.filter((run) => run.server === kind).map((run) => run.requestsPerSecond),
      1,
    );
  return {
    rounds: ratios.throughput.length,
    appRequestsPerSecond: requestsPerSecond('app'),
    baselineRequestsPerSecond: requestsPerSecond(floor),
    throughputRatio: range(ratios.throughput, 2),
    p99Ratio: range(ratios.p99, 2),
  };
}

/**
 * The operation's summaries and targets. The ratios are taken round by round and judged on their median,
 * so one round that swung moves neither the verdict nor the reported ratio.
 */
export function judge(op: Operation, appName: string, connections: number, runs: Measurement[]): OpResult {
  const appSummary = summarize(runs.filter((run) => run.server === 'app'));
  const baseline = summarize(runs.filter((run) => run.server === 'baseline'));
  const perRound = roundRatios(runs);
  if (perRound.throughput.length === 0) throw new Error(`${op}: no round has both an app and a baseline run`);
  // Judged unrounded (0.599 misses 0.6), reported to two digits.
  const exact = { throughput: median(perRound.throughput), p99: median(perRound.p99) };
  const ratios = { throughput: round(exact.throughput, 2), p99: round(exact.p99, 2) };
  const read = READS.includes(op);
  const denormalized = denormalizedResult(op, runs);
  return {
    op,
    appName,
    connections,
    app: appSummary,
    baseline,
    ratios,
    spread: spreadOf(runs, perRound),
    targets: {
      throughput: read ? exact.throughput >= TARGETS.throughputRatio : null,
      p99: read ? exact.p99 <= TARGETS.p99Ratio : null,
      rss: appSummary.peakRssMb <= TARGETS.rssMb,
      errors: appSummary.errors === 0,
      creates: op === 'create' ? appSummary.requestsPerSecond >= TARGETS.createsPerSecond : null,
      ...(denormalized ? { throughputDenormalized: denormalized.throughput, p99Denormalized: denormalized.p99 } : {}),
    },
    ...(denormalized ? { denormalized: denormalized.result } : {}),
    runs,
  };
}

/** The app against the denormalized floor, when the operation ran on it: page must beat it, the other reads reach 0.8 of it. */
function denormalizedResult(
  op: Operation,
  runs: Measurement[],
): { result: NonNullable<OpResult['denormalized']>; throughput: boolean; p99: boolean } | undefined {
  const perRound = roundRatios(runs, 'denormalized');
  if (perRound.throughput.length === 0) return undefined;
  const exact = { throughput: median(perRound.throughput), p99: median(perRound.p99) };
  return {
    result: {
      floor: summarize(runs.filter((run) => run.server === 'denormalized')),
      ratios: { throughput: round(exact.throughput, 2), p99: round(exact.p99, 2) },
      spread: spreadOf(runs, perRound, 'denormalized'),
    },
    throughput: op === 'page' ? exact.throughput > DENORMALIZED_TARGETS.pageThroughputRatio : exact.throughput >= DENORMALIZED_TARGETS.throughputRatio,
    p99: exact.p99 <= DENORMALIZED_TARGETS.p99Ratio,
  };
}

/**
 * Page and quicksearch app latency of a larger scale over a smaller one. The target is 1m against 1k;
 * 100k against 1k and 1m against 100k (the same CONNECTORS_PER_BOT, 50, per bot; a table 100 or 10 times larger) inform.
 */
export function crossScale(scales: ScaleResult[]): CrossScale[] {
  const pairs: Array<[Scale, Scale]> = [
    ['1k', '100k'],
    ['1k', '1m'],
    ['100k', '1m'],
  ];
  return pairs.flatMap(([small, large]) => {
    const [a, b] = [scales.find((s) => s.scale === small), scales.find((s) => s.scale === large)];
    if (!a || !b) return [];
    return CROSS_SCALE_OPS.flatMap((op) => {
      const [x, y] = [a.ops.find((o) => o.op === op)?.app, b.ops.find((o) => o.op === op)?.app];
      if (!x || !y) return [];
      const [p50, p99] = [y.p50 / Math.max(x.p50, 1), y.p99 / Math.max(x.p99, 1)];
      const target = small === '1k' && large === '1m';
      const pass = target ? p50 <= TARGETS.crossScaleRatio && p99 <= TARGETS.crossScaleRatio : null;
      return [{ op, scale: large, base: small, p50Ratio: round(p50, 2), p99Ratio: round(p99, 2), pass }];
    });
  });
}

export function machine(mariadb: string): BenchResults['machine'] {
  return { cpuModel: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGb: Math.round(totalmem() / 2 ** 30), node: process.version, mariadb };
}

/** bench/<name>.json and bench/<name>.md. */
export function writeResults(results: BenchResults, name: string): void {
  writeFileSync(resolve(__dirname, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(resolve(__dirname, `${name}.md`), markdown(results));
}

const verdict = (v: Verdict) => (v === null ? '' : v ? 'PASS' : '**FAIL**');
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;

function opTable(scale: ScaleResult): string[] {
  const header = [
    'operation',
    'conns',
    'app req/s',
    'base req/s',
    'req/s ratio',
    'app p50',
    'app p99',
    'base p50',
    'base p99',
    'p99 ratio',
    'app err',
    'base err',
    'app RSS MB',
    'base RSS MB',
    'req/s ≥ 60%',
    'p99 ≤ 2x',
    'RSS ≤ 150',
    '0 errors',
    '≥ 1,000/s',
  ];
  return [
    row(header),
    row(header.map(() => '---')),
    ...scale.ops.map((o) =>
      row([
        `${o.op}${WRITES.includes(o.op) ? ' (write)' : ''}`,
        o.connections,
        o.app.requestsPerSecond,
        o.baseline.requestsPerSecond,
        o.ratios.throughput,
        o.app.p50,
        o.app.p99,
        o.baseline.p50,
        o.baseline.p99,
        o.ratios.p99,
        o.app.errors,
        o.baseline.errors,
        o.app.peakRssMb,
        o.baseline.peakRssMb,
        verdict(o.targets.throughput),
        verdict(o.targets.p99),
        verdict(o.targets.rss),
        verdict(o.targets.errors),
        verdict(o.targets.creates),
      ]),
    ),
  ];
}

/** The reads measured against the denormalized floor as well: the app's figures beside that floor's. */
function denormalizedTable(scale: ScaleResult): string[] {
  const measured = scale.ops.filter((o) => o.denormalized);
  if (measured.length === 0) return [];
  const header = [
    'operation',
    'app req/s',
    'denorm req/s',
    'req/s ratio',
    'ratio min / median / max',
    'app p99',
    'denorm p99',
    'p99 ratio',
    'denorm cpu ms/req',
    'denorm queries/req',
    'denorm RSS MB',
    `req/s ≥ ${DENORMALIZED_TARGETS.throughputRatio} (page > ${DENORMALIZED_TARGETS.pageThroughputRatio})`,
    `p99 ≤ ${DENORMALIZED_TARGETS.p99Ratio}x`,
  ];
  return [
    '',
    'Against the denormalized floor (one row per connector, its tags and flows stored on it as JSON, one statement per read; the',
    'union floor above reads the same schema as the app):',
    '',
    row(header),
    row(header.map(() => '---')),
    ...measured.map((o) => {
      const d = o.denormalized!;
      const r = d.spread.throughputRatio;
      return row([
        o.op,
        o.app.requestsPerSecond,
        d.floor.requestsPerSecond,
        d.ratios.throughput,
        `${r.min} / ${r.median} / ${r.max}`,
        o.app.p99,
        d.floor.p99,
        d.ratios.p99,
        d.floor.cpuMsPerRequest.server,
        d.floor.queriesPerRequest,
        d.floor.peakRssMb,
        verdict(o.targets.throughputDenormalized ?? null),
        verdict(o.targets.p99Denormalized ?? null),
      ]);
    }),
  ];
}

/** The spread of an operation's rounds; for results written before it was kept, worked out from their runs (if any). */
export function spreadOfResult(o: OpResult): Spread | undefined {
  return o.spread ?? (o.runs?.length ? spreadOf(o.runs) : undefined);
}

function spreadTable(scale: ScaleResult): string[] {
  const header = [
    'operation',
    'rounds',
    'app req/s min / median / max',
    'base req/s min / median / max',
    'req/s ratio min / median / max',
    'p99 ratio min / median / max',
  ];
  const cells = (r: Range) => `${r.min} / ${r.median} / ${r.max}`;
  return [
    row(header),
    row(header.map(() => '---')),
    ...scale.ops.map((o) => {
      const spread = spreadOfResult(o);
      const label = `${o.op}${WRITES.includes(o.op) ? ' (write)' : ''}`;
      if (!spread) return row([label, 'not recorded', '', '', '', '']);
      return row([
        label,
        spread.rounds,
        cells(spread.appRequestsPerSecond),
        cells(spread.baselineRequestsPerSecond),
        cells(spread.throughputRatio),
        cells(spread.p99Ratio),
      ]);
    }),
  ];
}

function testRunTable(scale: ScaleResult): string[] {
  const t = scale.testRun;
  if (!t) return [];
  const header = [
    'one at a time: far side p50',
    'via app p50',
    'overhead p50',
    'overhead p99',
    'conns',
    'far side req/s',
    'via app req/s',
    'via app p50',
    'via app p99',
    'errors',
    `RSS before → with ${t.waiting.runs} waiting`,
    'overhead ≤ 2 ms',
    'RSS ≤ 150',
    '0 errors',
  ];
  return [
    '',
    `Test runs (\`POST …/rest-connectors/test\`) against a far side on 127.0.0.2, compared with the far side driven directly; then ${t.waiting.runs} runs held on a slow far side (${t.waiting.answered200} answered 200):`,
    '',
    row(header),
    row(header.map(() => '---')),
    row([
      t.sequential.farSide.p50,
      t.sequential.app.p50,
      t.overheadP50Ms,
      t.overheadP99Ms,
      t.connections,
      t.farSide.requestsPerSecond,
      t.app.requestsPerSecond,
      t.app.p50,
      t.app.p99,
      t.app.errors,
      `${t.waiting.rssBeforeMb} → ${t.waiting.peakRssMb}`,
      verdict(t.targets.overhead),
      verdict(t.targets.rss),
      verdict(t.targets.errors),
    ]),
  ];
}

function cpuTable(scale: ScaleResult): string[] {
  const header = [
    'operation',
    'app',
    'mariadbd (app)',
    'baseline',
    'mariadbd (baseline)',
    'autocannon (app)',
    'autocannon (baseline)',
    'queries/req app',
    'queries/req base',
    'other load (cores)',
  ];
  return [
    row(header),
    row(header.map(() => '---')),
    ...scale.ops.map(({ op, app: a, baseline: b }) =>
      row([
        op,
        a.cpuMsPerRequest.server,
        a.cpuMsPerRequest.database,
        b.cpuMsPerRequest.server,
        b.cpuMsPerRequest.database,
        a.cpuMsPerRequest.loadGenerator,
        b.cpuMsPerRequest.loadGenerator,
        a.queriesPerRequest,
        b.queriesPerRequest,
        a.otherCores === undefined ? '' : Math.max(a.otherCores, b.otherCores ?? 0),
      ]),
    ),
  ];
}

/** With `--replica`: where each operation's statements went, and the app's reads the primary served instead of the replica. */
function replicaTable(scale: ScaleResult): string[] {
  const header = [
    'operation',
    'app statements/req on the replica',
    'app statements/req on the primary',
    'app reads/req the primary served instead (fallbacks)',
    'base statements/req (primary)',
  ];
  return [
    row(header),
    row(header.map(() => '---')),
    ...scale.ops.map(({ op, app: a, baseline: b }) => {
      const onReplica = a.replicaQueriesPerRequest ?? 0;
      return row([
        op,
        onReplica,
        round(a.queriesPerRequest - onReplica, 2),
        a.primaryFallbackReadsPerRequest ?? '',
        round(b.queriesPerRequest - (b.replicaQueriesPerRequest ?? 0), 2),
      ]);
    }),
  ];
}

/** Targets met and missed; the misses grouped by target, e.g. `throughput: 1k get, 1k page`. */
export function verdicts(results: BenchResults): { pass: number; fail: number; failures: string[] } {
  const missed = new Map<string, string[]>();
  const miss = (target: string, what: string) => missed.set(target, [...(missed.get(target) ?? []), what]);
  let pass = 0;
  for (const scale of results.scales) {
    for (const o of scale.ops) {
      for (const [target, v] of Object.entries(o.targets)) {
        if (v === true) pass++;
        if (v === false) miss(target, `${scale.scale} ${o.op}`);
      }
    }
  }
  for (const scale of results.scales) {
    for (const [target, v] of Object.entries(scale.testRun?.targets ?? {})) {
      if (v) pass++;
      else miss(`test-run ${target}`, scale.scale);
    }
  }
  for (const c of results.crossScale) {
    if (c.pass === true) pass++;
    if (c.pass === false) miss('latency across scales', `${c.op} ${c.scale}/${c.base} (p50 ${c.p50Ratio}x, p99 ${c.p99Ratio}x)`);
  }
  const failures = [...missed].map(([target, whats]) => `${target}: ${whats.join(', ')}`);
  return { pass, fail: [...missed.values()].reduce((n, whats) => n + whats.length, 0), failures };
}

function markdown(results: BenchResults): string {
  const { machine: m, settings: s } = results;
  const { pass, fail, failures } = verdicts(results);
  const lines = [
    '# Benchmark: the apps against a raw Node baseline',
    '',
    `Written by \`npm run bench\` on ${results.date}: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, MariaDB ${m.mariadb}.`,
    `Each measurement: ${s.duration} s of autocannon from 127.0.0.1 after ${s.warmup} s of warm-up, ${s.connections} connections for reads,`,
    `${s.writeConnections} for writes, ${s.callers} caller(s) (tokens with distinct \`sub\`, taken in turn), ${s.rounds} round(s) per server,`,
    'app and baseline alternated (ABBA across operations).',
    '',
    '## How to read this',
    '',
    `- **app**: the real app built in \`dist/\`, run as production runs it (\`node ${imageNodeFlags().join(' ')} dist/apps/<app>/main.js\`, the image's flags, NODE_ENV=production,`,
    '  LOG_LEVEL=info with its log lines written to /dev/null, rate limit raised out of the way)' +
      (results.appEnvUnset?.length ? `, and without the image's ${results.appEnvUnset.join(', ')} (BENCH_APP_UNSET)` : ", with the image's environment") +
      (results.appStartEnv
        ? `: ${Object.entries(results.appStartEnv)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`
        : '') +
      '. **base**: `bench/baseline-server.js`,',
    '  node:http + mysql2 (pool of 10, like the app) + an HMAC check of the same JWT, one scoped query per read (the page: count and',
    '  rows), a write and its tags in one transaction, JSON of the same shape: the floor of what Node does for the request on this machine,',
    "  on the app's schema (a connector's tags and flows joined in by a UNION). **denorm**: the same server with FLOOR=denormalized, whose",
    '  reads of connectors come from one row per connector with its tags and flows stored on it as JSON: the least work the answer needs,',
    '  whatever the schema (measured for get, page, page-search, quicksearch and list; app, base and denorm taken in turn each round).',
    '- req/s: completed requests per second; p50/p99: latency in ms as autocannon sees it; err: connection errors + timeouts +',
    '  non-2xx answers; RSS: highest resident memory of that process sampled every 200 ms during the run (MB).',
    '- Requests carry the tokens of several callers in turn, as real traffic does: the apps rate-limit per caller (`sub`).',
    '- The second table of each scale says where the time goes: CPU ms per request of the server, of mariadbd and of the load',
    '  generator, and statements per request. The app is one Node thread: its req/s is about 1000 / (its CPU ms per request).',
    '- ratios are app / baseline, taken round by round (each app run against the baseline run next to it); the first table shows',
    '  their median, on which the targets are judged, beside the mean req/s, p50 and p99 of each side over the rounds. The',
    '  table "Spread over N rounds" of each scale shows the lowest, median and highest of each, so a swing between rounds shows.',
    "- Targets: on every read, app req/s ≥ 60% of the baseline's and app p99 ≤ 2x the baseline's (median ratios); against the",
    `  denormalized floor, req/s ≥ ${DENORMALIZED_TARGETS.throughputRatio} of its own (page above ${DENORMALIZED_TARGETS.pageThroughputRatio}) and p99 ≤ ${DENORMALIZED_TARGETS.p99Ratio}x;`,
    '  app RSS ≤ 150 MB; zero errors (the issue asks it at 100 connections for 30 s: see the settings above); creates ≥ 1,000/s;',
    '  page and quicksearch p50 and p99 at 1m within 1.5x of 1k (table "Across scales", where more than one scale ran).',
    '- Everything shares 2 cores: the load generator, MariaDB and the server under test. Numbers move by ±10% between runs.',
    '- The requests (the same for app and baseline): get = one connector by id, round-robin over 20 connectors of each of 50',
    '  bots; page = `/pagination` with the defaults and page-search = with `searchTerms=connector 1&searchTerms=tag-a`, both',
    '  round-robin over the 50 bots, as is quicksearch (four terms in turn); list = a bot of exactly 50 connectors; create =',
    "  POST of a new name into a bot of its own; update = full PUT (no If-Match) round-robin over a bot's 1,000 connectors;",
    '  environments = the 10 environments of the organization; bots = an environment of 20 bots.',
    '',
    ...(results.replica ? replicaIntro(results.replica) : []),
    `**${pass} targets pass, ${fail} fail.**`,
    '',
    ...failures.map((failure) => `- ${failure}`),
    '',
  ];
  for (const scale of results.scales) {
    const { connectors, bots } = SCALES[scale.scale];
    lines.push(
      `## Scale ${scale.scale}: ${connectors.toLocaleString('en')} connectors over ${bots.toLocaleString('en')} bots`,
      '',
      `Database \`${scale.database}\`: ${Object.entries(scale.counts)
        .map(([k, v]) => `${v.toLocaleString('en')} ${k}`)
        .join(', ')}` + (scale.seedSeconds === null ? ' (reused).' : `; created, migrated and seeded in ${scale.seedSeconds} s.`),
      `Peak RSS since start (VmHWM, start-up included): ${Object.entries(scale.processHighWaterMb)
        .map(([k, v]) => `${k} ${v} MB`)
        .join(', ')}.`,
      ...(scale.processMemory
        ? [
            `At the end: ${Object.entries(scale.processMemory)
              .map(([k, v]) => `${k} ${v.rssMb} MB (${v.threads} threads, ${v.arenas} malloc arenas besides the main one holding ${v.arenasMb} MB)`)
              .join(', ')}.`,
          ]
        : []),
      '',
      ...opTable(scale),
      ...denormalizedTable(scale),
      ...testRunTable(scale),
      '',
      `Spread over ${s.rounds} ${s.rounds === 1 ? 'round' : 'rounds'}: min / median / max of each side's req/s and of the ratios taken round by round`,
      '(app against the baseline run next to it); the table above shows the median ratios.',
      '',
      ...spreadTable(scale),
      '',
      'Where the time goes: CPU ms per request during the measured runs (the server process, mariadbd, the load generator),',
      "and statements the database received per request (MariaDB's Questions counter, server-wide: transactions count BEGIN and",
      'COMMIT). Other load: cores busy with anything else during the runs (highest); above 0.3 another job skewed the numbers.',
      '',
      ...cpuTable(scale),
      '',
    );
    if (results.replica) {
      lines.push(
        "Where the statements went (MariaDB's Questions counter of each server, per request; the apps' probes, two statements a",
        "second per app, are in it) and the reads the app's primary served instead of the replica (its `db_replica_fallback_reads_total`):",
        '',
        ...replicaTable(scale),
        '',
      );
    }
  }
  if (results.crossScale.length > 0) {
    lines.push(
      '## Across scales (app latency, larger scale / smaller scale)',
      '',
      `The target is 1m against 1k. Every scale holds ${CONNECTORS_PER_BOT} connectors per bot, so the ratios show what the size of the`,
      'table alone costs; 1m against 100k is shown for information.',
      '',
      row(['operation', 'scale', 'against', 'p50 ratio', 'p99 ratio', '≤ 1.5x']),
      row(['---', '---', '---', '---', '---', '---']),
    );
    for (const c of results.crossScale) lines.push(row([c.op, c.scale, c.base, c.p50Ratio, c.p99Ratio, c.pass === null ? '(info)' : verdict(c.pass)]));
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function replicaIntro(replica: ReplicaSetup): string[] {
  const env = Object.entries(replica.appEnv)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return [
    '## Read replica (`--replica`)',
    '',
    `- The database is a replication pair of the bench's own: ${replica.servers}`,
    `- The apps: DATABASE_URL = the primary, ${env}: plain reads go to the replica, and every request runs in an`,
    "  AsyncLocalStorage scope (what it must see, what it wrote). The baseline reads the primary. mariadbd CPU is both servers'.",
    '- get-own-write: the requests of get, each with the `Consistency-Token` header of a write the replica has not applied',
    '  (its SQL thread stopped for the operation; the write: a PUT through the app by a caller of its own), so every read of the',
    '  app goes to the primary (`read_your_writes`); the baseline gets the same requests and ignores the header. Afterwards the',
    '  SQL thread is started again and the replica catches up before the next operation.',
    ...replica.ownWrites.map(
      (w) =>
        `- ${w.scale}: the write's token ${w.consistencyToken}, the replica at ${w.replicaPosition || '(empty)'}; one get with the token made the app's` +
        ` read_your_writes fallbacks grow by ${w.readYourWritesFallbacksOfOneGet} before the measurement.`,
    ),
    '',
  ];
}

export function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
