import { LIMITS } from '@app/domain';
import { uniqueNames } from './unique-names';

describe(uniqueNames.name, () => {
  it('keeps the first of each name and numbers the next ones, case-insensitively, past names already numbered', () => {
    expect(uniqueNames(['Orders', 'orders', 'Orders (2)', 'ORDERS', 'Users'])).toEqual(['Orders', 'orders (2)', 'Orders (2) (2)', 'ORDERS (3)', 'Users']);
  });

  it('cuts a long name to make room for the number, within the limit, never between the halves of a surrogate pair', () => {
    const long = `${'a'.repeat(LIMITS.name - 6)}😀😀b`;
    const [first, second] = uniqueNames([long, long]);
    expect(first).toBe(long);
    expect(second.length).toBeLessThanOrEqual(LIMITS.name);
    expect(second).toBe(`${'a'.repeat(LIMITS.name - 6)}😀 (2)`);
    expect(second).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
