/**
 * `npm run bench -- [--scale 1k|100k|1m] [--duration s] [--connections n] [--ops a,b] [--skip-seed] [--replica] ...`
 * (`--help` lists all): seeds a MariaDB database per scale, starts the apps as production runs them and
 * the raw baseline, drives both with autocannon operation by operation, and writes bench/results.md and
 * bench/results.json. With `--replica`, on a primary and a GTID replica of its own, the apps reading the replica
 * (bench/replica.ts), into bench/results-replica.md and .json.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BenchArgs, parseArgs, Scale } from './args';
import { benchServer, databaseOf, databaseUrlOf, prepareDatabase, setBenchServer, statementCounter } from './database';
import {
  AppName,
  benchToken,
  busyNow,
  cpuMs,
  databasePid,
  appEnvUnset,
  appStartEnv,
  ensureBuilt,
  machineBusyMs,
  memoryBreakdown,
  OTHER_LOAD_WARNING,
  runBench,
  rssKb,
  RssSampler,
  Server,
  startApp,
  startBaseline,
} from './processes';
import { BenchReplication, checkReadsPrimary, difference, fallbackReads, holdOwnWrite, OwnWrite, startBenchReplication, waitForReplicasUp } from './replica';
import {
  BenchResults,
  crossScale,
  DENORMALIZED_OPS,
  judge,
  machine,
  Measurement,
  OpResult,
  Range,
  round,
  ScaleResult,
  ServerKind,
  spreadOfResult,
  verdicts,
  writeResults,
} from './report';
import { drive, probe, Scenario, scenarios } from './scenarios';
import { benchTestRuns } from './test-run-bench';

const log = (line: string) => console.log(line);
const running = new Set<Server>();
/** With `--replica`: the pair, closed at the end, on a failure and on SIGINT/SIGTERM. */
let replication: BenchReplication | undefined;

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  if (args.reportOnly) {
    writeResults(JSON.parse(readFileSync(resolve(__dirname, `${args.out}.json`), 'utf8')) as BenchResults, args.out);
    log(`written bench/${args.out}.md from bench/${args.out}.json`);
    return;
  }
  const results: BenchResults = {
    date: new Date().toISOString(),
    machine: machine('unknown'),
    settings: {
      duration: args.duration,
      warmup: args.warmup,
      connections: args.connections,
      writeConnections: args.writeConnections,
      callers: args.callers,
      rounds: args.rounds,
    },
    scales: [],
    crossScale: [],
    appEnvUnset: appEnvUnset(),
    appStartEnv: appStartEnv(),
  };
  if (results.appEnvUnset!.length > 0) {
    log(`the apps start without the image's ${results.appEnvUnset!.join(', ')} (BENCH_APP_UNSET); with ${JSON.stringify(appStartEnv())}`);
  }
  if (args.replica) {
    log("\n== starting a replication pair of the bench's own (--replica)");
    replication = await startBenchReplication(log);
    setBenchServer(replication.primaryServer);
    results.replica = {
      servers: replication.servers,
      appEnv: {
        DATABASE_READ_URLS: 'the replica (mysql://root@127.0.0.1:<its port>/<the database>)',
        DATABASE_REPLICA_MAX_LAG_MS: replication.appEnv('1k').DATABASE_REPLICA_MAX_LAG_MS,
      },
      ownWrites: [],
    };
  }
  try {
    for (const scale of args.scales) {
      results.scales.push(await benchScale(scale, args, results));
      results.crossScale = crossScale(results.scales);
      writeResults(results, args.out);
    }
  } finally {
    await replication?.close();
  }
  printSummary(results, args);
}

