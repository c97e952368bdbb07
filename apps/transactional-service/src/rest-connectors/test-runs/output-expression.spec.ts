import { evaluateOutput } from './output-expression';

describe('evaluateOutput', () => {
  const body = JSON.stringify({ data: { level: 7, items: [{ id: 1, ok: true }, { id: 2, ok: false }] } });

  it.each([
    ['$.data.level', [7]],
    ['$.data.items[*].id', [1, 2]],
    ['$.data.items[?@.ok == true].id', [1]],
    ['$..id', [1, 2]],
    ['$.data.missing', []],
    ['$', [JSON.parse(body)]],
  ])('%s selects %j (RFC 9535)', (expression, values) => {
    expect(evaluateOutput(expression, body, false)).toEqual({ expression, values, error: null });
  });

  it('names a malformed query without evaluating anything', () => {
    expect(evaluateOutput('$.data[', body, false)).toMatchObject({ values: null, error: expect.stringMatching(/^output is not a valid JSONPath query \(RFC 9535\)/) });
  });

  it('never evaluates script: an eval-style filter is a syntax error, not code', () => {
    const result = evaluateOutput('$..[?(@.constructor.constructor("return process")().exit())]', body, false);
    expect(result.values).toBeNull();
    expect(result.error).toMatch(/not a valid JSONPath query/);
  });

  it('says why when the answer is not JSON, was cut short, or output is not a query', () => {
    expect(evaluateOutput('$.a', '<html>', false).error).toBe('the answer is not JSON');
    expect(evaluateOutput('$.a', '{"a": 1', true).error).toMatch(/cut short/);
    expect(evaluateOutput('data.level', body, false)).toEqual({ expression: 'data.level', values: null, error: 'output is not a JSONPath query (it does not start with $)' });
  });
});
