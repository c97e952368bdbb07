import { GtidPosition } from './gtid-position';

const position = (text: string) => GtidPosition.parse(text)!;

describe(GtidPosition.name, () => {
  it('reads what MariaDB prints, and prints it back in domain order', () => {
    expect(position('1-2-7,0-1-42').toString()).toBe('0-1-42,1-2-7');
    expect(position('').isEmpty).toBe(true);
    expect(position(' 0-1-18446744073709551615 ').toString()).toBe('0-1-18446744073709551615');
  });

  it('refuses what is not a position: other shapes, a domain twice, numbers past their width, more than 16 domains', () => {
    for (const text of ['yesterday', '0-1', '0-1-', '-1-2', '0-1-2;', '0-1-2,0-3-4', '0-1-18446744073709551616', '4294967296-1-1', '0-1-2,,1-1-1']) {
      expect(GtidPosition.parse(text)).toBeUndefined();
    }
    expect(GtidPosition.parse(Array.from({ length: 17 }, (_, d) => `${d}-1-1`).join(','))).toBeUndefined();
    expect(GtidPosition.parse(Array.from({ length: 16 }, (_, d) => `${d}-1-1`).join(','))).toBeDefined();
  });

  it('covers a position when it has at least its sequence number in each of its domains, whatever the server id', () => {
    expect(position('0-1-10').covers(position('0-1-10'))).toBe(true);
    expect(position('0-1-10').covers(position('0-2-9'))).toBe(true);
    expect(position('0-1-9').covers(position('0-1-10'))).toBe(false);
    expect(position('0-1-10').covers(position('0-1-5,1-1-1'))).toBe(false);
    expect(position('0-1-10,1-1-1').covers(position('0-1-5'))).toBe(true);
    expect(position('0-1-1').covers(GtidPosition.EMPTY)).toBe(true);
    expect(GtidPosition.EMPTY.covers(position('0-1-1'))).toBe(false);
  });

  it('compares 64-bit sequence numbers exactly', () => {
    expect(position('0-1-9007199254740993').covers(position('0-1-9007199254740992'))).toBe(true);
    expect(position('0-1-9007199254740992').covers(position('0-1-9007199254740993'))).toBe(false);
  });

  it('merges to the later sequence number of every domain', () => {
    expect(position('0-1-10,2-1-3').merge(position('0-1-7,1-1-5')).toString()).toBe('0-1-10,1-1-5,2-1-3');
    expect(GtidPosition.EMPTY.merge(position('0-1-1')).toString()).toBe('0-1-1');
    expect(position('0-1-1').equals(position('0-2-1'))).toBe(true);
  });
});
