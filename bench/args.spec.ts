import { OPERATIONS, parseArgs, REPLICA_OPERATIONS } from './args';

describe('npm run bench: the command line', () => {
  let errors: string[];
  beforeEach(() => {
    errors = [];
    jest.spyOn(console, 'error').mockImplementation((message: string) => void errors.push(message));
    jest.spyOn(process, 'exit').mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
  });
  afterEach(() => jest.restoreAllMocks());

  it('measures every operation but the replica-only ones into bench/results by default, without a replica', () => {
    const args = parseArgs([]);
    expect(args).toMatchObject({ replica: false, out: 'results', scales: ['1k'], rounds: 3 });
    expect(args.ops).toEqual([...OPERATIONS]);
  });

  it('with --replica, adds get-own-write to the default operations and writes bench/results-replica unless --out says otherwise', () => {
    const args = parseArgs(['--replica']);
    expect(args).toMatchObject({ replica: true, out: 'results-replica' });
    expect(args.ops).toEqual([...OPERATIONS, ...REPLICA_OPERATIONS]);
    expect(parseArgs(['--replica', '--ops', 'get,get-own-write', '--out', 'mine'])).toMatchObject({
      replica: true,
      ops: ['get', 'get-own-write'],
      out: 'mine',
    });
  });

  it('refuses get-own-write without --replica, saying what it needs', () => {
    expect(() => parseArgs(['--ops', 'get,get-own-write'])).toThrow('exit 2');
    expect(errors.join('\n')).toContain('get-own-write needs a read replica: run it with --replica');
  });

  it('refuses --skip-seed with --replica: the pair, and so its database, is new each run', () => {
    expect(() => parseArgs(['--replica', '--skip-seed'])).toThrow('exit 2');
    expect(errors.join('\n')).toContain('--skip-seed does not go with --replica');
  });
});
