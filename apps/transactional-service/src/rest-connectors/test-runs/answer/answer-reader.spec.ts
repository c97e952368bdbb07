import { ANSWER_BUDGET_MS, AnswerReader, WORKER_LIMITS } from './answer-reader';
import type { AnswerTask } from './answer.worker';

/** 57 bytes nested 28 deep: `$..*` eight times over it walks millions of paths, and a name no node has selects none of them. */
const NESTED = `${'['.repeat(28)}1${']'.repeat(28)}`;
const ENDLESS = '$..*..*..*..*..*..*..*..nothing';

const aTask = (overrides: Partial<AnswerTask>): AnswerTask => ({ body: '{}', whole: true, secrets: [], shownBytes: 64 * 1024, isJson: false, expression: null, ...overrides });

describe(AnswerReader.name, () => {
  let sut: AnswerReader;
  afterEach(() => sut.close());

  it('reads an answer in a worker thread and hands back the result', async () => {
    sut = new AnswerReader();
    await expect(sut.read(aTask({ body: '{"data":{"level":7}}', isJson: true, expression: '$.data.level' }))).resolves.toEqual({
      result: { body: '{"data":{"level":7}}', bodyTruncated: false, json: { data: { level: 7 } }, query: { values: [7], valuesTruncated: false, error: null, hint: null } },
    });
  });

  it(`stops a read past its budget (${ANSWER_BUDGET_MS} ms by default) with its worker, while the process goes on answering`, async () => {
    sut = new AnswerReader(300);
    let ticks = 0;
    const ticking = setInterval(() => (ticks += 1), 10);
    const outcome = await sut.read(aTask({ body: NESTED, expression: ENDLESS }));
    clearInterval(ticking);
    expect(outcome).toEqual({ stopped: 'took longer than 300 ms to read, and was stopped' });
    // The event loop of this process was never blocked by the evaluation.
    expect(ticks).toBeGreaterThan(5);
    // The pool replaced the stopped worker: the next read runs.
    await expect(sut.read(aTask({ body: '[1]', expression: '$[0]' }))).resolves.toMatchObject({ result: { query: { values: [1] } } });
  });

  it('stops a read that needs more memory than its worker may have, and only that worker', async () => {
    sut = new AnswerReader(10_000, { ...WORKER_LIMITS, maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 });
    const large = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `item ${i}` })));
    await expect(sut.read(aTask({ body: large, expression: '$[*].id' }))).resolves.toEqual({
      stopped: 'needed more than the 8 MB of memory a test run may use to read it, and was stopped',
    });
    await expect(sut.read(aTask({ body: '[1]', expression: '$[0]' }))).resolves.toMatchObject({ result: { query: { values: [1] } } });
  });

  it('stops at once when the caller has left', async () => {
    sut = new AnswerReader(10_000);
    const gone = new AbortController();
    const running = sut.read(aTask({ body: NESTED, expression: ENDLESS }), gone.signal);
    gone.abort();
    await expect(running).resolves.toEqual({ stopped: 'was not read: the test run was cancelled' });
  });
});
