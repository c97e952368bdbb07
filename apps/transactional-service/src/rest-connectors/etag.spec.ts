import { etagOf, ifMatchAccepts } from './etag';

describe('ETags', () => {
  it('are strong and follow the version', () => {
    expect(etagOf({ version: 3 })).toBe('"v3"');
  });

  it.each([
    ['"v3"', true],
    ['*', true],
    ['"v1", "v3"', true],
    ['"v2"', false],
    ['W/"v3"', false],
    ['v3', false],
    ['', false],
  ])('If-Match %s matches "v3": %s', (header, matches) => {
    expect(ifMatchAccepts(header, '"v3"')).toBe(matches);
  });
});
