import { DEMO_USER_CLAIMS } from '@app/platform';
import { parseTokenOptions, TokenOptionsError } from './token-options';

const ACME = '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01';
const GLOBEX = '4fad806c-5b5e-4ec2-9e7c-9d5dafdb6e05';

function claimsOf(args: string[]) {
  const request = parseTokenOptions(args);
  if (request.help) throw new Error('expected claims, got --help');
  return request.claims;
}

function refusalOf(args: string[]): string {
  try {
    parseTokenOptions(args);
  } catch (error) {
    expect(error).toBeInstanceOf(TokenOptionsError);
    return (error as Error).message;
  }
  throw new Error(`expected ${args.join(' ')} to be refused`);
}

describe(parseTokenOptions.name, () => {
  it("answers the demo user's claims without options", () => {
    expect(claimsOf([])).toEqual(DEMO_USER_CLAIMS);
  });

  it('maps --user to the sub and username claims', () => {
    expect(claimsOf(['--user', ' Ada Lovelace '])).toEqual({ ...DEMO_USER_CLAIMS, sub: 'Ada Lovelace', username: 'Ada Lovelace' });
  });

  it('maps --orgs to the orgs claim: uuids lower-cased, each once, or * alone', () => {
    expect(claimsOf(['--orgs', `${ACME.toUpperCase()}, ${GLOBEX},${ACME}`]).orgs).toEqual([ACME, GLOBEX]);
    expect(claimsOf(['--orgs=*']).orgs).toEqual(['*']);
  });

  it("maps --scope to the scope claim, space- or comma-separated, and '' to a read-only token", () => {
    expect(claimsOf(['--scope', 'connectors:write']).scope).toBe('connectors:write');
    expect(claimsOf(['--scope', 'connectors:write, connectors:write']).scope).toBe('connectors:write');
    expect(claimsOf(['--scope', '']).scope).toBe('');
    expect(claimsOf(['--scope=']).scope).toBe('');
  });

  it('answers help for --help and -h, whatever else is given', () => {
    expect(parseTokenOptions(['--help'])).toEqual({ help: true });
    expect(parseTokenOptions(['--orgs', 'nonsense', '-h'])).toEqual({ help: true });
  });

  it('refuses what is not a uuid in --orgs, naming it and showing one', () => {
    expect(refusalOf(['--orgs', `${ACME},acme`])).toBe(
      '--orgs: "acme" is not an organization uuid (such as 0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01), nor * for every organization',
    );
  });

  it('refuses * beside uuids, and an empty --orgs', () => {
    expect(refusalOf(['--orgs', `*,${ACME}`])).toBe('--orgs: * already means every organization; give it alone');
    expect(refusalOf(['--orgs', ' , '])).toBe('--orgs must name organizations: comma-separated uuids, or * for every organization');
  });

  it('refuses a scope the platform does not check (a typo would make a read-only token without a word)', () => {
    expect(refusalOf(['--scope', 'connector:write'])).toBe(
      `--scope: "connector:write" is not a scope the platform checks: connectors:write, or '' for a read-only token`,
    );
  });

  it('refuses a blank --user, control characters, and a name longer than the platform records', () => {
    expect(refusalOf(['--user', '  '])).toBe('--user must name someone (e.g. --user alice)');
    expect(refusalOf(['--user', 'al\nice'])).toBe('--user must not hold control characters');
    expect(refusalOf(['--user', 'a'.repeat(256)])).toBe('--user must be at most 255 characters (got 256)');
  });

  it('refuses an unknown option, a missing value and an option given twice', () => {
    expect(refusalOf(['--org', ACME])).toBe('unknown option "--org": the options are --user, --orgs, --scope and --help');
    expect(refusalOf(['--user'])).toBe('--user needs a value');
    expect(refusalOf(['--user', '--orgs', ACME])).toBe('--user needs a value');
    expect(refusalOf(['--user', 'a', '--user=b'])).toBe('--user is given twice: give it once');
  });
});
