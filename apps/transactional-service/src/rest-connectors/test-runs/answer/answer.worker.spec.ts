import readAnswer, { AnswerTask, cutAt } from './answer.worker';

const SECRET = { value: 's3cr3t/t0ken', placeholder: '<BEARER_TOKEN>' };
const aTask = (overrides: Partial<AnswerTask>): AnswerTask => ({ body: '', whole: true, secrets: [SECRET], shownBytes: 64, isJson: false, expression: null, ...overrides });

describe('readAnswer', () => {
  it('scrubs the whole body before cutting it: a secret across the cut leaves no part of itself', () => {
    const result = readAnswer(aTask({ body: `${'.'.repeat(60)}${SECRET.value} and more` }));
    expect(result).toEqual({ body: `${'.'.repeat(60)}<BEA`, bodyTruncated: true });
  });

  it('hands back the parsed body of a JSON answer shown whole, scrubbed again after decoding', () => {
    const body = `{"echo": "${SECRET.value.replace('/', '\\/').replace('s', '\\u0073')}"}`;
    expect(readAnswer(aTask({ body, isJson: true, shownBytes: 1024 }))).toEqual({ body: '{"echo": "<BEARER_TOKEN>"}', bodyTruncated: false, json: { echo: '<BEARER_TOKEN>' } });
    expect(readAnswer(aTask({ body, isJson: true, shownBytes: 10 })).json).toBeUndefined();
    expect(readAnswer(aTask({ body, isJson: false, shownBytes: 1024 })).json).toBeUndefined();
  });

  it('applies the query to the scrubbed answer and scrubs what it selects once more', () => {
    const body = JSON.stringify({ token: encodeURIComponent(SECRET.value), n: 1 });
    expect(readAnswer(aTask({ body, expression: '$.token', shownBytes: 1024 })).query).toEqual({ values: ['<BEARER_TOKEN>'], valuesTruncated: false, error: null, hint: null });
  });

  it('does not query an answer read only in part', () => {
    expect(readAnswer(aTask({ body: '{"a": 1', whole: false, expression: '$.a' }))).toEqual({
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
