/**
 * `npm run bench:frameworks -- [--ops get,quicksearch,page] [--variants production,express,…] [--rounds n] [--duration s]
 * [--warmup s] [--connections n] [--callers n] [--skip-seed] [--build] [--out results-frameworks]`: issue 29's
 * measurement of the HTTP framework's share of the transactional service's reads. One database (the bench's 1k data
 * set), one server per variant:
 *
 * - `production`: dist/apps/transactional-service/main.js, started as `npm run bench` starts it;
 * - `express`: the same application module on Nest's stock ExpressAdapter, without the platform's Express middleware
 *   and without the performance overrides (bench/framework-app.ts, PERFORMANCE_OVERRIDES=off);
 * - `fastify`: the same on @nestjs/platform-fastify's FastifyAdapter;
 * - `express-overrides`: `express` with the overrides production has on its adapter and pipe (PlatformExpressAdapter,
 *   production's Express settings, the remembering pipe with ValidityCheck, the cached validation metadata):
 *   production without its HTTP edge;
 * - `fastify-overrides`: `fastify` with the overrides that know nothing of the framework (the pipe, the metadata cache):
 *   what a port to Fastify would start from, before its HTTP edge.
 *
 * Before an operation is measured, one request of it goes to each server: every answer must be a 2xx with
 * production's body. Then `rounds` rounds; in each, every server gets its warm-up and its measured run, in an order
 * rotated from round to round (and from operation to operation), so that a drift of the machine falls on each server
 * alike. The measure that the shared two cores disturb least is the server's CPU time per request, compared with
 * production's of the same round; each run also records the cores busy outside the bench (`otherCores`). Writes
 * bench/<out>.md and bench/<out>.json.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Operation, parseArgs } from './args';
import { databaseOf, databaseUrlOf, prepareDatabase, statementCounter } from './database';
import {
  benchToken,
  cpuMs,
  databasePid,
  ensureBuilt,
  ensureFrameworkAppBuilt,
  machineBusyMs,
  OTHER_LOAD_WARNING,
  runBench,
  RssSampler,
  Server,
  startApp,
  startFrameworkApp,
} from './processes';
import { machine, median, range, Range, round } from './report';
import { drive, RunResult, Scenario, scenarios } from './scenarios';

const VARIANTS = ['production', 'express', 'fastify', 'express-overrides', 'fastify-overrides'] as const;
type Variant = (typeof VARIANTS)[number];
const SERVERS: Record<Variant, { description: string; start(databaseUrl: string): Promise<Server> }> = {
  production: {
    description:
      'dist/apps/transactional-service/main.js as `npm run bench` runs it: PlatformExpressAdapter, the Express middleware, the performance overrides',
    start: (url) => startApp('transactional-service', url),
  },
  express: {
    description: "the same module on Nest's stock ExpressAdapter, no Express middleware, PERFORMANCE_OVERRIDES=off (bench/framework-app.ts)",
    start: (url) => startFrameworkApp('express', false, url),
  },
  fastify: {
    description: "the same module on @nestjs/platform-fastify's FastifyAdapter, no middleware, PERFORMANCE_OVERRIDES=off; the reply decorated with setHeader",
    start: (url) => startFrameworkApp('fastify', false, url),
  },
  'express-overrides': {
    description:
      "`express` with production's overrides of the adapter and the pipe (PlatformExpressAdapter, no ETag hashing, the remembering pipe): production without its HTTP edge",
    start: (url) => startFrameworkApp('express', true, url),
  },
  'fastify-overrides': {
    description: '`fastify` with the overrides that know nothing of the framework (the remembering pipe with ValidityCheck, the cached validation metadata)',
    start: (url) => startFrameworkApp('fastify', true, url),
  },
};
/** What each pair of variants tells, by their difference in CPU per request within a round (the first minus the second). */
const COMPARISONS: Array<{ of: Variant; minus: Variant; tells: string }> = [
  { of: 'production', minus: 'express-overrides', tells: "the platform's HTTP edge (Express middleware) on today's path" },
  { of: 'fastify', minus: 'express', tells: 'Fastify against Express, both stock' },
  { of: 'fastify-overrides', minus: 'express-overrides', tells: 'Fastify against Express, each with the overrides that apply to it' },
  { of: 'express', minus: 'express-overrides', tells: "the overrides' saving on Express" },
];

/** The transactional service's reads; the writes and the other apps are not part of this comparison. */
const READS: readonly Operation[] = ['get', 'quicksearch', 'page', 'page-search', 'list'];
/** What a run without `--ops` or `--out` takes. */
const DEFAULTS: Record<string, string> = { '--ops': 'get,quicksearch,page', '--out': 'results-frameworks' };

