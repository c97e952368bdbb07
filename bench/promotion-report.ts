/**
 * The pure parts of `npm run bench:promotions` (bench/promotion-bench.ts): its command line, the mix of connectors the
 * two bots hold, the figures of the repetitions, the targets and bench/results-promotions.md.
 */
import { median, round } from './report';

/** The issue's targets, stated for 1,000 connectors: the dry run's plan and the apply with its digest. */
export const PROMOTION_TARGETS = { connectors: 1_000, planMs: 1_000, applyMs: 3_000, rssMb: 150 } as const;

export interface PromotionArgs {
  /** Connectors of the source bot. */
  connectors: number;
  /** Plan, apply and revert, this many times, each on the target as the revert before left it. */
  repetitions: number;
  /** Run `npm run build` even when dist/ exists. */
  build: boolean;
  /** A mariadbd of the bench's own (private port and data directory) instead of BENCH_MYSQL_SERVER: exact statement counts. */
  ownServer: boolean;
  /** Results go to bench/<out>.md and bench/<out>.json. */
  out: string;
}

const USAGE = `npm run bench:promotions -- [--connectors n] [--repetitions n] [--quick] [--own-server] [--build] [--out results-promotions]
--connectors: the source bot's connectors (default 1,000, the issue's targets are stated for it); --repetitions: plan, apply
  and revert this many times (default 5); --quick: 100 connectors, 1 repetition (a check that the bench works);
  --own-server: a mariadbd of the bench's own on a private port, so the statements counted are the app's alone (else
  BENCH_MYSQL_SERVER's counter, which counts everyone's).
Environment: BENCH_MYSQL_SERVER (mysql://root@127.0.0.1:3306), BENCH_DATABASE_PREFIX (platform_bench: database
  <prefix>_promotions), BENCH_APP_NODE_ARGS (extra node flags for the app, e.g. --cpu-prof --cpu-prof-dir=bench/profiles).`;

export class UsageError extends Error {
  constructor(problem: string) {
    super(`${problem}\n${USAGE}`);
  }
}

