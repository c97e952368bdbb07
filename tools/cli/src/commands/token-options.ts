import { UUID_PATTERN } from '@app/domain';
import { ALL_ORGANIZATIONS, CLAIM_LIMITS, CONNECTORS_WRITE_SCOPE, DEMO_USER_CLAIMS, DevelopmentTokenClaims } from '@app/platform';

/** The scopes the platform checks: a token with another one would carry a word nothing reads. */
const KNOWN_SCOPES = [CONNECTORS_WRITE_SCOPE];

export const TOKEN_USAGE = `Usage: npm run token -- [--user <name>] [--orgs <uuid,uuid,…|*>] [--scope <scopes>]

Prints a development token (HS256, signed with the development secret beside the embedded database, data/dev-jwt-secret;
valid 30 days). Without options, the demo user's: every organization, ${CONNECTORS_WRITE_SCOPE}.

  --user <name>     who calls: the token's sub and username claims (username is what updatedBy records); default demo
  --orgs <list>     the organizations it may use: comma-separated uuids, or * for every organization; default *
  --scope <scopes>  space- or comma-separated: ${KNOWN_SCOPES.join(', ')} (create, update, delete, restore, test and import
                    connectors), or '' for a read-only token; default ${CONNECTORS_WRITE_SCOPE}
  --help            this text`;

export type TokenRequest = { help: true } | { help: false; claims: DevelopmentTokenClaims };

/** A command line `npm run token` refuses: the message says which option and how to fix it. */
export class TokenOptionsError extends Error {}

const OPTIONS = ['--user', '--orgs', '--scope'] as const;
type Option = (typeof OPTIONS)[number];

/** `npm run token`'s options, each mapped to the claim the platform reads (libs/platform/src/auth). */
export function parseTokenOptions(args: string[]): TokenRequest {
  if (args.includes('--help') || args.includes('-h')) return { help: true };
  const given = readOptions(args);
  const user = given.get('--user');
  return {
    help: false,
    claims: {
      ...(user === undefined ? { sub: DEMO_USER_CLAIMS.sub, username: DEMO_USER_CLAIMS.username } : userClaims(user)),
      orgs: given.has('--orgs') ? organizations(given.get('--orgs')!) : [...DEMO_USER_CLAIMS.orgs],
      scope: given.has('--scope') ? scopes(given.get('--scope')!) : DEMO_USER_CLAIMS.scope,
    },
  };
}

/** `--name value` and `--name=value`; a value may be empty (`--scope ''`) but not missing. */
function readOptions(args: string[]): Map<Option, string> {
  const given = new Map<Option, string>();
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = splitOnce(args[i]);
    if (!(OPTIONS as readonly string[]).includes(name)) {
      throw new TokenOptionsError(`unknown option ${JSON.stringify(args[i])}: the options are ${OPTIONS.join(', ')} and --help`);
    }
    const option = name as Option;
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith('--'))) throw new TokenOptionsError(`${option} needs a value`);
    if (given.has(option)) throw new TokenOptionsError(`${option} is given twice: give it once`);
    given.set(option, value);
  }
  return given;
}

function splitOnce(arg: string): [string, string | undefined] {
  const at = arg.indexOf('=');
  return at < 0 ? [arg, undefined] : [arg.slice(0, at), arg.slice(at + 1)];
}

/** The caller's id and name: the platform keeps at most CLAIM_LIMITS characters of each, and records the name. */
function userClaims(user: string): Pick<DevelopmentTokenClaims, 'sub' | 'username'> {
  const name = user.trim();
  if (name === '') throw new TokenOptionsError('--user must name someone (e.g. --user alice)');
  if (/[\u0000-\u001f\u007f]/.test(name)) throw new TokenOptionsError('--user must not hold control characters');
  const limit = Math.min(CLAIM_LIMITS.sub, CLAIM_LIMITS.username);
  if (name.length > limit) throw new TokenOptionsError(`--user must be at most ${limit} characters (got ${name.length})`);
  return { sub: name, username: name };
}

function organizations(list: string): string[] {
  const items = splitList(list, /,/);
  if (items.length === 0) throw new TokenOptionsError('--orgs must name organizations: comma-separated uuids, or * for every organization');
  if (items.includes(ALL_ORGANIZATIONS)) {
    if (items.length > 1) throw new TokenOptionsError('--orgs: * already means every organization; give it alone');
    return [ALL_ORGANIZATIONS];
  }
  const bad = items.filter((item) => !UUID_PATTERN.test(item));
  if (bad.length > 0) {
    throw new TokenOptionsError(
      `--orgs: ${bad.map((item) => JSON.stringify(item.slice(0, 50))).join(', ')} ${bad.length === 1 ? 'is not an organization uuid' : 'are not organization uuids'} ` +
        '(such as 0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01), nor * for every organization',
    );
  }
  return [...new Set(items.map((item) => item.toLowerCase()))];
}

function scopes(list: string): string {
  const items = [...new Set(splitList(list, /[\s,]+/))];
  const unknown = items.filter((item) => !KNOWN_SCOPES.includes(item));
  if (unknown.length > 0) {
    throw new TokenOptionsError(
      `--scope: ${unknown.map((item) => JSON.stringify(item.slice(0, 50))).join(', ')} ${unknown.length === 1 ? 'is not a scope' : 'are not scopes'} ` +
        `the platform checks: ${KNOWN_SCOPES.join(', ')}, or '' for a read-only token`,
    );
  }
  return items.join(' ');
}

function splitList(list: string, separator: RegExp): string[] {
  return list
    .split(separator)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
