import { RequestType } from '@app/domain';

/** The longest operationId an export writes: generated clients name a method after it. */
const MAX_OPERATION_ID = 64;
/** A name as the importers make one (`POST api.example.com/v1/users`): the method, then a host and a path. */
const METHOD_AND_URL = new RegExp(`^(${Object.values(RequestType).join('|')}) +[^/ ]*(/\\S*)?$`);
/** A path segment that names nothing a reader picks a method by: a variable, a version (`v2`, `2010-04-01`), a number. */
const NO_NAME = /^(?:\{\{.*\}\}|v?[0-9][0-9._-]*)$/i;

/**
 * A connector name as an OpenAPI operationId that client generators take as a method name as it is: its words (runs
 * of ASCII letters and digits, accents dropped, `{{variables}}` left out) in camelCase, `Create CRM lead` as
 * `createCrmLead`. A name as the importers make one, `METHOD host/path`, gives the method and the path's named
 * segments, without host, variables, versions and extensions: `POST 127.0.0.2:8099/2010-04-01/Accounts/{{Sid}}/Messages.json`
 * is `postAccountsMessages`. At most 64 characters, starting with a letter (`op` before a leading digit),
 * `callConnector` when no word is left. An export holds one operation, so the name alone makes it unique.
 */
export function operationIdOf(name: string): string {
  const words = wordsOf(namedPart(name));
  const camel = words.map((word, index) => (index === 0 ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase())).join('');
  if (camel === '') return 'callConnector';
  return (/^[0-9]/.test(camel) ? `op${camel}` : camel).slice(0, MAX_OPERATION_ID);
}

/** The text whose words make the id: for `METHOD host/path`, the method and the path's named segments. */
function namedPart(name: string): string {
  const match = METHOD_AND_URL.exec(name.replace(/…$/, ''));
  if (!match) return name.replace(/\{\{[^{}]*\}\}/g, ' ');
  const segments = (match[2] ?? '')
    .replace(/[?#].*$/, '')
    .split('/')
    .map((segment) => segment.replace(/\.[A-Za-z0-9]+$/, ''))
    .filter((segment) => segment !== '' && !NO_NAME.test(segment));
  return [match[1], ...segments].join(' ');
}

function wordsOf(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
}
