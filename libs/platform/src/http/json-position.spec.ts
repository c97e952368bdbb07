import { jsonProblem } from './json-position';

describe(jsonProblem.name, () => {
  it('finds nothing wrong with JSON, whatever its nesting, and answers past a body nested far deeper than the call stack', () => {
    expect(jsonProblem('{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {}}')).toBeNull();
    expect(jsonProblem(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toBeNull();
    expect(jsonProblem(`${'['.repeat(100_000)}`)).toEqual({ line: 1, column: 100_001, reason: 'the body ends before the JSON does' });
  });

  it.each([
    // A pasted multi-line cURL command: its line continuation, a backslash before a raw line break, inside the string.
    ['{"format": "curl", "source": "curl x \\\n  -H a"}', 1, 38, 'a backslash in a string must start an escape'],
    ['{"source": "line one\n  line two"}', 1, 21, 'a string holds a raw line break'],
    ['{\n  "a": 1,\n}', 3, 1, 'a property name must be a double-quoted string'],
    ['{\n  "a": tru\n}', 2, 11, 'expected true'],
    ["{'a': 1}", 1, 2, 'a property name must be a double-quoted string'],
    ['{"a" 1}', 1, 6, "a ':' must follow"],
    ['[1 2]', 1, 4, "a ',' or ']' must follow"],
    ['[1,]', 1, 4, 'a value must start here'],
    ['{"a": "\\x"}', 1, 8, 'a backslash in a string must start an escape'],
    ['{"a": -}', 1, 8, 'a number must have digits'],
    ['{} {}', 1, 4, 'more text follows'],
    ['{"a": "open', 1, 12, 'a string is not closed'],
  ])('names where %j stops being JSON: line %i, column %i', (text, line, column, reason) => {
    expect(jsonProblem(text)).toEqual({ line, column, reason: expect.stringContaining(reason) });
  });
});
