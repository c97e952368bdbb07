import { parseSource } from './parse-source';

describe(parseSource.name, () => {
  it("reads YAML 1.2's core schema: a date, yes/no and an octal-looking number stay what YAML 1.2 makes them", () => {
    expect(parseSource('openapi: 3.1.0\nx: 2024-01-01\ny: yes\nz: 0o17\nw: "012"\n')).toEqual({
      openapi: '3.1.0',
      x: '2024-01-01',
      y: 'yes',
      z: 15,
      w: '012',
    });
  });

  it('keeps __proto__ as a key of the data, without touching any prototype', () => {
    const parsed = parseSource('openapi: 3.1.0\n__proto__:\n  polluted: true\n');

    expect(Object.keys(parsed)).toEqual(['openapi', '__proto__']);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses a key twice in one mapping, naming its line, whichever reader read it', () => {
    expect(() => parseSource('openapi: 3.1.0\npaths: {}\npaths: {}\n')).toThrow('source line 3: has the key "paths" twice in one mapping: keep one');
  });

  it('reads anchors and aliases within their limit, and refuses an alias bomb', () => {
    expect(parseSource('openapi: 3.1.0\na: &shared {k: v}\nb: *shared\n')).toEqual({ openapi: '3.1.0', a: { k: 'v' }, b: { k: 'v' } });
    const bomb = ['openapi: 3.1.0', 'a0: &a0 [x, x]', ...Array.from({ length: 30 }, (_, i) => `a${i + 1}: &a${i + 1} [*a${i}, *a${i}, *a${i}]`)].join('\n');
    expect(() => parseSource(bomb)).toThrow('source document: cannot be read: Excessive alias count indicates a resource exhaustion attack');
  });
});
