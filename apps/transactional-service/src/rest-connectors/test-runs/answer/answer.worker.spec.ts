import { AnswerTask, readAnswer } from './answer.worker';
import { cutAt } from './cut-at';

const SECRET = { value: 's3cr3t/t0ken', placeholder: '<BEARER_TOKEN>' };
/** A task; `body` as text, given as its bytes. */
const aTask = ({ body = '', ...overrides }: Partial<AnswerTask> & { body?: string }): AnswerTask => ({
  bytes: Buffer.from(body),
  whole: true,
  texts: [],
  secrets: [SECRET],
  shownBytes: 64,
  isJson: false,
  expression: null,
  ...overrides,
});

describe('readAnswer', () => {
  it('scrubs the whole body before cutting it: a secret across the cut leaves no part of itself', () => {
    expect(readAnswer(aTask({ body: `${'.'.repeat(60)}${SECRET.value} and more` }))).toMatchObject({ body: `${'.'.repeat(60)}<BEA`, bodyTruncated: true });
  });

  it('scrubs the small texts of the answer (its message, header names and values), in order', () => {
    expect(readAnswer(aTask({ texts: ['The far side answered 302, redirecting to /x?t=s3cr3t%2Ft0ken', `x-${SECRET.value}`, 'ok'] })).texts).toEqual([
      'The far side answered 302, redirecting to /x?t=<BEARER_TOKEN>',
      'x-<BEARER_TOKEN>',
      'ok',
    ]);
  });

  it('parses the body as it came, then scrubs what the parsed body holds: a JSON escape hides nothing, and the answer stays JSON', () => {
    const body = `{"echo": "${SECRET.value.replace('/', '\\/').replace('s', '\\u0073')}", "n": 1}`;
    expect(readAnswer(aTask({ body, isJson: true, shownBytes: 1024 }))).toMatchObject({
      body: '{"echo": "<BEARER_TOKEN>", "n": 1}',
      json: { echo: '<BEARER_TOKEN>', n: 1 },
    });
    // A secret that is also ordinary text of the answer: the text shows its placeholder, the JSON is still read.
    const short = { value: '1234', placeholder: '<P>' };
    expect(readAnswer(aTask({ body: '{"count": 1234}', secrets: [short], isJson: true, shownBytes: 1024, expression: '$.count' }))).toMatchObject({
      body: '{"count": <P>}',
      json: { count: '<P>' },
      query: { values: ['<P>'] },
    });
    expect(readAnswer(aTask({ body, isJson: true, shownBytes: 10 })).json).toBeUndefined();
    expect(readAnswer(aTask({ body, isJson: false, shownBytes: 1024 })).json).toBeUndefined();
  });

  it('applies the query to the answer and scrubs what it selects and its hint', () => {
    const body = JSON.stringify({ token: encodeURIComponent(SECRET.value), n: 1, [SECRET.value]: 2 });
    const task = aTask({ body, shownBytes: 1024 });
    expect(readAnswer({ ...task, expression: '$.token' }).query).toEqual({ values: ['<BEARER_TOKEN>'], valuesTruncated: false, error: null, hint: null });
    expect(readAnswer({ ...task, expression: '$.missing' }).query?.hint).toBe(
      'output selects nothing: $ selects an object with the members "token", "n", "<BEARER_TOKEN>", and .missing selects nothing from it',
    );
  });

  describe('a filter of the query, on an answer that echoes the secret', () => {
    // What an echo endpoint answers to a call with `Authorization: Bearer <secret>`.
    const body = JSON.stringify({
      headers: { authorization: `Bearer ${SECRET.value}`, accept: '*/*' },
      list: [SECRET.value, 'other'],
      echoed: { [SECRET.value]: true },
    });
    /** What the caller sees of a run whose output is `expression` with `guess` for GUESS, the guess written back as GUESS. */
    const seen = (expression: string, guess: string) =>
      JSON.parse(
        JSON.stringify(readAnswer(aTask({ body, isJson: true, shownBytes: 4096, expression: expression.replaceAll('GUESS', guess) }))).replaceAll(
          guess,
          'GUESS',
        ),
      );

    it.each([
      ['==', "$.headers[?@ == 'Bearer GUESS']", SECRET.value, 'x9dq7/k1pfab'],
      ['== on a list', "$.list[?@ == 'GUESS']", SECRET.value, 'x9dq7/k1pfab'],
      ['< (either side of the secret)', "$.list[?@ < 'GUESS']", 's3cr3t/t0keo', 's3cr3t/t0kem'],
      ['match() on a prefix', "$.headers[?match(@, 'Bearer GUESS.*')]", 's3cr', 'x9dq'],
      ['search() for a part', "$.headers[?search(@, 'GUESS')]", 's3cr3t', 'x9dq7k'],
      ['a name selector', "$.echoed['GUESS']", SECRET.value, 'x9dq7/k1pfab'],
    ])('%s: a right guess and a wrong one see the same answer, values and hint included', (_filter, expression, right, wrong) => {
      const answer = seen(expression, right);

      expect(answer).toEqual(seen(expression, wrong));
      expect(answer.query.error).toBeNull();
      expect(JSON.stringify(answer)).not.toContain('t0ken');
    });

    it('compares with the placeholders, which are all a filter sees', () => {
      expect(readAnswer(aTask({ body, expression: "$.headers[?@ == 'Bearer <BEARER_TOKEN>']" })).query?.values).toEqual(['Bearer <BEARER_TOKEN>']);
    });
  });

  it('decodes the bytes, leaving out a character cut in two at the end of a body read only in part', () => {
    const bytes = Buffer.from('aé');
    expect(readAnswer({ ...aTask({}), bytes: bytes.subarray(0, 2), whole: false }).body).toBe('a');
  });

  it('does not query an answer read only in part', () => {
    expect(readAnswer(aTask({ body: '{"a": 1', whole: false, expression: '$.a' }))).toEqual({
      texts: [],
      body: '{"a": 1',
      bodyTruncated: true,
      query: { values: null, valuesTruncated: false, error: 'the answer was cut short before its end: it cannot be read as JSON', hint: null },
    });
  });
});

describe('cutAt', () => {
  it('keeps at most the limit in bytes of UTF-8, never cutting a character in two', () => {
    expect(cutAt('é'.repeat(10), 5)).toEqual({ text: 'éé', truncated: true });
    expect(cutAt('abc', 3)).toEqual({ text: 'abc', truncated: false });
  });
});