async function benchScale(scale: Scale, args: BenchArgs, results: BenchResults): Promise<ScaleResult> {
  log(`\n== scale ${scale}: ${args.skipSeed ? 'reusing' : 'seeding'} ${databaseOf(scale)}${replication ? ' on the primary' : ''}`);
  const prepared = await prepareDatabase(scale, args.skipSeed, log);
  if (replication) {
    const started = Date.now();
    await replication.pair.caughtUp(300_000);
    log(`  the replica caught up with the primary in ${Date.now() - started} ms`);
  }
  results.machine = machine(prepared.mariadbVersion);
  const { fixtures } = prepared;
  const tokens = await Promise.all(Array.from({ length: args.callers }, (_, i) => benchToken(fixtures.organization, i + 1)));
  const plan = scenarios(fixtures, args);
  const testRuns = args.ops.includes('test-run');
  const apps = [...new Set([...plan.map((s) => s.app), ...(testRuns ? (['transactional-service'] as const) : [])])];
  if (args.appRoot) log(`the apps of ${args.appRoot} (its dist/, as built there)`);
  else ensureBuilt(apps, args.build, log);
  const denormalized = plan.some((s) => DENORMALIZED_OPS.includes(s.op));

  const servers = new Map<AppName | 'baseline' | 'denormalized', Server>();
  const ops: OpResult[] = [];
  // With --replica the primary's and the replica's statements, in that order.
  const statements = await statementCounter(replication ? [replication.primaryServer, replication.replicaServer] : [benchServer()]);
  const databasePids = replication ? replication.pids() : [databasePid(benchServer())].filter((pid): pid is number => pid !== undefined);
  try {
    for (const app of apps) servers.set(app, track(await startApp(app, databaseUrlOf(scale), replication?.appEnv(scale), args.appRoot)));
    servers.set('baseline', track(await startBaseline(databaseUrlOf(scale))));
    if (denormalized) servers.set('denormalized', track(await startBaseline(databaseUrlOf(scale), 'denormalized')));
    log(`started ${[...servers.values()].map((s) => `${s.name} (pid ${s.child.pid}, port ${s.port})`).join(', ')}`);
    log(`the database's CPU time: mariadbd pid ${databasePids.join(' + ') || '(not found)'}`);
    if (replication) for (const app of apps) await waitForReplicasUp(servers.get(app)!);
    for (const [i, scenario] of plan.entries()) {
      let ownWrite: OwnWrite | undefined;
      if (scenario.op === 'get-own-write') {
        if (!replication) throw new Error('get-own-write needs --replica');
        const app = servers.get(scenario.app)!;
        // A caller none of the requests use: the bench's callers have no recent write of their own.
        ownWrite = await holdOwnWrite(replication, app, fixtures, await benchToken(fixtures.organization, args.callers + 1));
        scenario.headers = { 'consistency-token': ownWrite.consistencyToken };
        const grown = await checkReadsPrimary(scenario, app, tokens[0]).catch(async (error: unknown) => {
          await ownWrite!.release();
          throw error;
        });
        log(
          `get-own-write: the replica's SQL thread stopped, a PUT through the app answered Consistency-Token ${ownWrite.consistencyToken} ` +
            `(the replica at ${ownWrite.replicaPosition || '(empty)'}); one get with it: read_your_writes fallbacks +${grown}`,
        );
        results.replica!.ownWrites.push({
          scale,
          consistencyToken: ownWrite.consistencyToken,
          replicaPosition: ownWrite.replicaPosition,
          readYourWritesFallbacksOfOneGet: grown,
        });
      }
      try {
        const kinds: ServerKind[] = DENORMALIZED_OPS.includes(scenario.op) ? ['app', 'baseline', 'denormalized'] : ['app', 'baseline'];
        const serverOf = (kind: ServerKind) => servers.get(kind === 'app' ? scenario.app : kind)!;
        for (const floor of kinds.slice(1)) await compareAnswers(scenario, serverOf('app'), serverOf(floor), tokens[0]);
        const runs: Measurement[] = [];
        for (let r = 0; r < args.rounds; r++) {
          // Each server first in turn: with two, ABBA (app first on even operations, the floor on odd ones, swapped each round).
          const order = kinds.map((_, k) => kinds[(k + i + r) % kinds.length]);
          for (const kind of order) {
            runs.push(
              await measure({ scale, scenario, server: kind, round: r, target: serverOf(kind), tokens, args, statements: statements.read, databasePids }),
            );
          }
        }
        ops.push(judge(scenario.op, scenario.app, scenario.connections, runs));
      } finally {
        if (ownWrite) {
          await ownWrite.release();
          log("get-own-write: the replica's SQL thread started again; it caught up");
        }
      }
    }
    const testRun = testRuns ? await benchTestRuns(servers.get('transactional-service')!, fixtures, tokens, args, log) : undefined;
    const processHighWaterMb = Object.fromEntries([...servers.values()].map((s) => [s.name, mb(rssKb(s.child.pid!, 'VmHWM'))]));
    const processMemory = Object.fromEntries(
      [...servers.values()].flatMap((s) => {
        const breakdown = memoryBreakdown(s.child.pid!);
        return breakdown ? [[s.name, breakdown]] : [];
      }),
    );
    return {
      scale,
      database: databaseOf(scale),
      seedSeconds: prepared.seedSeconds ?? null,
      counts: fixtures.counts,
      ops,
      testRun,
      processHighWaterMb,
      processMemory,
    };
  } finally {
    await statements.end();
    await Promise.all([...servers.values()].map(async (s) => (await s.stop(), running.delete(s))));
  }
}

