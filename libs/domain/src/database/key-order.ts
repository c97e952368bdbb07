/**
 * The order SQL gives a BinaryKeyColumn (`ORDER BY name_key`), for rows put in order in code instead: by code
 * point on every engine (SQLite's BINARY compares UTF-8 bytes, which is code point order; MySQL's and MariaDB's
 * utf8mb4_bin compares code points). utf8mb4_bin is also a PAD SPACE collation: the shorter of two keys is
 * compared as if padded with spaces, so `a` sorts after `a<TAB>b` there (TAB is below the space) and before it
 * on SQLite. `padSpace` says which of the two the engine does.
 */
export function compareKeys(a: string, b: string, padSpace: boolean): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  if (a.length === b.length) return 0;
  if (!padSpace) return a.length - b.length;
  // The rest of the longer key against the spaces the shorter one is padded with.
  const [longer, sign] = a.length > b.length ? [a, 1] : [b, -1];
  for (let i = shorter; i < longer.length; i++) {
    const code = longer.charCodeAt(i);
    if (code !== SPACE) return code > SPACE ? sign : -sign;
  }
  return 0;
}

const SPACE = 0x20;

/**
 * A UTF-16 code unit ranked so that comparing ranks compares code points: surrogates (the halves of code points
 * above U+FFFF) rank above U+E000-U+FFFF, which JavaScript's `<` puts after them.
 */
function inCodePointOrder(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
