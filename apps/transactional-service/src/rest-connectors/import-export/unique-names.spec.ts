import { LIMITS } from '@app/domain';
import { renameConflicts, suffixedPrefix, uniqueNames } from './unique-names';

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

describe(renameConflicts.name, () => {
  it("numbers each renamed name past the bot's names and the import's own, from the name before the import numbered it", () => {
    const names = ['Orders', 'Users', 'Orders (2)', 'Refunds'];
    const bases = ['Orders', 'Users', 'Orders', 'Refunds'];
    const taken = new Set(['orders', 'orders (2)', 'orders (3)', 'refunds']);

    expect(renameConflicts(names, bases, new Set([0, 2, 3]), taken)).toEqual(['Orders (4)', 'Users', 'Orders (5)', 'Refunds (2)']);
  });

  it('cuts a long name to make room for the number, and its suffixed forms share suffixedPrefix', () => {
    const long = 'N'.repeat(LIMITS.name);

    const [renamed] = renameConflicts([long], [long], new Set([0]), new Set([long.toLowerCase()]));

    expect(renamed).toBe(`${'N'.repeat(LIMITS.name - 4)} (2)`);
    expect(renamed.toLowerCase().startsWith(suffixedPrefix(long))).toBe(true);
  });
});
