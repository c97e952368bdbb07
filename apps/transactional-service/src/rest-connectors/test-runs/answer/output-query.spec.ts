import { jsonDepthExceeds, jsonPaths, OUTPUT_LIMITS, parseAnswer, queryAnswer, queryText } from './output-query';

const query = queryText;

describe('queryText', () => {
  const body = JSON.stringify({
    data: {
      level: 7,
      unit: 'kg',
      items: [
        { id: 1, ok: true, name: 'Apple' },
        { id: 2, ok: false, name: 'banana' },
      ],
    },
  });

  it.each([
    ['$.data.level', [7]],
    ['$.data.items[*].id', [1, 2]],
    ['$.data.items[?@.ok == true].id', [1]],
    ['$..id', [1, 2]],
    ["$.data.items[?match(@.name, '[A-Z].*')].id", [1]],
    ["$.data.items[?search(@.name, 'an')].id", [2]],
    ['$', [JSON.parse(body)]],
  ])('%s selects %j (RFC 9535)', (expression, values) => {
    expect(query(expression, body)).toEqual({ values, valuesTruncated: false, error: null, hint: null });
  });

  it('names a malformed query without evaluating anything', () => {
    expect(query('$.data[', body)).toMatchObject({ values: null, error: expect.stringMatching(/^output is not a valid JSONPath query \(RFC 9535\)/) });
  });

  it('never evaluates script: an eval-style filter is a syntax error, not code', () => {
    expect(query('$..[?(@.constructor.constructor("return process")().exit())]', body)).toMatchObject({
      values: null,
      error: expect.stringMatching(/not a valid JSONPath query/),
    });
  });

  it('says why when the answer is not JSON', () => {
    expect(query('$.a', '<html>')).toEqual({ values: null, valuesTruncated: false, error: 'the answer is not JSON', hint: null });
  });

  describe('when the query selects nothing, hints how far it got', () => {
    it('names the members where a name was not found', () => {
      expect(query('$.data.levl', body)?.hint).toBe(
        'output selects nothing: $.data selects an object with the members "level", "unit", "items", and .levl selects nothing from it',
      );
    });

    it('says the length of an array an index is beyond, and what the root is when nothing matches at all', () => {
      expect(query('$.data.items[5]', body)?.hint).toBe('output selects nothing: $.data.items selects an array of 2 items, and [5] selects nothing from it');
      expect(query('$.nothing', '"text"')?.hint).toBe('output selects nothing: $ selects the string "text", and .nothing selects nothing from it');
    });
  });

  describe('bounds what a hostile answer or query could make unbounded', () => {
    it(`does not read as JSON an answer nested deeper than ${OUTPUT_LIMITS.jsonDepth} levels (checked before parsing: no stack is spent)`, () => {
      const deep = '['.repeat(5_000) + ']'.repeat(5_000);
      expect(query('$[0]', deep)).toMatchObject({
        values: null,
        error: `the answer nests arrays and objects deeper than ${OUTPUT_LIMITS.jsonDepth} levels: a test run does not read it as JSON`,
      });
      expect(parseAnswer(deep)).toEqual({ notJson: expect.stringMatching(/deeper than 64 levels/) });
      const limit = '['.repeat(OUTPUT_LIMITS.jsonDepth) + ']'.repeat(OUTPUT_LIMITS.jsonDepth);
      expect(query('$', limit)?.values).toEqual([JSON.parse(limit)]);
    });

    it('counts nesting outside strings only: brackets inside a string, escaped quotes included, do not count', () => {
      expect(jsonDepthExceeds(JSON.stringify({ a: '[[[[[["\\"{{{{' }), 2)).toBe(false);
      expect(jsonDepthExceeds('[[[]]]', 2)).toBe(true);
    });

    it(`takes a query of ${OUTPUT_LIMITS.queryNodes} segments, selectors and filter terms, and refuses a larger one before evaluating it`, () => {
      // `.a` is a segment and its name selector: two nodes each.
      const path = (names: number) => `$${'.a'.repeat(names)}`;
      expect(query(path(OUTPUT_LIMITS.queryNodes / 2), '{}')).toMatchObject({ values: [], error: null });
      expect(query(path(OUTPUT_LIMITS.queryNodes / 2 + 1), '{}')).toMatchObject({ values: null, error: expect.stringMatching(/^output is too large a query/) });
      const union = `$[${Array(3000).fill('0').join(',')}]`;
      expect(query(union, JSON.stringify(['x'.repeat(50_000)]))).toMatchObject({
        values: null,
        error: expect.stringMatching(/^output is too large a query for a test run/),
      });
    });

    it(`shows at most ${OUTPUT_LIMITS.values} values, and says the rest were cut`, () => {
      const many = JSON.stringify(Array.from({ length: 5_000 }, (_, i) => i));
      expect(query('$[*]', many)).toEqual({
        values: Array.from({ length: OUTPUT_LIMITS.values }, (_, i) => i),
        valuesTruncated: true,
        error: null,
        hint: null,
      });
    });

    it(`shows at most ${OUTPUT_LIMITS.valuesBytes} bytes of values, and refuses a single value larger than that`, () => {
      const big = JSON.stringify(['x'.repeat(40_000), 'y'.repeat(40_000)]);
      const cut = query('$[*]', big);
      expect(cut).toMatchObject({ values: ['x'.repeat(40_000)], valuesTruncated: true, error: null });
      expect(query('$', big)).toMatchObject({
        values: null,
        error: expect.stringMatching(/^output selects a value of 80\d+ bytes as JSON: a test run shows at most 65536 bytes of values$/),
      });
    });

    it('stops a descendant query that would multiply without end once enough values are found (the values are generated lazily)', () => {
      // 57 bytes, 28 levels: every way to pick 8 of them is a value, 3.1 million values.
      const small = `${'['.repeat(28)}1${']'.repeat(28)}`;
      expect(small.length).toBeLessThanOrEqual(60);
      expect(query('$..*..*..*..*..*..*..*..*', small)).toMatchObject({ valuesTruncated: true, error: null });
    });

    it('runs match() and search() in linear time: a pattern that backtracks exponentially elsewhere answers at once', () => {
      const answer = JSON.stringify(['x'.repeat(30_000)]);
      expect(query("$[?match(@, '(x+)+y')]", answer)).toMatchObject({ values: [], error: null });
      expect(query("$[?search(@, '(x+)+x')]", answer)?.values).toHaveLength(1);
    });

    it('keeps the I-Regexp rules: a pattern outside I-Regexp (a lookahead, a backreference) matches nothing, as RFC 9535 says', () => {
      const answer = JSON.stringify(['aa', 'ab']);
      expect(query("$[?match(@, '(a)\\\\1')]", answer)?.values).toEqual([]);
      expect(query("$[?match(@, 'a(?=b)')]", answer)?.values).toEqual([]);
      expect(query("$[?match(@, 'a.')]", JSON.stringify(['a\n', 'ab']))?.values).toEqual(['ab']);
    });
  });

  it('parses an answer once, or says why it is not read as JSON', () => {
    expect(parseAnswer('{"a":[1,2]}')).toEqual({ value: { a: [1, 2] } });
    expect(parseAnswer('not json')).toEqual({ notJson: 'the answer is not JSON' });
  });
});

