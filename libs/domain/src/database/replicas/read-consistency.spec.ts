import { GtidPosition } from './gtid-position';
import { ConsistencyScope } from './read-consistency';

const position = (text: string) => GtidPosition.parse(text)!;

describe(ConsistencyScope.name, () => {
  it('requires what was sent, what the caller wrote before, and what the unit wrote itself', async () => {
    const sut = new ConsistencyScope();
    const heard: string[] = [];
    sut.onWrite(async (writes) => void heard.push(writes.toString()));
    sut.require(position('0-1-3'));
    sut.requireLast(Promise.resolve(position('0-1-5,1-1-1')));

    expect((await sut.requirement()).toString()).toBe('0-1-5,1-1-1');

    sut.written(position('0-1-9'));

    expect((await sut.requirement()).toString()).toBe('0-1-9,1-1-1');
    await sut.recorded();
    expect(heard).toEqual(['0-1-9']);
  });

  it('answers a read at once, without a promise, when nothing is being looked up', () => {
    const sut = new ConsistencyScope();
    sut.require(position('0-1-3'));

    expect(sut.requirement()).toBeInstanceOf(GtidPosition);
    expect(String(sut.requirement())).toBe('0-1-3');
  });

  it('gives every concurrent read the looked-up position, not only the first', async () => {
    const sut = new ConsistencyScope();
    let answer!: (value: GtidPosition) => void;
    sut.requireLast(new Promise((resolve) => (answer = resolve)));

    const reads = [sut.requirement(), sut.requirement()];
    answer(position('0-1-7'));

    expect((await Promise.all(reads)).map(String)).toEqual(['0-1-7', '0-1-7']);
  });

  it('sends its reads to the primary when the lookup fails or cannot tell, and records no write it did not see', async () => {
    const failed = new ConsistencyScope();
    const heard: string[] = [];
    failed.onWrite(async (writes) => void heard.push(writes.toString()));
    failed.requireLast(Promise.reject(new Error('Redis is away')));
    const unknown = new ConsistencyScope();
    unknown.requireLast(Promise.resolve('unknown'));
    const unknownNow = new ConsistencyScope();
    unknownNow.requireLast('unknown');

    expect((await failed.requirement()).isEmpty).toBe(true);
    await unknown.requirement();
    expect([failed.primaryOnly, unknown.primaryOnly, unknownNow.primaryOnly]).toEqual([true, true, true]);
    await failed.recorded();
    expect(heard).toEqual([]);
  });

  it('reads from a replica when the caller wrote nothing recently', async () => {
    const sut = new ConsistencyScope();
    sut.requireLast(Promise.resolve(GtidPosition.EMPTY));

    expect((await sut.requirement()).isEmpty).toBe(true);
    expect(sut.primaryOnly).toBe(false);
  });

  it('tells its recorder everything written so far after each write, in order, and settles once each is recorded', async () => {
    const sut = new ConsistencyScope();
    const heard: string[] = [];
    const pending: Array<() => void> = [];
    sut.onWrite((writes) => new Promise<void>((done) => pending.push(() => done(void heard.push(writes.toString())))));

    sut.written(position('0-1-4'));
    sut.written(position('1-1-2'));
    let settled = false;
    const recorded = sut.recorded().then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    pending.shift()!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    pending.shift()!();
    await recorded;

    expect(heard).toEqual(['0-1-4', '0-1-4,1-1-2']);
  });

  it('settles at once when it wrote nothing or nobody records', async () => {
    const quiet = new ConsistencyScope();
    quiet.onWrite(() => new Promise<void>(() => undefined));
    const unheard = new ConsistencyScope();
    unheard.written(position('0-1-1'));

    await expect(Promise.all([quiet.recorded(), unheard.recorded()])).resolves.toEqual([undefined, undefined]);
  });
});
