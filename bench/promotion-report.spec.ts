import {
  expectedPlan,
  kindOf,
  parsePromotionArgs,
  PROMOTION_TARGETS,
  promotionMarkdown,
  PromotionResults,
  Repetition,
  summarize,
  Timed,
  UsageError,
} from './promotion-report';

const timed = (ms: number, otherCores = 0): Timed => ({
  ms,
  appCpuMs: ms / 2,
  databaseCpuMs: ms / 4,
  statements: 3_288,
  byKind: { select: 20, insert: 2_621, update: 424, delete: 200, begin: 1, commit: 1 },
  otherCores,
});
const repetition = (plan: number, apply: number, revert = 2_000, otherCores = 0): Repetition => ({
  plan: timed(plan, otherCores),
  apply: timed(apply),
  revert: timed(revert),
});
const memory = { beforeMb: 110, peakMb: 140, highWaterMb: 141 };

describe('promotion bench: command line', () => {
  it('measures 1,000 connectors five times unless told', () => {
    expect(parsePromotionArgs([])).toEqual({ connectors: 1_000, repetitions: 5, build: false, ownServer: false, out: 'results-promotions' });
  });

  it('--quick is 100 connectors once, and what is given beside it wins', () => {
    expect(parsePromotionArgs(['--quick'])).toMatchObject({ connectors: 100, repetitions: 1 });
    expect(parsePromotionArgs(['--connectors=500', '--quick'])).toMatchObject({ connectors: 500, repetitions: 1 });
    expect(parsePromotionArgs(['--quick', '--repetitions', '3', '--own-server'])).toMatchObject({ connectors: 100, repetitions: 3, ownServer: true });
  });

  it.each([
    [['--connectors', '0'], '--connectors must be a whole number of at least 1'],
    [['--connectors', '5'], '--connectors must be at least 10'],
    [['--repetitions', '1.5'], '--repetitions must be a whole number'],
    [['--repetitions'], '--repetitions needs a value'],
    [['--duration', '10'], 'unknown option --duration'],
  ])('refuses %j, saying why and how to call it', (argv, problem) => {
    expect(() => parsePromotionArgs(argv)).toThrow(UsageError);
    expect(() => parsePromotionArgs(argv)).toThrow(problem);
    expect(() => parsePromotionArgs(argv)).toThrow('npm run bench:promotions --');
  });

  it('keeps --out to a file name in bench/', () => {
    expect(parsePromotionArgs(['--out', '../x/y'])).toMatchObject({ out: '.._x_y' });
    expect(parsePromotionArgs(['--help'])).toBe('help');
  });
});

describe('promotion bench: the mix', () => {
  it('at 1,000: 40% created (1% with a given secret), 20% unchanged, 40% updated (10% keeping a secret), 2% pruned', () => {
    expect(expectedPlan(1_000)).toEqual({ counts: { create: 400, update: 400, delete: 20, unchanged: 200 }, kept: 100, given: 10 });
  });

  it('at 100 (--quick) and at sizes that are not round, every kind is there', () => {
    expect(expectedPlan(100)).toEqual({ counts: { create: 40, update: 40, delete: 2, unchanged: 20 }, kept: 10, given: 1 });
    const odd = expectedPlan(13);
    expect(odd.counts.create + odd.counts.update + odd.counts.unchanged).toBe(13);
    expect(odd.counts.delete).toBe(1);
    expect(odd.given).toBe(1);
    expect(odd.kept).toBe(2);
  });

  it('spreads the kinds over the names', () => {
    expect([0, 1, 2, 3, 4, 5, 8, 23, 24].map(kindOf)).toEqual([
      'create-given',
      'create',
      'unchanged',
      'update-secret-description',
      'update-secret-url',
      'create',
      'update-description',
      'update-secret-description',
      'update-secret-url',
    ]);
  });
});

describe('promotion bench: figures and targets', () => {
  it('takes the median and the highest of the repetitions', () => {
    const { summary } = summarize([repetition(300, 2_000, 1_900), repetition(250, 2_500, 2_100), repetition(900, 1_800, 2_600)], memory);
    expect(summary.planMs).toEqual({ median: 300, max: 900 });
    expect(summary.applyMs).toEqual({ median: 2_000, max: 2_500 });
    expect(summary.revertMs).toEqual({ median: 2_100, max: 2_600 });
    expect(summary).toMatchObject({ rssBeforeMb: 110, peakRssMb: 140, highWaterMb: 141 });
  });

  it('judges the medians against the targets, strictly under them, before rounding', () => {
    expect(summarize([repetition(999.96, 2_999.96)], memory).targets).toEqual({ plan: true, apply: true, rss: true });
    expect(summarize([repetition(PROMOTION_TARGETS.planMs, PROMOTION_TARGETS.applyMs)], memory).targets).toEqual({ plan: false, apply: false, rss: true });
    // One slow repetition of three does not fail the target; two do.
    expect(summarize([repetition(400, 2_000), repetition(5_000, 9_000), repetition(500, 2_500)], memory).targets).toMatchObject({ plan: true, apply: true });
    expect(summarize([repetition(400, 2_000), repetition(5_000, 9_000), repetition(1_500, 3_500)], memory).targets).toMatchObject({
      plan: false,
      apply: false,
    });
  });

  it('holds the RSS to 150 MB, that limit included', () => {
    expect(summarize([repetition(1, 1)], { ...memory, peakMb: 150 }).targets.rss).toBe(true);
    expect(summarize([repetition(1, 1)], { ...memory, peakMb: 150.01 }).targets.rss).toBe(false);
  });

  it('refuses to summarize nothing', () => {
    expect(() => summarize([], memory)).toThrow('no repetition');
  });
});

describe('promotion bench: the report', () => {
  const results = (connectors: number, repetitions: Repetition[]): PromotionResults => ({
    date: '2026-11-29T00:00:00.000Z',
    machine: { cpuModel: 'AMD EPYC', cores: 2, memoryGb: 24, node: 'v20.20.2', mariadb: '10.11.19' },
    settings: { connectors, repetitions: repetitions.length, ownServer: true, nodeFlags: ['--max-old-space-size=128'] },
    mix: { source: connectors, target: 620, ...expectedPlan(connectors) },
    seedSeconds: 7.5,
    firstPlanMs: 160,
    repetitions,
    ...summarize(repetitions, memory),
  });

  it('shows each figure with its verdict, and every request of every repetition', () => {
    const markdown = promotionMarkdown(results(1_000, [repetition(300, 3_200), repetition(250, 3_100)]), 0.3);
    expect(markdown).toContain('| plan (dry run) | 275 | 300 | < 1000 ms | PASS |');
    expect(markdown).toContain('| apply | 3150 | 3200 | < 3000 ms | **FAIL** |');
    expect(markdown).toContain('| peak RSS (MB) | 140 (110 before) | VmHWM 141 | ≤ 150 | PASS |');
    expect(markdown).toContain('| 2 | apply | 3100 | 1550 | 775 | 3288 | 20 | 2621 | 424 | 200 | 1 | 1 | 4.01 | 1.89 | 0 |');
    expect(markdown).not.toContain('indicative');
    expect(markdown).toContain('Other load stayed at or below 0 cores');
  });

  it('says when the machine was busy, and when the run is not at the size the targets are stated for', () => {
    const markdown = promotionMarkdown(results(100, [repetition(30, 300, 300, 1.2)]), 0.3);
    expect(markdown).toContain('**Measured on a busy machine**: up to 1.2 cores');
    expect(markdown).toContain('this run has 100, so the verdicts are indicative');
  });
});
