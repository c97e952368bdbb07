import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { DENORMALIZED_OPS, type BenchResults, type Measurement } from '../../bench/report';
import { AGAINST_FAR_SIDE, OPERATIONS, WRITES } from '../../bench/args';
import { CommandResult, ROOT, runTs } from '../support/run-command';
import { dropDatabase, TEST_MYSQL_SERVER } from '../support/test-database';

/**
 * `npm run test:bench`, never part of `npm test` (like the bench): `npm run bench` itself, shortened (1 s per run, 10 connections) on a database of its own: it seeds
 * the 1k data set through the real migrations, starts the built apps and the raw baseline, sends both
 * the same requests for every operation, alternating them, and writes bench/<out>.md and .json. The
 * numbers are not judged here (speed is the bench's business); that every part ran, and ran clean, is.
 */
describe('npm run bench (a short run at 1k)', () => {
  const prefix = `platform_bench_e2e_${process.pid}`;
  /** Two rounds: enough to see the order alternate and the spread kept, at twice the run time of one. */
  const ROUNDS = 2;
  const out = `tmp.e2e-${process.pid}`;
  const files = ['json', 'md'].map((ext) => resolve(ROOT, 'bench', `${out}.${ext}`));
  let run: CommandResult;
  let results: BenchResults;

  beforeAll(async () => {
    run = await runTs(
      'bench/run-bench.ts',
      ['--scale', '1k', '--duration', '1', '--warmup', '0', '--connections', '10', '--callers', '3', '--rounds', String(ROUNDS), '--out', out, '--allow-busy'],
      { BENCH_DATABASE_PREFIX: prefix, BENCH_MYSQL_SERVER: TEST_MYSQL_SERVER },
      240_000,
    );
    if (run.code === 0) results = JSON.parse(readFileSync(files[0], 'utf8')) as BenchResults;
  }, 250_000);
  afterAll(async () => {
    await dropDatabase(`${prefix}_1k`);
    for (const file of files) rmSync(file, { force: true });
  });

  it('exits 0 and writes both result files', () => {
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    for (const file of files) expect(existsSync(file)).toBe(true);
  });

  it('seeded the 1k data set into its own database: connectors with tags and flows, spread over bots', () => {
    const [scale] = results.scales;
    expect(scale).toMatchObject({ scale: '1k', database: `${prefix}_1k` });
    expect(scale.seedSeconds).toBeGreaterThan(0);
    // 1,000 spread over 20 bots, plus the list bot's 50, the update bot's 1,000, the trash bot's 500 (deleted)
    // and the delete bot's 2,000; two tags each.
    expect(scale.counts.connectors).toBe(4_550);
    expect(scale.counts.tags).toBe(2 * 4_550);
    expect(scale.counts.flowUses).toBeGreaterThan(0);
    expect(scale.counts.bots).toBeGreaterThanOrEqual(20);
  });

  it('drove every operation against the app and the floors, each going first in turn from operation to operation and round to round', () => {
    const ops = results.scales[0].ops;
    expect(ops.map((o) => o.op)).toEqual(OPERATIONS.filter((op) => !AGAINST_FAR_SIDE.includes(op)));
    ops.forEach((o, i) => {
      const kinds = DENORMALIZED_OPS.includes(o.op) ? ['app', 'baseline', 'denormalized'] : ['app', 'baseline'];
      const order = Array.from({ length: ROUNDS }, (_, r) => kinds.map((_, k) => kinds[(k + i + r) % kinds.length])).flat();
      expect(o.runs.map((r) => r.server)).toEqual(order);
      for (const r of o.runs) {
        expect(r.total).toBeGreaterThan(0);
        expect({ op: o.op, server: r.server, errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx }).toEqual({
          op: o.op,
          server: r.server,
          errors: 0,
          timeouts: 0,
          non2xx: 0,
        });
        // The delete operation deletes its pool (204), then restores it (200), runs following on: a run may do either or both.
        const codes = Object.keys(r.statusCodes);
        if (o.op === 'delete') expect(codes.filter((code) => code !== '204' && code !== '200')).toEqual([]);
        else expect(codes).toEqual([o.op === 'create' ? '201' : '200']);
        expect(r.peakRssMb).toBeGreaterThan(0);
        expect(r.latency.p99).toBeGreaterThanOrEqual(r.latency.p50);
      }
    });
  });

  it('deleted connectors in the delete operation (its first run starts with the pool all active)', () => {
    const deletes = results.scales[0].ops.find((o) => o.op === 'delete')!;
    expect(deletes.runs[0].statusCodes['204']).toBeGreaterThan(0);
  });

  it('got answers of the same shape and status from the app and the baseline for every operation', () => {
    expect(run.stdout).not.toContain('answers differ in shape');
    expect(run.stdout).not.toMatch(/warning: [\w-]+: app answered/);
    expect(run.stdout).not.toContain('answered other data than the app');
  });

  it('reports per operation req/s, p50, p99, peak RSS and the app/baseline ratios, in JSON and in a table', () => {
    const table = readFileSync(files[1], 'utf8');
    for (const o of results.scales[0].ops) {
      // The ratios are the medians of the rounds' own ratios, and the spread keeps every round's extremes.
      const perRound = (pick: (run: Measurement) => number) =>
        Array.from({ length: ROUNDS }, (_, r) => o.runs.filter((run) => run.round === r)).map((round) => {
          const [app, baseline] = ['app', 'baseline'].map((kind) => round.find((run) => run.server === kind)!);
          return pick(app) / Math.max(pick(baseline), 1);
        });
      const throughput = perRound((run) => run.requestsPerSecond);
      expect(o.spread).toMatchObject({ rounds: ROUNDS, throughputRatio: { min: expect.any(Number), max: expect.any(Number) } });
      expect(o.spread!.throughputRatio.min).toBeCloseTo(Math.min(...throughput), 1);
      expect(o.spread!.throughputRatio.max).toBeCloseTo(Math.max(...throughput), 1);
      expect(o.ratios.throughput).toBeCloseTo((Math.min(...throughput) + Math.max(...throughput)) / 2, 1);
      expect(o.ratios.p99).toBeCloseTo(o.spread!.p99Ratio.median, 1);
      for (const side of [o.app, o.baseline]) {
        expect(side.requestsPerSecond).toBeGreaterThan(0);
        expect(side.p50).toBeGreaterThan(0);
        expect(side.peakRssMb).toBeGreaterThan(0);
      }
      const row = table.split('\n').find((line) => line.startsWith(`| ${o.op}${WRITES.includes(o.op) ? ' (write)' : ''} |`));
      expect(row).toContain(` ${o.ratios.throughput} `);
    }
    // The reads of connectors against the denormalized floor too: its ratios in the JSON and a table of their own.
    for (const o of results.scales[0].ops.filter((op) => DENORMALIZED_OPS.includes(op.op))) {
      expect(o.denormalized).toMatchObject({ floor: { requestsPerSecond: expect.any(Number) }, ratios: { throughput: expect.any(Number) } });
      expect(o.targets).toMatchObject({ throughputDenormalized: expect.any(Boolean), p99Denormalized: expect.any(Boolean) });
    }
    expect(table).toContain('Against the denormalized floor');
    expect(table).toContain('--max-old-space-size=128');
    expect(table).toContain(`Spread over ${ROUNDS} rounds`);
  });
});

