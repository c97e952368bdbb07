import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, MaxLength, Min, validate, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { cacheValidationMetadata } from './validation-metadata-cache';

/** A base class, a nested class and a subclass with rules of each kind; new classes on every call. */
function classes() {
  class Base {
    @IsString()
    name: unknown;
  }

  class Item {
    @IsInt()
    @Min(1)
    count: unknown;
  }

  class Derived extends Base {
    @MaxLength(3)
    code: unknown;

    @ValidateNested({ each: true })
    @Type(() => Item)
    items: unknown;
  }

  return {
    Base,
    Derived,
    item: (count: unknown) => Object.assign(new Item(), { count }),
    derived: (name: unknown, code: unknown, items: Item[]) => Object.assign(new Derived(), { name, code, items }),
  };
}

const { Derived, item, derived } = classes();

/** The failing constraints, by property path, as class-validator reports them. */
async function failures(object: object): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  const walk = (errors: Awaited<ReturnType<typeof validate>>, parent: string) => {
    for (const error of errors) {
      const path = parent ? `${parent}.${error.property}` : error.property;
      if (error.constraints) out[path] = Object.keys(error.constraints).sort();
      walk(error.children ?? [], path);
    }
  };
  walk(await validate(object, { forbidUnknownValues: true }), '');
  return out;
}

describe('cacheValidationMetadata', () => {
  const storage = getMetadataStorage();
  let uncached: Record<string, Record<string, string[]>>;
  const cases = () => ({
    valid: derived('a', 'abc', [item(1), item(2)]),
    inherited: derived(42, 'abc', [item(1)]),
    own: derived('a', 'abcd', []),
    nested: derived('a', 'ab', [item(0), item('x')]),
  });

  beforeAll(async () => {
    uncached = {};
    for (const [name, object] of Object.entries(cases())) uncached[name] = await failures(object);
    cacheValidationMetadata();
  });

  it('validates exactly as class-validator does without it: own, inherited and nested rules', async () => {
    for (const [name, object] of Object.entries(cases())) {
      await expect(failures(object)).resolves.toEqual(uncached[name]);
    }
    expect(uncached.valid).toEqual({});
    expect(uncached.inherited).toEqual({ name: ['isString'] });
    expect(uncached.own).toEqual({ code: ['maxLength'] });
    expect(uncached.nested).toEqual({ 'items.0.count': ['min'], 'items.1.count': ['isInt', 'min'] });
  });

  it("resolves a class's rules once, and groups them once", () => {
    const first = storage.getTargetValidationMetadatas(Derived, '', false, false);
    const second = storage.getTargetValidationMetadatas(Derived, '', false, false);

    expect(second).toBe(first);
    expect(storage.groupByPropertyName(second)).toBe(storage.groupByPropertyName(first));
    expect(Object.keys(storage.groupByPropertyName(first)).sort()).toEqual(['code', 'items', 'name']);
  });

  it('keeps lookups with different options apart', () => {
    const plain = storage.getTargetValidationMetadatas(Derived, '', false, false);
    const grouped = storage.getTargetValidationMetadatas(Derived, '', false, false, ['admin']);

    expect(grouped).not.toBe(plain);
    expect(grouped).toEqual([]);
  });

  // Each of these changes classes of its own, so that it holds run alone or in any order.
  it('sees a rule added to a class after its first validation', async () => {
    const own = classes();
    await expect(failures(own.derived('a', 'abc', []))).resolves.toEqual({});

    // What a decorator does when a class is defined, done by hand to a class already validated.
    IsInt()(own.Derived.prototype, 'late');

    await expect(failures(Object.assign(own.derived('a', 'abc', []), { late: 'no' }))).resolves.toEqual({ late: ['isInt'] });
  });

  it("sees a rule added to a base class after its subclass's first validation", async () => {
    const own = classes();
    await expect(failures(own.derived('abc', 'abc', []))).resolves.toEqual({});

    MaxLength(2)(own.Base.prototype, 'name');

    await expect(failures(own.derived('abc', 'abc', []))).resolves.toEqual({ name: ['maxLength'] });
  });

  it('resolves a subclass defined later on its own', async () => {
    const own = classes();
    await expect(failures(own.derived('a', 'abc', []))).resolves.toEqual({});

    class Later extends own.Derived {
      @IsInt()
      extra: unknown;
    }
    const later = Object.assign(new Later(), { name: 7, code: 'abc', items: [], extra: 'no' });

    await expect(failures(later)).resolves.toEqual({ name: ['isString'], extra: ['isInt'] });
    await expect(failures(own.derived('a', 'abc', []))).resolves.toEqual({});
  });

  it('patches the storage once, however often it is called', () => {
    const lookup = storage.getTargetValidationMetadatas;
    cacheValidationMetadata();

    expect(storage.getTargetValidationMetadatas).toBe(lookup);
  });
});
