import { join } from 'node:path';
import { ANSWER_BUDGET_MS, AnswerReader, WORKER_LIMITS } from './answer-reader';
import type { AnswerTask } from './answer.worker';
import { workerScript } from '../../../workers/worker-script';

/** 57 bytes nested 28 deep: `$..*` eight times over it walks millions of paths, and a name no node has selects none of them. */
const NESTED = `${'['.repeat(28)}1${']'.repeat(28)}`;
const ENDLESS = '$..*..*..*..*..*..*..*..nothing';
const SECRET = { value: 'bearer-of-secrets', placeholder: '<BEARER_TOKEN>' };

/** A task; `body` as text, handed over as its bytes. */
const aTask = ({ body = '{}', ...overrides }: Partial<AnswerTask> & { body?: string }): Omit<AnswerTask, 'progress'> => ({
  bytes: new Uint8Array(Buffer.from(body)),
  whole: true,
  texts: [],
  secrets: [SECRET],
  shownBytes: 64 * 1024,
  isJson: false,
  expression: null,
  ...overrides,
});

describe(AnswerReader.name, () => {
  let sut: AnswerReader;
  afterEach(() => sut.close());

  it('reads an answer in a worker thread: its texts and body scrubbed, the body parsed and queried', async () => {
    sut = new AnswerReader();
    const task = aTask({ body: '{"data":{"level":7}}', texts: ['x-echo', SECRET.value], isJson: true, expression: '$.data.level' });
    await expect(sut.read(task)).resolves.toEqual({
      result: {
        texts: ['x-echo', '<BEARER_TOKEN>'],
        body: '{"data":{"level":7}}',
        bodyTruncated: false,
        json: { data: { level: 7 } },
        jsonPaths: { paths: ['$.data', '$.data.level'], truncated: false },
        query: { values: [7], valuesTruncated: false, error: null, hint: null },
      },
    });
  });

  it(`stops a read past its budget (${ANSWER_BUDGET_MS} ms by default) with its worker, keeping what was already scrubbed to be shown`, async () => {
    sut = new AnswerReader(300);
    const outcome = await sut.read(aTask({ body: NESTED, texts: [SECRET.value], expression: ENDLESS }));
    expect(outcome).toEqual({
      stopped: 'took longer than 300 ms to read, and was stopped',
      shown: { texts: ['<BEARER_TOKEN>'], body: NESTED, bodyTruncated: false },
    });
    // The pool replaced the stopped worker: the next read runs.
    await expect(sut.read(aTask({ body: '[1]', expression: '$[0]' }))).resolves.toMatchObject({ result: { query: { values: [1] } } });
  });

  it('stops a read that needs more memory than its worker may have, and only that worker', async () => {
    sut = new AnswerReader(10_000, { ...WORKER_LIMITS, maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 });
    const large = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `item ${i}` })));
    const outcome = await sut.read(aTask({ body: large, expression: '$[*].id' }));
    expect(outcome).toMatchObject({ stopped: 'needed more than the 8 MB of memory a test run may use to read it, and was stopped' });
    await expect(sut.read(aTask({ body: '[1]', expression: '$[0]' }))).resolves.toMatchObject({ result: { query: { values: [1] } } });
  });

  it('stops at once when the caller has left', async () => {
    sut = new AnswerReader(10_000);
    const gone = new AbortController();
    const running = sut.read(aTask({ body: NESTED, expression: ENDLESS }), gone.signal);
    gone.abort();
    await expect(running).resolves.toMatchObject({ stopped: 'was not read: the test run was cancelled' });
  });

  it('takes the bytes without copying them: they are handed to the worker', async () => {
    sut = new AnswerReader();
    const task = aTask({ body: '[1]', expression: '$[0]' });
    await expect(sut.read(task)).resolves.toMatchObject({ result: { body: '[1]' } });
    expect(task.bytes.byteLength).toBe(0);
  });

  it('says so, and hands back the error for the log, when no worker can start; the next read tries again', async () => {
    let script = '/nowhere/answer.worker.js';
    sut = new AnswerReader(ANSWER_BUDGET_MS, WORKER_LIMITS, () => script);
    const failed = await sut.read(aTask({}));
    // The detail is for the log; the answer says only that the reader failed.
    expect(failed).toEqual({
      stopped: 'could not be read: the answer reader failed to start',
      error: expect.objectContaining({ message: expect.stringContaining('/nowhere/answer.worker.js') }),
    });
    script = workerScript(join(__dirname, 'answer.worker'));
    await expect(sut.read(aTask({ body: '[1]', expression: '$[0]' }))).resolves.toMatchObject({ result: { query: { values: [1] } } });
  });
});
