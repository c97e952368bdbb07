import { inspect } from 'node:util';

/**
 * A fake of `type` for a unit spec, typed as the real class: each of its methods is a jest mock that throws when it
 * is called without the spec having said what it answers (`mockResolvedValue`, `mockImplementation`, …), so a
 * spec fails loudly on a call it did not expect, and a fake cannot drift from the class it stands for (immich's
 * strict automock is the model).
 */
export function strictFake<T extends object>(type: abstract new (...args: never[]) => T): jest.Mocked<T> {
  const fake: Record<string, jest.Mock> = {};
  for (let proto = type.prototype as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name in fake || typeof Object.getOwnPropertyDescriptor(proto, name)?.value !== 'function') continue;
      fake[name] = jest.fn((...args: unknown[]) => {
        throw new Error(
          `${type.name}.${name}(${args.map((arg) => inspect(arg, { depth: 1 })).join(', ')}) was called, but the spec did not say what it answers`,
        );
      });
    }
  }
  return fake as unknown as jest.Mocked<T>;
}