export function parsePromotionArgs(argv: string[]): PromotionArgs | 'help' {
  const args: PromotionArgs = { connectors: 1_000, repetitions: 5, build: false, ownServer: false, out: 'results-promotions' };
  let quick = false;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=', 2);
    if (name === '--help') return 'help';
    if (name === '--quick' || name === '--build' || name === '--own-server') {
      if (name === '--quick') quick = true;
      else if (name === '--build') args.build = true;
      else args.ownServer = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value`);
    given.add(name);
    if (name === '--connectors' || name === '--repetitions') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) throw new UsageError(`${name} must be a whole number of at least 1`);
      if (name === '--connectors' && n < 10) throw new UsageError('--connectors must be at least 10: the mix needs some of each kind');
      if (name === '--connectors') args.connectors = n;
      else args.repetitions = n;
    } else if (name === '--out') args.out = value.replace(/[^\w.-]/g, '_');
    else throw new UsageError(`unknown option ${name}`);
  }
  if (quick) {
    if (!given.has('--connectors')) args.connectors = 100;
    if (!given.has('--repetitions')) args.repetitions = 1;
  }
  return args;
}

/**
 * What source connector `i` of `n` is, and so what the target holds of that name:
 * - 40% (i % 5 is 0 or 1) are not in the target: CREATE; every hundredth of them (i % 100 = 0) carries a bearer token,
 *   which the request gives (GIVEN: secrets are never copied from the source);
 * - 20% (i % 5 = 2) are in the target as they are in the source: UNCHANGED;
 * - 40% (i % 5 is 3 or 4) are in the target with other fields: UPDATE (3: description and tags; 4: the URL's path and
 *   the output); a fifth of those (i % 20 is 3 or 4) carry a bearer token to `{{env.BASE_URL}}`, which each environment
 *   defines: the target's stored token is KEPT, its destination resolved in the target environment unchanged.
 * Plus `targetOnly(n)` connectors only the target has: DELETE with `prune`.
 */
export type Kind = 'create' | 'create-given' | 'unchanged' | 'update-description' | 'update-url' | 'update-secret-description' | 'update-secret-url';

export function kindOf(i: number): Kind {
  const fifth = i % 5;
  if (fifth <= 1) return i % 100 === 0 ? 'create-given' : 'create';
  if (fifth === 2) return 'unchanged';
  const secret = i % 20 === 3 || i % 20 === 4;
  if (fifth === 3) return secret ? 'update-secret-description' : 'update-description';
  return secret ? 'update-secret-url' : 'update-url';
}

/** Connectors only the target holds: 2% of the source's, at least one. */
export const targetOnly = (n: number) => Math.max(1, Math.round(n * 0.02));

/** Whether a connector of this kind carries a secret, so it is created through the API (the app seals it), not inserted. */
export const hasSecret = (kind: Kind) => kind === 'create-given' || kind.startsWith('update-secret');
/** Whether the target holds a connector of this name before the promotion. */
export const inTarget = (kind: Kind) => !kind.startsWith('create');

export interface PlanCounts {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
}

/** What the plan of the mix of `n` must count (with `prune`), and how many secrets are KEPT and GIVEN. */
export function expectedPlan(n: number): { counts: PlanCounts; kept: number; given: number } {
  const counts: PlanCounts = { create: 0, update: 0, delete: targetOnly(n), unchanged: 0 };
  let kept = 0;
  let given = 0;
  for (let i = 0; i < n; i++) {
    const kind = kindOf(i);
    if (kind === 'unchanged') counts.unchanged++;
    else if (inTarget(kind)) counts.update++;
    else counts.create++;
    if (kind === 'create-given') given++;
    if (kind.startsWith('update-secret')) kept++;
  }
  return { counts, kept, given };
}

export const connectorName = (i: number) => `Connector ${String(i).padStart(5, '0')}`;
export const targetOnlyName = (k: number) => `Target only ${String(k).padStart(4, '0')}`;

/** The kinds of statements counted apart (MariaDB's `Com_<kind>` counters). */
export const STATEMENT_KINDS = ['select', 'insert', 'update', 'delete', 'begin', 'commit'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

/** One timed request of a repetition. */
export interface Timed {
  ms: number;
  /** CPU time the app process used during it. */
  appCpuMs: number;
  /** CPU time mariadbd used during it (0 when its process is not found). */
  databaseCpuMs: number;
  /** Statements the database server received during it, the bench's own reading of the counter taken out. */
  statements: number;
  /** Of them, by kind. */
  byKind: Record<StatementKind, number>;
  /** Cores busy with anything but the app, mariadbd and the bench during it. */
  otherCores: number;
}

export interface Repetition {
  plan: Timed;
  apply: Timed;
  revert: Timed;
}

export interface Figures {
  median: number;
  max: number;
}

export interface PromotionResults {
  date: string;
  machine: { cpuModel: string; cores: number; memoryGb: number; node: string; mariadb: string };
  settings: { connectors: number; repetitions: number; ownServer: boolean; nodeFlags: string[] };
  /** What the source and target held, and what the plan counted (checked against expectedPlan). */
  mix: { source: number; target: number; counts: PlanCounts; kept: number; given: number };
  seedSeconds: number;
  /** The first dry run after the app started, not counted in the repetitions (code not yet optimized by V8). */
  firstPlanMs: number;
  repetitions: Repetition[];
  summary: {
    planMs: Figures;
    applyMs: Figures;
    revertMs: Figures;
    /** The app's VmRSS before the repetitions (after seeding and the first dry run). */
    rssBeforeMb: number;
    /** Highest VmRSS of the app sampled every 100 ms through the repetitions, and VmHWM at the end (start-up included). */
    peakRssMb: number;
    highWaterMb: number;
    maxOtherCores: number;
  };
  targets: { plan: boolean; apply: boolean; rss: boolean };
}

const figures = (values: number[], digits = 1): Figures => ({ median: round(median(values), digits), max: round(Math.max(...values), digits) });

/** The repetitions' medians and maxima, and the targets judged on the medians. */
export function summarize(
  repetitions: Repetition[],
  { beforeMb, peakMb: peakRssMb, highWaterMb }: { beforeMb: number; peakMb: number; highWaterMb: number },
): Pick<PromotionResults, 'summary' | 'targets'> {
  if (repetitions.length === 0) throw new Error('no repetition to summarize');
  const planMs = figures(repetitions.map((r) => r.plan.ms));
  const applyMs = figures(repetitions.map((r) => r.apply.ms));
  const revertMs = figures(repetitions.map((r) => r.revert.ms));
  const maxOtherCores = round(Math.max(...repetitions.flatMap((r) => [r.plan.otherCores, r.apply.otherCores, r.revert.otherCores])), 2);
  return {
    summary: { planMs, applyMs, revertMs, rssBeforeMb: round(beforeMb), peakRssMb: round(peakRssMb), highWaterMb: round(highWaterMb), maxOtherCores },
    // Judged before rounding, on the medians, as bench/report.ts judges its ratios.
    targets: {
      plan: median(repetitions.map((r) => r.plan.ms)) < PROMOTION_TARGETS.planMs,
      apply: median(repetitions.map((r) => r.apply.ms)) < PROMOTION_TARGETS.applyMs,
      rss: peakRssMb <= PROMOTION_TARGETS.rssMb,
    },
  };
}

const verdict = (pass: boolean) => (pass ? 'PASS' : '**FAIL**');
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const per = (total: number, n: number) => (n === 0 ? 0 : round(total / n, 2));

export function promotionMarkdown(r: PromotionResults, otherLoadWarning: number): string {
  const { counts } = r.mix;
  const n = r.settings.connectors;
  const atTargetScale = n === PROMOTION_TARGETS.connectors;
  const written = { apply: counts.create + counts.update + counts.delete, revert: counts.create + counts.update + counts.delete };
  const lines = [
    '# Benchmark: promotions (plan, apply, revert)',
    '',
    `Written by \`npm run bench:promotions\` on ${r.date}: ${r.machine.cpuModel}, ${r.machine.cores} cores, ${r.machine.memoryGb} GB, Node ${r.machine.node}, MariaDB ${r.machine.mariadb}.`,
    `The built transactional service (\`node ${r.settings.nodeFlags.join(' ')} dist/apps/transactional-service/main.js\`, NODE_ENV=production), on a database of its own` +
      (r.settings.ownServer ? " on a mariadbd of the bench's own (`--own-server`)." : ' on BENCH_MYSQL_SERVER.'),
    '',
    '## What is measured',
    '',
    `- Two environments of one organization, each defining \`BASE_URL\` (another value in each). The source bot holds ${n.toLocaleString('en')}`,
    `  connectors, the target bot ${r.mix.target.toLocaleString('en')}: ${counts.create} absent from the target (CREATE; ${r.mix.given} of them with a bearer token`,
    `  the request gives), ${counts.unchanged} the same (UNCHANGED), ${counts.update} with other fields (UPDATE; ${r.mix.kept} of them with a bearer`,
    '  token to `{{env.BASE_URL}}/…` that the target KEEPS), and ' +
      `${counts.delete} only in the target (DELETE, \`prune: true\`). Connectors are inserted directly; those with a secret are created`,
    `  through the API, so that the app seals their secrets (seeded in ${r.seedSeconds} s).`,
    `- Each of ${r.settings.repetitions} repetitions: the dry run (\`POST …/rest-connectors/promotions\`, the plan), the apply`,
    '  (`dryRun: false` with its digest, 201) and the revert (`POST …/promotions/{id}/revert`), which puts the target back',
    '  for the next repetition (each repetition leaves the created connectors in the trash and adds versions).',
    '  Latency: from sending the request to the end of the answer, one request at a time, from 127.0.0.1.',
    `- Before them, one dry run not counted (the first after start-up: ${r.firstPlanMs} ms).`,
    "- RSS: the app's VmRSS sampled every 100 ms through the repetitions (and just before them); VmHWM: its peak since start (start-up included).",
    "- Statements: the database server's `Questions` counter over each request" +
      (r.settings.ownServer
        ? " (a server of the bench's own: the app's alone)."
        : ' (server-wide: other clients of BENCH_MYSQL_SERVER count too; `--own-server` for exact counts).'),
    `- Other load: cores busy with anything but the app, mariadbd and the bench during a request; above ${otherLoadWarning} the figures are skewed.`,
    `- Targets (the issue's, stated for ${PROMOTION_TARGETS.connectors.toLocaleString('en')} connectors${atTargetScale ? '' : `; this run has ${n.toLocaleString('en')}, so the verdicts are indicative`}):`,
    `  plan under ${PROMOTION_TARGETS.planMs / 1000} s and apply under ${PROMOTION_TARGETS.applyMs / 1000} s (medians); the app's RSS at most ${PROMOTION_TARGETS.rssMb} MB as everywhere.`,
    '',
    '## Results',
    '',
    row(['', 'median ms', 'max ms', 'target', 'verdict']),
    row(['---', '---', '---', '---', '---']),
    row(['plan (dry run)', r.summary.planMs.median, r.summary.planMs.max, `< ${PROMOTION_TARGETS.planMs} ms`, verdict(r.targets.plan)]),
    row(['apply', r.summary.applyMs.median, r.summary.applyMs.max, `< ${PROMOTION_TARGETS.applyMs} ms`, verdict(r.targets.apply)]),
    row(['revert', r.summary.revertMs.median, r.summary.revertMs.max, '', '']),
    row([
      'peak RSS (MB)',
      `${r.summary.peakRssMb} (${r.summary.rssBeforeMb} before)`,
      `VmHWM ${r.summary.highWaterMb}`,
      `≤ ${PROMOTION_TARGETS.rssMb}`,
      verdict(r.targets.rss),
    ]),
    '',
    r.summary.maxOtherCores > otherLoadWarning
      ? `**Measured on a busy machine**: up to ${r.summary.maxOtherCores} cores were busy with other work during the requests; the latencies are indicative only.`
      : `Other load stayed at or below ${r.summary.maxOtherCores} cores.`,
    '',
    '## Where the time goes',
    '',
    'Each request of each repetition: its latency, the CPU time of the app and of mariadbd during it, the statements the',
    "database received (all, and by kind: MariaDB's `Com_*` counters; with `--own-server` they include the app's background",
    'statements, a few a second), and per connector written',
    `(apply and revert: ${written.apply} connectors written; plan: ${n + r.mix.target} read).`,
    '',
    row([
      'repetition',
      'request',
      'ms',
      'app CPU ms',
      'mariadbd CPU ms',
      'statements',
      ...STATEMENT_KINDS,
      'statements / connector',
      'app CPU ms / connector',
      'other cores',
    ]),
    row(Array.from({ length: 9 + STATEMENT_KINDS.length }, () => '---')),
  ];
  r.repetitions.forEach((rep, index) => {
    for (const [name, t, connectors] of [
      ['plan', rep.plan, n + r.mix.target],
      ['apply', rep.apply, written.apply],
      ['revert', rep.revert, written.revert],
    ] as const) {
      lines.push(
        row([
          index + 1,
          name,
          round(t.ms),
          round(t.appCpuMs),
          round(t.databaseCpuMs),
          t.statements,
          ...STATEMENT_KINDS.map((kind) => t.byKind[kind]),
          per(t.statements, connectors),
          per(t.appCpuMs, connectors),
          t.otherCores,
        ]),
      );
    }
  });
  lines.push('');
  return `${lines.join('\n')}\n`;
}