interface Run {
  scale: Scale;
  scenario: Scenario;
  server: ServerKind;
  round: number;
  target: Server;
  tokens: string[];
  args: BenchArgs;
  /** Statements each database server has received so far (one server; with --replica the primary, then the replica). */
  statements: () => Promise<number[]>;
  /** The database's processes (with --replica both mariadbd). */
  databasePids: number[];
}

/** Busy runs (other load above OTHER_LOAD_WARNING) measured again before the bench gives up on the operation. */
const BUSY_RETRIES = 2;

/**
 * One measured run, on a quiet machine: it waits for the machine to calm down first, and a run that other load skewed is
 * measured again; after BUSY_RETRIES such runs the bench stops without recording (unless --allow-busy, which records it marked).
 */
async function measure(run: Run): Promise<Measurement> {
  for (let attempt = 0; ; attempt++) {
    await waitForQuiet(run.args);
    const measured = await measureOnce(run);
    if (measured.otherCores <= OTHER_LOAD_WARNING) return measured;
    if (run.args.allowBusy) return { ...measured, busy: true };
    if (attempt === BUSY_RETRIES) {
      throw new Error(
        `${run.scenario.op} on ${run.server}: ${BUSY_RETRIES + 1} runs with other load on the machine (last ${measured.otherCores} cores): not recorded. ` +
          'Stop what else runs (tests, builds, helpers) and measure again, or pass --allow-busy to record marked runs.',
      );
    }
    log(`  measured again: ${measured.otherCores} cores busy outside the bench`);
  }
}

/** Waits (up to a minute) until the machine's cores, bench servers idle, are busy with less than OTHER_LOAD_WARNING; refuses after that. */
async function waitForQuiet(args: BenchArgs): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const busy = await busyNow(1_000);
    if (busy <= OTHER_LOAD_WARNING || args.allowBusy) return;
    if (Date.now() > deadline) {
      throw new Error(`the machine stayed busy (${busy} cores, servers idle) for a minute: not measuring. Stop what else runs, or pass --allow-busy.`);
    }
    log(`  waiting for a quiet machine: ${busy} cores busy with other work`);
  }
}