/**
 * `npm run bench -- --replica`, shortened: a replication pair of the bench's own, seeded on its primary, the app
 * reading the replica; the plain get answered by the replica, get-own-write (a write's Consistency-Token the
 * replica has not applied) by the primary; the pair stopped at the end.
 */
describe('npm run bench -- --replica (a short run at 1k)', () => {
  const prefix = `platform_bench_e2e_replica_${process.pid}`;
  const out = `tmp.e2e-replica-${process.pid}`;
  const files = ['json', 'md'].map((ext) => resolve(ROOT, 'bench', `${out}.${ext}`));
  let run: CommandResult;
  let results: BenchResults;

  beforeAll(async () => {
    run = await runTs(
      'bench/run-bench.ts',
      [
        '--replica',
        '--scale',
        '1k',
        '--ops',
        'get,get-own-write',
        '--duration',
        '1',
        '--warmup',
        '0',
        '--connections',
        '10',
        '--callers',
        '3',
        '--rounds',
        '1',
        '--out',
        out,
        '--allow-busy',
      ],
      { BENCH_DATABASE_PREFIX: prefix },
      180_000,
    );
    if (run.code === 0) results = JSON.parse(readFileSync(files[0], 'utf8')) as BenchResults;
  }, 190_000);
  afterAll(() => {
    for (const file of files) rmSync(file, { force: true });
  });

  it('exits 0, writes both result files, and stops the pair it started', () => {
    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    for (const file of files) expect(existsSync(file)).toBe(true);
    const pids = [...run.stdout.matchAll(/\(pid (\d+)\)/g)].slice(0, 2).map((m) => Number(m[1]));
    expect(run.stdout).toMatch(
      /replication pair up in \d+ ms: primary mysql:\/\/root@127\.0\.0\.1:\d+ \(pid \d+\), replica mysql:\/\/root@127\.0\.0\.1:\d+ \(pid \d+\)/,
    );
    expect(pids).toHaveLength(2);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(pids.filter(alive)).toEqual([]);
  });

  it('served the plain get from the replica and get-own-write from the primary, for read_your_writes', () => {
    expect(results.replica?.ownWrites).toEqual([expect.objectContaining({ scale: '1k', consistencyToken: expect.stringMatching(/^\d+-\d+-\d+/) })]);
    expect(results.replica!.ownWrites[0].readYourWritesFallbacksOfOneGet).toBeGreaterThan(0);
    const [get, own] = results.scales[0].ops;
    expect([get.op, own.op]).toEqual(['get', 'get-own-write']);
    for (const o of [get, own])
      for (const r of o.runs)
        expect({ op: o.op, server: r.server, non2xx: r.non2xx, errors: r.errors, codes: Object.keys(r.statusCodes) }).toEqual({
          op: o.op,
          server: r.server,
          non2xx: 0,
          errors: 0,
          codes: ['200'],
        });
    const app = (o: typeof get) => o.runs.find((r) => r.server === 'app')!;
    expect(app(get).primaryFallbackReads).toEqual({});
    expect(app(get).replicaQueriesPerRequest).toBeGreaterThan(0.9);
    expect(app(own).primaryFallbackReads!.read_your_writes).toBeGreaterThanOrEqual(app(own).total);
    expect(app(own).replicaQueriesPerRequest).toBeLessThan(0.1);
    expect(readFileSync(files[1], 'utf8')).toContain('## Read replica (`--replica`)');
  });
});
