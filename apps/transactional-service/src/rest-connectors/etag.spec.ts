import { etagOf, IfMatch, MalformedIfMatchException } from './etag';

describe('ETags', () => {
  it('are strong and follow the version', () => {
    expect(etagOf({ version: 3 })).toBe('"v3"');
  });

  it.each([
    ['"v3"', true],
    ['*', true],
    ['"v1", "v3"', true],
    ['"v1","v3"', true],
    ['"v2"', false],
    ['W/"v3"', false],
  ])('If-Match %s matches "v3": %s', (header, matches) => {
    expect(IfMatch.from(header)!.accepts('"v3"')).toBe(matches);
  });

  it('is no condition without the header', () => {
    expect(IfMatch.from(undefined)).toBeUndefined();
  });

  it.each(['v3', '', '"v3', 'v3"', '"v1", v3', '*, "v3"', '"v 3"'])('refuses the malformed If-Match %j with a 400 that shows a quoted ETag', (header) => {
    expect(() => IfMatch.from(header)).toThrow(MalformedIfMatchException);
    expect(() => IfMatch.from(header)).toThrow(/If-Match must be \* or quoted ETags as a read answers them, such as "v4" \(with the quotes\)/);
  });
});