async function measureOnce({ scale, scenario, server, round: roundNo, target, tokens, args, statements, databasePids }: Run): Promise<Measurement> {
  const sampler = new RssSampler(target.child.pid!);
  sampler.start();
  if (args.warmup > 0) await drive(scenario, target.port, tokens, args.warmup);
  const fallbacks = replication && server === 'app' ? await fallbackReads(target) : undefined;
  const cpuNow = () => [cpuMs(target.child.pid!), databasePids.reduce((sum, pid) => sum + cpuMs(pid), 0), cpuMs(process.pid), machineBusyMs()];
  const cpuBefore = cpuNow();
  const statementsBefore = await statements();
  const run = await drive(scenario, target.port, tokens, args.duration);
  // Minus one on each server: the counter's own SHOW STATUS.
  const received = (await statements()).map((after, i) => after - statementsBefore[i] - 1);
  const queriesPerRequest = received.reduce((sum, n) => sum + n, 0) / Math.max(run.total, 1);
  const replicaQueriesPerRequest = replication ? received[1] / Math.max(run.total, 1) : undefined;
  const used = cpuNow().map((after, i) => after - cpuBefore[i]);
  const primaryFallbackReads = fallbacks ? difference(await fallbackReads(target), fallbacks) : undefined;
  const [serverMs, databaseMs, loadGeneratorMs] = used.slice(0, 3).map((ms) => round(ms / Math.max(run.total, 1), 3));
  // Cores busy with anything else (kernel network work included): another load on the machine skews the run.
  const otherCores = round((used[3] - used[0] - used[1] - used[2]) / 1000 / run.durationSeconds, 2);
  const peakRssMb = mb(sampler.stop());
  const memory = server === 'app' ? memoryBreakdown(target.child.pid!) : undefined;
  target.assertRunning();
  const errors = run.errors + run.timeouts + run.non2xx;
  const codes = Object.entries(run.statusCodes)
    .map(([code, n]) => `${code}×${n}`)
    .join(' ');
  log(
    `[${scale}] ${scenario.op.padEnd(12)} ${server.padEnd(8)} ${String(run.requestsPerSecond).padStart(8)} req/s  ` +
      `p50 ${String(run.latency.p50).padStart(4)} ms  p99 ${String(run.latency.p99).padStart(5)} ms  rss ${String(peakRssMb).padStart(5)} MB  ` +
      `cpu/req ${serverMs} ms + db ${databaseMs} ms  ${round(queriesPerRequest, 1)} queries/req` +
      (replicaQueriesPerRequest === undefined ? '' : ` (${round(replicaQueriesPerRequest, 2)} on the replica)`) +
      (primaryFallbackReads ? `  primary fallbacks ${JSON.stringify(primaryFallbackReads)}` : '') +
      (memory ? `  ${memory.threads} threads, ${memory.arenas} arenas ${memory.arenasMb} MB` : '') +
      (errors ? `  ERRORS ${errors} (${codes}, ${run.errors} conn errors, ${run.timeouts} timeouts)` : ''),
  );
  return {
    ...run,
    server,
    round: roundNo,
    peakRssMb,
    queriesPerRequest: round(queriesPerRequest, 2),
    cpuMsPerRequest: { server: serverMs, database: databaseMs, loadGenerator: loadGeneratorMs },
    otherCores,
    ...(replicaQueriesPerRequest === undefined ? {} : { replicaQueriesPerRequest: round(replicaQueriesPerRequest, 2) }),
    ...(primaryFallbackReads ? { primaryFallbackReads } : {}),
  };
}