interface FrameworkRun {
  variant: Variant;
  round: number;
  /** 1 for the round's first run, and so on. */
  position: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Connection errors, timeouts and non-2xx answers. */
  errors: number;
  cpuMsPerRequest: { server: number; database: number; loadGenerator: number };
  statementsPerRequest: number;
  peakRssMb: number;
  otherCores: number;
}

interface VariantSummary {
  requestsPerSecond: Range;
  serverCpuMsPerRequest: Range;
  /** The server's CPU per request minus production's in the same round. */
  serverCpuMsMinusProduction: Range | null;
  databaseCpuMsPerRequest: Range;
  p50: Range;
  p99: Range;
  statementsPerRequest: number;
  peakRssMb: number;
  errors: number;
  maxOtherCores: number;
}

interface Comparison {
  of: Variant;
  minus: Variant;
  tells: string;
  /** `of`'s CPU per request minus `minus`'s, round by round. */
  cpuMsPerRequest: Range;
}

interface FrameworkResults {
  date: string;
  machine: ReturnType<typeof machine>;
  settings: { database: string; duration: number; warmup: number; connections: number; callers: number; rounds: number };
  variants: Partial<Record<Variant, string>>;
  ops: Array<{ op: Operation; runs: FrameworkRun[]; summary: Partial<Record<Variant, VariantSummary>>; comparisons: Comparison[] }>;
}

const log = (line: string) => console.log(line);

