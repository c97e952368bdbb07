import fc from 'fast-check';
import { compareKeys } from './key-order';

const sign = (n: number) => Math.sign(n);
const utf8Order = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
/** utf8mb4_bin: the shorter key padded with spaces, then code points (UTF-8 bytes are in code point order). */
const padSpaceOrder = (a: string, b: string) => {
  const length = Math.max(a.length, b.length);
  return utf8Order(a.padEnd(length, ' '), b.padEnd(length, ' '));
};
/** Keys as names can be: any well-formed text, control characters and characters above U+FFFF included. */
const key = fc.string({
  unit: fc.oneof(fc.constantFrom(' ', '\t', 'a', 'b', '\uE000', '\uFB00', '\u{1D49C}'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })),
  maxLength: 8,
});

describe('compareKeys', () => {
  it("orders by code point, where JavaScript's < orders by UTF-16 code unit", () => {
    // U+1D49C is stored as the surrogates D835 DC9C, which < puts before U+FB00.
    expect('\u{1D49C}' < '\uFB00').toBe(true);
    expect(compareKeys('\u{1D49C}', '\uFB00', false)).toBeGreaterThan(0);
    expect(compareKeys('\u{1D49C}', '\uFB00', true)).toBeGreaterThan(0);
    expect(compareKeys('\u{1D49C}', '\u{1D49D}', false)).toBeLessThan(0);
  });

  it('without PAD SPACE (SQLite) a key sorts before the longer keys it begins', () => {
    expect(compareKeys('a', 'a\tb', false)).toBeLessThan(0);
    expect(compareKeys('a', 'a b', false)).toBeLessThan(0);
    expect(compareKeys('a ', 'a', false)).toBeGreaterThan(0);
  });

  it('with PAD SPACE (utf8mb4_bin) the shorter key is compared as if padded with spaces', () => {
    expect(compareKeys('a', 'a\tb', true)).toBeGreaterThan(0);
    expect(compareKeys('a\tb', 'a', true)).toBeLessThan(0);
    expect(compareKeys('a', 'a b', true)).toBeLessThan(0);
    expect(compareKeys('a', 'a  ', true)).toBe(0);
    expect(compareKeys('a', 'a', true)).toBe(0);
  });

  it('agrees with the UTF-8 byte order SQLite compares by', () => {
    fc.assert(
      fc.property(key, key, (a, b) => sign(compareKeys(a, b, false)) === sign(utf8Order(a, b))),
      { numRuns: 5000 },
    );
  });

  it("agrees with utf8mb4_bin's order: code points after padding with spaces", () => {
    fc.assert(
      fc.property(key, key, (a, b) => sign(compareKeys(a, b, true)) === sign(padSpaceOrder(a, b))),
      { numRuns: 5000 },
    );
  });
});
