import { UUID_PATTERN } from '../scope/uuid';
import { newUuid } from './uuid-v7';

const millisecondsOf = (uuid: string) => parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);

describe('newUuid', () => {
  it('is a canonical version-7 UUID of the RFC 9562 variant, carrying the time in milliseconds', () => {
    const now = Date.now() + 10_000;
    const uuids = Array.from({ length: 200 }, (_, i) => newUuid(now + i));

    for (const uuid of uuids) {
      expect(uuid).toMatch(UUID_PATTERN);
      expect(uuid).toBe(uuid.toLowerCase());
      expect(uuid[14]).toBe('7');
      expect(['8', '9', 'a', 'b']).toContain(uuid[19]);
    }
    expect(uuids.map(millisecondsOf)).toEqual(uuids.map((_, i) => now + i));
  });

  it('only increases, as text, within one millisecond and across many', () => {
    const start = Date.now() + 20_000;
    const ids = [...Array.from({ length: 3_000 }, () => newUuid(start)), ...Array.from({ length: 50 }, (_, i) => newUuid(start + 1 + i))];

    const sorted = [...ids].sort();
    expect(ids).toEqual(sorted);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('borrows the next millisecond when one runs out of counts, and keeps increasing when the clock steps back', () => {
    const start = Date.now() + 30_000;
    // The counter starts below 2,048 and counts to 4,095: 5,000 ids cannot all fit in one millisecond.
    const burst = Array.from({ length: 5_000 }, () => newUuid(start));
    const afterStepBack = newUuid(start - 5_000);

    expect(millisecondsOf(burst[0])).toBe(start);
    expect(millisecondsOf(burst[burst.length - 1])).toBeGreaterThan(start);
    expect(burst).toEqual([...burst].sort());
    expect(afterStepBack > burst[burst.length - 1]).toBe(true);
  });

  it('draws its last 62 bits at random', () => {
    const now = Date.now() + 40_000;
    const tails = Array.from({ length: 2_000 }, (_, i) =>
      newUuid(now + i)
        .replace(/-/g, '')
        .slice(17),
    );
    // 15 hex digits after the variant's: 60 random bits each, about half of them set.
    const setBits = tails
      .join('')
      .split('')
      .reduce((sum, digit) => sum + parseInt(digit, 16).toString(2).replace(/0/g, '').length, 0);

    expect(new Set(tails).size).toBe(tails.length);
    expect(setBits / (tails.length * 60)).toBeGreaterThan(0.48);
    expect(setBits / (tails.length * 60)).toBeLessThan(0.52);
  });
});