/** `--variants a,b` (every variant unless told; production always, first: the others are compared with it), and the rest of the command line. */
function variantsOf(argv: string[]): { variants: Variant[]; argv: string[] } {
  const at = argv.findIndex((arg) => arg.split('=')[0] === '--variants');
  if (at === -1) return { variants: [...VARIANTS], argv };
  const inline = argv[at].split('=')[1];
  const named = (inline ?? argv[at + 1] ?? '').split(',').filter(Boolean);
  const unknown = named.filter((name) => !(VARIANTS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown variants ${unknown.join(', ')}: ${VARIANTS.join(', ')}`);
  const variants = VARIANTS.filter((variant) => variant === 'production' || named.includes(variant));
  return { variants, argv: argv.filter((_, i) => i !== at && (inline !== undefined || i !== at + 1)) };
}
const running = new Set<Server>();

async function main(): Promise<void> {
  const { variants, argv } = variantsOf(process.argv.slice(2));
  const given = new Set(argv.map((arg) => arg.split('=')[0]));
  const args = parseArgs([...Object.entries(DEFAULTS).flatMap(([name, value]) => (given.has(name) ? [] : [name, value])), ...argv]);
  const unsupported = args.ops.filter((op) => !READS.includes(op));
  if (unsupported.length > 0 || args.replica || args.reportOnly || args.scales.length !== 1) {
    throw new Error(`bench:frameworks measures ${READS.join(', ')} at one scale, without --replica or --report-only`);
  }
  const [scale] = args.scales;
  log(`== ${args.skipSeed ? 'reusing' : 'seeding'} ${databaseOf(scale)}`);
  const prepared = await prepareDatabase(scale, args.skipSeed, log);
  const tokens = await Promise.all(Array.from({ length: args.callers }, (_, i) => benchToken(prepared.fixtures.organization, i + 1)));
  ensureBuilt(['transactional-service'], args.build, log);
  ensureFrameworkAppBuilt(args.build, log);

  const results: FrameworkResults = {
    date: new Date().toISOString(),
    machine: machine(prepared.mariadbVersion),
    settings: {
      database: databaseOf(scale),
      duration: args.duration,
      warmup: args.warmup,
      connections: args.connections,
      callers: args.callers,
      rounds: args.rounds,
    },
    variants: Object.fromEntries(variants.map((variant) => [variant, SERVERS[variant].description])),
    ops: [],
  };
  const statements = await statementCounter();
  const database = databasePid();
  const servers = new Map<Variant, Server>();
  try {
    const url = databaseUrlOf(scale);
    for (const variant of variants) servers.set(variant, track(await SERVERS[variant].start(url)));
    log(
      `started ${[...servers].map(([variant, s]) => `${variant} (pid ${s.child.pid}, port ${s.port})`).join(', ')}; mariadbd pid ${database ?? '(not found)'}`,
    );
    for (const [i, scenario] of scenarios(prepared.fixtures, args).entries()) {
      await sameAnswers(scenario, servers, tokens[0]);
      const runs: FrameworkRun[] = [];
      for (let r = 0; r < args.rounds; r++) {
        const order = variants.map((_, k) => variants[(k + i + r) % variants.length]);
        for (const [k, variant] of order.entries()) {
          const server = servers.get(variant)!;
          const run = await measure(scenario, server, tokens, args.warmup, args.duration, statements.read, database);
          runs.push({ variant, round: r, position: k + 1, ...run });
          log(
            `${scenario.op.padEnd(12)} round ${r + 1} ${variant.padEnd(17)} ${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  ` +
              `cpu/req ${run.cpuMsPerRequest.server} ms + db ${run.cpuMsPerRequest.database} ms  ${run.statementsPerRequest} statements/req  ` +
              `rss ${run.peakRssMb} MB  other cores ${run.otherCores}${run.errors ? `  ERRORS ${run.errors}` : ''}`,
          );
        }
      }
      results.ops.push({ op: scenario.op, runs, summary: summarize(runs, variants), comparisons: compare(runs) });
      writeResults(results, args.out);
    }
  } finally {
    await statements.end();
    await stopAll();
  }
  printSummary(results, args.out);
}

/**
 * One request of the operation to each server: each must answer 2xx with production's body and, where production sets
 * one (the get's), its ETag. Stock Express adds a weak ETag of its own to the other answers; it is logged.
 */
async function sameAnswers(scenario: Scenario, servers: Map<Variant, Server>, token: string): Promise<void> {
  const { path } = scenario.next();
  const answers = await Promise.all(
    [...servers].map(async ([variant, server]) => {
      server.assertRunning();
      const res = await fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { variant, status: res.status, etag: res.headers.get('etag'), body: await res.text() };
    }),
  );
  const [production] = answers;
  for (const answer of answers) {
    if (answer.status >= 300) throw new Error(`${scenario.op}: ${answer.variant} answered ${answer.status}: ${answer.body.slice(0, 500)}`);
    if (answer.body !== production.body || (production.etag !== null && answer.etag !== production.etag)) {
      throw new Error(`${scenario.op}: ${answer.variant} answered otherwise than production (ETag ${answer.etag} against ${production.etag})`);
    }
  }
  const etags = answers.map(({ variant, etag }) => `${variant} ${etag ?? 'none'}`).join(', ');
  log(`${scenario.op}: every server answered ${production.status} with the same ${production.body.length}-character body; ETags: ${etags}`);
}

async function measure(
  scenario: Scenario,
  server: Server,
  tokens: string[],
  warmup: number,
  duration: number,
  statements: () => Promise<number[]>,
  database: number | undefined,
): Promise<Omit<FrameworkRun, 'variant' | 'round' | 'position'>> {
  const sampler = new RssSampler(server.child.pid!);
  sampler.start();
  if (warmup > 0) await drive(scenario, server.port, tokens, warmup);
  const cpuNow = () => [cpuMs(server.child.pid!), database === undefined ? 0 : cpuMs(database), cpuMs(process.pid), machineBusyMs()];
  const before = cpuNow();
  const [statementsBefore] = await statements();
  const run: RunResult = await drive(scenario, server.port, tokens, duration);
  // Minus one: the counter's own SHOW STATUS.
  const [statementsAfter] = await statements();
  const used = cpuNow().map((after, i) => after - before[i]);
  const requests = Math.max(run.total, 1);
  const [serverMs, databaseMs, loadGeneratorMs] = used.slice(0, 3).map((ms) => round(ms / requests, 3));
  const otherCores = round((used[3] - used[0] - used[1] - used[2]) / 1000 / run.durationSeconds, 2);
  if (otherCores > OTHER_LOAD_WARNING) log(`warning: ${otherCores} cores busy outside the bench during this run: its numbers are skewed`);
  const peakRssMb = round(sampler.stop() / 1024);
  server.assertRunning();
  return {
    requestsPerSecond: run.requestsPerSecond,
    p50: run.latency.p50,
    p99: run.latency.p99,
    errors: run.errors + run.timeouts + run.non2xx,
    cpuMsPerRequest: { server: serverMs, database: databaseMs, loadGenerator: loadGeneratorMs },
    statementsPerRequest: round((statementsAfter - statementsBefore - 1) / requests, 2),
    peakRssMb,
    otherCores,
  };
}

function summarize(runs: FrameworkRun[], variants: Variant[]): Partial<Record<Variant, VariantSummary>> {
  const production = new Map(runs.filter((run) => run.variant === 'production').map((run) => [run.round, run.cpuMsPerRequest.server]));
  const summary = (variant: Variant): VariantSummary => {
    const own = runs.filter((run) => run.variant === variant);
    const minusProduction = own.filter((run) => production.has(run.round)).map((run) => run.cpuMsPerRequest.server - production.get(run.round)!);
    return {
      requestsPerSecond: range(
        own.map((run) => run.requestsPerSecond),
        0,
      ),
      serverCpuMsPerRequest: range(
        own.map((run) => run.cpuMsPerRequest.server),
        3,
      ),
      serverCpuMsMinusProduction: variant === 'production' || minusProduction.length === 0 ? null : range(minusProduction, 3),
      databaseCpuMsPerRequest: range(
        own.map((run) => run.cpuMsPerRequest.database),
        3,
      ),
      p50: range(
        own.map((run) => run.p50),
        1,
      ),
      p99: range(
        own.map((run) => run.p99),
        1,
      ),
      statementsPerRequest: round(median(own.map((run) => run.statementsPerRequest)), 2),
      peakRssMb: Math.max(...own.map((run) => run.peakRssMb)),
      errors: own.reduce((sum, run) => sum + run.errors, 0),
      maxOtherCores: Math.max(...own.map((run) => run.otherCores)),
    };
  };
  return Object.fromEntries(variants.map((variant) => [variant, summary(variant)]));
}

/** The COMPARISONS whose two variants both ran, on the rounds that have both. */
function compare(runs: FrameworkRun[]): Comparison[] {
  const cpu = (variant: Variant) => new Map(runs.filter((run) => run.variant === variant).map((run) => [run.round, run.cpuMsPerRequest.server]));
  return COMPARISONS.flatMap(({ of, minus, tells }) => {
    const [a, b] = [cpu(of), cpu(minus)];
    const differences = [...a].filter(([r]) => b.has(r)).map(([r, ms]) => ms - b.get(r)!);
    return differences.length === 0 ? [] : [{ of, minus, tells, cpuMsPerRequest: range(differences, 3) }];
  });
}

const spread = (r: Range) => (r.min === r.max ? `${r.median}` : `${r.median} (${r.min}–${r.max})`);

function writeResults(results: FrameworkResults, name: string): void {
  writeFileSync(resolve(__dirname, `${name}.json`), `${JSON.stringify(results, null, 2)}\n`);
  const { machine: m, settings: s } = results;
  const lines = [
    '# Framework comparison (`npm run bench:frameworks`)',
    '',
    `${results.date}; ${m.cpuModel}, ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, MariaDB ${m.mariadb}; database ${s.database}; ` +
      `${s.duration} s per run after ${s.warmup} s of warm-up, ${s.connections} connections, ${s.callers} callers, ${s.rounds} rounds, ` +
      'the servers in an order rotated from round to round. Medians of the rounds, lowest–highest in brackets.',
    '',
    ...Object.entries(results.variants).map(([variant, description]) => `- **${variant}**: ${description}`),
    '',
  ];
  for (const { op, runs, summary, comparisons } of results.ops) {
    lines.push(
      `## ${op}`,
      '',
      '| server | req/s | CPU ms/req | CPU ms/req minus production, same round | mariadbd CPU ms/req | p50 ms | p99 ms | statements/req | peak RSS MB | errors | most other cores |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...Object.entries(summary).map(([variant, v]) => {
        const cells = [
          variant,
          spread(v.requestsPerSecond),
          spread(v.serverCpuMsPerRequest),
          v.serverCpuMsMinusProduction ? spread(v.serverCpuMsMinusProduction) : '',
          spread(v.databaseCpuMsPerRequest),
          spread(v.p50),
          spread(v.p99),
          v.statementsPerRequest,
          v.peakRssMb,
          v.errors,
          v.maxOtherCores,
        ];
        return `| ${cells.join(' | ')} |`;
      }),
      '',
      '| CPU ms/req, round by round | difference | what it tells |',
      '|---|---|---|',
      ...comparisons.map((c) => `| ${c.of} minus ${c.minus} | ${spread(c.cpuMsPerRequest)} | ${c.tells} |`),
      '',
      `Runs in order: ${runs.map((run) => `${run.round + 1}.${run.position} ${run.variant} ${run.cpuMsPerRequest.server} ms`).join(', ')}.`,
      '',
    );
  }
  writeFileSync(resolve(__dirname, `${name}.md`), lines.join('\n'));
}

function printSummary(results: FrameworkResults, out: string): void {
  log(`\n== summary (medians of ${results.settings.rounds} rounds, lowest–highest; CPU is the server process's, ms per request)`);
  for (const { op, summary, comparisons } of results.ops) {
    for (const [variant, v] of Object.entries(summary)) {
      log(
        `${op.padEnd(12)} ${variant.padEnd(17)} ${spread(v.requestsPerSecond).padEnd(22)} req/s  cpu ${spread(v.serverCpuMsPerRequest).padEnd(22)}` +
          `${v.serverCpuMsMinusProduction ? `  vs production ${spread(v.serverCpuMsMinusProduction)}` : ''}${v.errors ? `  ERRORS ${v.errors}` : ''}`,
      );
    }
    for (const c of comparisons) log(`${op.padEnd(12)} ${c.of} minus ${c.minus}: ${spread(c.cpuMsPerRequest)} ms/req (${c.tells})`);
  }
  log(`written bench/${out}.md and bench/${out}.json`);
}

function track(server: Server): Server {
  running.add(server);
  return server;
}

async function stopAll(): Promise<void> {
  await Promise.all([...running].map(async (server) => (await server.stop(), running.delete(server))));
}

runBench(main, stopAll);
