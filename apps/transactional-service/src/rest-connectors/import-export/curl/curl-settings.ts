import { textProblem } from '@app/domain';
import { ImportSourceError, ImportWarning } from '../connector-draft';
import { ImportWarnings } from '../import-warnings';
import { leadingName } from '../quoted-list';
import { CurlOption } from './curl-arguments';

/** A header as written with -H (or made by -A, -e, -b): name and value split at the first colon. */
export interface WrittenHeader {
  header: string;
  value: string;
  line: number;
}

/** What one request group's options say, once (each URL of the group shares it). */
export interface CurlSettings {
  method?: CurlOption;
  get: boolean;
  head: boolean;
  globoff: boolean;
  protoDefault?: string;
  headers: WrittenHeader[];
  /** -d and its kin, --json, -F, --url-query, -T, in the order written. */
  payload: CurlOption[];
  user?: CurlOption;
  oauth2Bearer?: CurlOption;
  /** --digest, --ntlm, … : curl would answer a challenge with them rather than send Basic. */
  otherAuthSchemes: CurlOption[];
}

const PAYLOAD = new Set(['data', 'data-ascii', 'data-binary', 'data-raw', 'data-urlencode', 'json', 'form', 'form-string', 'url-query', 'upload-file']);
const OTHER_AUTH_SCHEMES = new Set(['digest', 'ntlm', 'ntlm-wb', 'negotiate', 'anyauth', 'aws-sigv4', 'kerberos', 'delegation', 'sasl-authzid']);
const SWITCHES = { get: 'get', head: 'head', globoff: 'globoff' } as const;

/**
 * The options of a group sorted by what they mean for a connector. Every option this importer does not carry is a
 * warning naming it: curl's transport and output switches (-s, -v, -L, -k, --compressed, -o, timeouts, proxies, TLS)
 * change how curl sends or shows the call, not the call, and a connector has no setting for them.
 */
export function readSettings(options: CurlOption[], warnings: ImportWarnings): CurlSettings {
  const settings: CurlSettings = { get: false, head: false, globoff: false, headers: [], payload: [], otherAuthSchemes: [] };
  for (const option of options) {
    if (!readOption(settings, option, warnings)) warnings.push(ignored(option));
  }
  return settings;
}

/** Reads one option into `settings`; false when the connector has nothing for it. */
function readOption(settings: CurlSettings, option: CurlOption, warnings: ImportWarnings): boolean {
  const { name, value } = option;
  if (Object.hasOwn(SWITCHES, name)) settings[SWITCHES[name as keyof typeof SWITCHES]] = !option.negated;
  else if (name === 'request') settings.method = option;
  else if (name === 'proto-default') settings.protoDefault = value;
  else if (PAYLOAD.has(name)) settings.payload.push(option);
  else if (name === 'user') settings.user = option;
  else if (name === 'oauth2-bearer') settings.oauth2Bearer = option;
  else if (name === 'basic') return true;
  else if (OTHER_AUTH_SCHEMES.has(name)) settings.otherAuthSchemes.push(option);
  else return readHeaderOption(settings, option, warnings);
  return true;
}

function readHeaderOption(settings: CurlSettings, option: CurlOption, warnings: ImportWarnings): boolean {
  const value = option.value ?? '';
  if (option.name === 'header') settings.headers.push(...headerOf(option, warnings));
  else if (option.name === 'user-agent') settings.headers.push({ header: 'User-Agent', value, line: option.line });
  // `;auto` asks curl to set the Referer itself when it follows a redirect.
  else if (option.name === 'referer') settings.headers.push({ header: 'Referer', value: value.replace(/;auto$/, ''), line: option.line });
  else if (option.name === 'cookie') settings.headers.push(...cookieOf(option, warnings));
  else return false;
  return true;
}

/**
 * `-H 'Name: value'` sends the header; `-H 'Name;'` sends it empty; `-H 'Name:'` stops curl sending a header of its own
 * (nothing for a connector); `-H @file` reads headers from a file, which an import never does.
 */
function headerOf(option: CurlOption, warnings: ImportWarnings): WrittenHeader[] {
  const text = option.value ?? '';
  const where = `line ${option.line}, ${option.written}`;
  if (text.startsWith('@')) {
    warnings.push(fileNotRead(option, `${option.written} ${text.slice(0, 60)} reads headers from a file`));
    return [];
  }
  const colon = text.indexOf(':');
  if (colon < 0) {
    if (/^[^;]+;\s*$/.test(text)) return [{ header: text.slice(0, text.indexOf(';')).trim(), value: '', line: option.line }];
    // Not quoted back: a header written without its colon may well be a credential.
    warnings.push({
      code: 'HEADER_SKIPPED',
      where,
      message: `${option.written} has no colon (Name: value): curl sends no such header, and neither does the connector.`,
    });
    return [];
  }
  const header = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  // Checked before the auth settings take a credential from it: a secret with a line break in it is no header value.
  const problem = textProblem(value, true);
  if (problem !== undefined) throw new ImportSourceError(where, `the header value ${problem}: HTTP cannot carry it`);
  if (value === '') {
    warnings.push({
      code: 'HEADER_SKIPPED',
      where,
      message: `${option.written} "${leadingName(header)}:" only stops curl sending a header of its own: the connector has none to stop.`,
    });
    return [];
  }
  return [{ header, value, line: option.line }];
}

/** `-b 'a=1; b=2'` sends cookies; `-b file` (no `=`) reads a cookie file. */
function cookieOf(option: CurlOption, warnings: ImportWarnings): WrittenHeader[] {
  const value = option.value ?? '';
  if (value.includes('=')) return [{ header: 'Cookie', value, line: option.line }];
  // Not quoted: a cookie given without its name may well be a session token.
  warnings.push(fileNotRead(option, `${option.written} without name=value reads cookies from the file it names`));
  return [];
}

export function fileNotRead(option: CurlOption, what: string): ImportWarning {
  return { code: 'FILE_NOT_READ', where: `line ${option.line}, ${option.written}`, message: `${what}: an import never reads a file; that part is left out.` };
}

function ignored(option: CurlOption): ImportWarning {
  if (option.name === 'config') return fileNotRead(option, `${option.written} ${(option.value ?? '').slice(0, 60)} reads more options from a file`);
  const long = option.written.startsWith('--') ? '' : ` (--${option.name})`;
  return {
    code: 'IGNORED_OPTION',
    where: `line ${option.line}, ${option.written}`,
    message: `${option.written}${long} changes how curl sends, follows or shows the call, not the call: a connector has no such setting; ignored.`,
  };
}