describe('jsonPaths', () => {
  it('lists the path of every value, shorthand where a name allows it, each one a query that selects exactly that value', () => {
    const document = { data: { level: 3, 'odd key': [1, { x: 'y' }], "it's": null }, '': true };

    const { paths, truncated } = jsonPaths(document);

    expect(paths).toEqual([
      '$.data',
      "$['']",
      '$.data.level',
      "$.data['odd key']",
      '$.data["it\'s"]',
      "$.data['odd key'][0]",
      "$.data['odd key'][1]",
      "$.data['odd key'][1].x",
    ]);
    expect(truncated).toBe(false);
    for (const path of paths) expect({ path, selected: queryAnswer(path, document).values?.length }).toEqual({ path, selected: 1 });
    expect(queryAnswer("$.data['odd key'][1].x", document).values).toEqual(['y']);
  });

  it(`lists at most ${OUTPUT_LIMITS.paths}, saying there are more; none for a scalar answer`, () => {
    const many = jsonPaths({ items: Array.from({ length: 500 }, (_, i) => ({ id: i })) });

    expect(many.paths).toHaveLength(OUTPUT_LIMITS.paths);
    expect(many.paths.slice(0, 3)).toEqual(['$.items', '$.items[0]', '$.items[1]']);
    expect(many.truncated).toBe(true);
    expect(jsonPaths(42)).toEqual({ paths: [], truncated: false });
  });
});