/** Before measuring: both servers should answer the operation with a 2xx and JSON of the same shape. */
async function compareAnswers(scenario: Scenario, app: Server, baseline: Server, token: string): Promise<void> {
  app.assertRunning();
  baseline.assertRunning();
  // The same request to both, but for creates, whose names must differ, and deletes, which change what they write.
  const request = scenario.next();
  const a = await probe(scenario, app.port, token, request);
  const b = await probe(scenario, baseline.port, token, scenario.method === 'POST' || scenario.method === 'DELETE' ? undefined : request);
  if (a.status >= 300 || b.status >= 300) log(`warning: ${scenario.op}: app answered ${a.status}, ${baseline.name} ${b.status}`);
  else if (a.shape !== b.shape) log(`warning: ${scenario.op}: the answers differ in shape\n  app:      ${a.shape}\n  ${baseline.name}: ${b.shape}`);
  // A read answers the same data from either side (the app's answer also holds its ETag-bearing fields: compared as JSON).
  else if (scenario.method === 'GET' && JSON.stringify(a.json) !== JSON.stringify(b.json)) {
    log(
      `warning: ${scenario.op}: ${baseline.name} answered other data than the app\n  app:      ${JSON.stringify(a.json).slice(0, 400)}\n  ${baseline.name}: ${JSON.stringify(b.json).slice(0, 400)}`,
    );
  }
}

function printSummary(results: BenchResults, args: BenchArgs): void {
  log(`\n== summary (app vs baseline, mean of ${args.rounds} ${args.rounds === 1 ? 'round' : 'rounds'}; ratios: median of the rounds, lowest–highest; ms)`);
  // The median ratio, and the lowest and highest round's where they differ.
  const ratio = (median: number, r?: Range) => `${median}x${r && r.min !== r.max ? `, ${r.min}–${r.max}` : ''}`;
  for (const scale of results.scales) {
    for (const o of scale.ops) {
      const failed = Object.entries(o.targets)
        .filter(([, v]) => v === false)
        .map(([k]) => k);
      const spread = spreadOfResult(o);
      log(
        `${scale.scale.padEnd(5)} ${o.op.padEnd(12)} ${String(o.app.requestsPerSecond).padStart(8)} vs ${String(o.baseline.requestsPerSecond).padStart(8)} req/s ` +
          `(${ratio(o.ratios.throughput, spread?.throughputRatio)})  p99 ${o.app.p99} vs ${o.baseline.p99} (${ratio(o.ratios.p99, spread?.p99Ratio)})  rss ${o.app.peakRssMb} MB  err ${o.app.errors}` +
          (o.denormalized
            ? `  | denorm ${o.denormalized.floor.requestsPerSecond} req/s (${ratio(o.denormalized.ratios.throughput, o.denormalized.spread.throughputRatio)}) p99 ${o.denormalized.floor.p99} (${o.denormalized.ratios.p99}x)`
            : '') +
          `  ${failed.length ? `FAIL: ${failed.join(', ')}` : 'PASS'}`,
      );
    }
  }
  for (const scale of results.scales) {
    const t = scale.testRun;
    if (t) {
      log(
        `${scale.scale.padEnd(5)} test-run     overhead p50 ${t.overheadP50Ms} ms (one at a time: far side ${t.sequential.farSide.p50}, through the app ${t.sequential.app.p50}), ` +
          `${t.app.requestsPerSecond} req/s p99 ${t.app.p99} ms, ${t.waiting.runs} waiting: ${t.waiting.rssBeforeMb} → ${t.waiting.peakRssMb} MB  ${Object.values(t.targets).every(Boolean) ? 'PASS' : 'FAIL'}`,
      );
    }
  }
  for (const c of results.crossScale) {
    log(`${c.op} at ${c.scale} vs ${c.base}: p50 ${c.p50Ratio}x, p99 ${c.p99Ratio}x ${c.pass === null ? '(info)' : c.pass ? 'PASS' : 'FAIL'}`);
  }
  const { pass, fail } = verdicts(results);
  log(`${pass} targets pass, ${fail} fail; written bench/${args.out}.md and bench/${args.out}.json`);
}

function track(server: Server): Server {
  running.add(server);
  return server;
}

const mb = (kb: number) => round(kb / 1024);

/** The servers first (they hold connections to the pair), then the pair. */
async function stopAll(): Promise<void> {
  await Promise.all([...running].map((s) => s.stop()));
  await replication?.close();
}

runBench(main, stopAll);
