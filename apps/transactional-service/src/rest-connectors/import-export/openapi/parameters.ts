import { CLIENT_MANAGED_HEADERS, HTTP_TOKEN, LIMITS, ROUTING_HEADERS } from '@app/domain';
import { ImportSourceError, ImportWarning } from '../connector-draft';
import { JsonRecord, arrayOrEmpty, isRecord } from './values';
import { warning } from './warnings';

/** The connector's variable names (docs/api-contract.md, "Connector test runs"). */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,63}$/;
/** Headers a connector sets from its own settings; OpenAPI, too, says parameters of these names are ignored. */
const HEADERS_FROM_SETTINGS = new Set(['authorization', 'accept', 'content-type']);
const MAX_HEADER_VALUE = 8192;

export interface ParametersPart {
  /** The path template with `{name}` as `{{name}}`, and the required query parameters appended. */
  pathAndQuery: string;
  headers: Array<{ header: string; value: string }>;
}

export interface ApiKeyPlace {
  in: 'header' | 'query';
  name: string;
}

interface Parameter {
  name: string;
  in: string;
  required: boolean;
  /** A value the schema allows alone (`const`, or an `enum` of one): sent as it is instead of a variable. */
  fixed?: string;
}

/**
 * Path parameters become `{{variables}}`; required query and header parameters too (or their fixed value); optional
 * ones are left out and named in a warning: a variable the caller must fill at every test run for a parameter the API
 * does not need would be a burden, and no value is the API's own default.
 */
export function parametersOf(
  path: string,
  pathItem: JsonRecord,
  operation: JsonRecord,
  apiKey: ApiKeyPlace | undefined,
  where: string,
  warnings: ImportWarning[],
): ParametersPart {
  // The API key's own parameter, when the document declares it too, is the auth settings' to send.
  const parameters = mergedParameters(pathItem, operation).filter((parameter) => !isApiKey(parameter, apiKey));
  const variableOf = variableNamer(where, warnings);
  const pathPart = path
    .split(/\{([^{}]+)\}/)
    .map((part, index) => (index % 2 === 1 ? `{{${variableOf(part)}}}` : encodePathPart(part)))
    .join('');
  const query: string[] = [];
  const headers: Array<{ header: string; value: string }> = [];
  const leftOut: string[] = [];
  for (const parameter of parameters) {
    if (parameter.in === 'path') continue;
    if (!parameter.required && (parameter.in === 'query' || parameter.in === 'header')) leftOut.push(`${parameter.name} (${parameter.in})`);
    else if (parameter.in === 'query')
      query.push(
        `${encodeQueryPart(parameter.name)}=${parameter.fixed !== undefined ? encodeQueryPart(parameter.fixed) : `{{${variableOf(parameter.name)}}}`}`,
      );
    else if (parameter.in === 'header') addHeader(parameter, headers, variableOf, where, warnings);
    else if (parameter.in === 'cookie')
      warnings.push(warning('COOKIE_PARAMETER', where, `the cookie parameter ${parameter.name} is left out: connectors send no cookies`));
    else warnings.push(warning('UNKNOWN_PARAMETER_LOCATION', where, `the parameter ${parameter.name} in ${parameter.in} is left out`));
  }
  if (leftOut.length)
    warnings.push(
      warning('OPTIONAL_PARAMETERS_LEFT_OUT', where, `optional parameters left out (add them to the URL or headers if needed): ${leftOut.join(', ')}`),
    );
  const separator = pathPart.includes('?') ? '&' : '?';
  return { pathAndQuery: query.length ? `${pathPart}${separator}${query.join('&')}` : pathPart, headers };
}

function isApiKey(parameter: Parameter, apiKey: ApiKeyPlace | undefined): boolean {
  if (!apiKey || parameter.in !== apiKey.in) return false;
  return apiKey.in === 'header' ? parameter.name.toLowerCase() === apiKey.name.toLowerCase() : parameter.name === apiKey.name;
}

/** Path-level parameters, overridden by the operation's own of the same name and location. */
function mergedParameters(pathItem: JsonRecord, operation: JsonRecord): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...arrayOrEmpty(pathItem.parameters), ...arrayOrEmpty(operation.parameters)]) {
    const parameter = parameterOf(raw);
    if (parameter) byKey.set(`${parameter.in}\n${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

function parameterOf(raw: unknown): Parameter | undefined {
  if (!isRecord(raw) || typeof raw.name !== 'string' || typeof raw.in !== 'string') return undefined;
  // OpenAPI 3 puts the type in `schema`; Swagger 2 on the parameter itself.
  const schema = isRecord(raw.schema) ? raw.schema : raw;
  return { name: raw.name, in: raw.in, required: raw.required === true || raw.in === 'path', fixed: fixedValue(schema) };
}

function fixedValue(schema: JsonRecord): string | undefined {
  const values = 'const' in schema ? [schema.const] : arrayOrEmpty(schema.enum);
  const [only] = values;
  return values.length === 1 && ['string', 'number', 'boolean'].includes(typeof only) ? String(only) : undefined;
}

function addHeader(
  parameter: Parameter,
  headers: Array<{ header: string; value: string }>,
  variableOf: (name: string) => string,
  where: string,
  warnings: ImportWarning[],
): void {
  const { name, fixed } = parameter;
  const lower = name.toLowerCase();
  // A fixed Accept is an explicit value (an exported connector's headers come back this way). A Content-Type
  // parameter is ignored, as OpenAPI says: the request body's media type is the one sent.
  const reason = headerProblem(name, lower === 'authorization' || lower === 'content-type' || (HEADERS_FROM_SETTINGS.has(lower) && fixed === undefined));
  if (reason) {
    warnings.push(warning('HEADER_PARAMETER_IGNORED', where, `the header parameter ${name.slice(0, 100)} is left out: ${reason}`));
    return;
  }
  const value = fixed ?? `{{${variableOf(name)}}}`;
  if (/[\r\n\0]/.test(value) || value.length > MAX_HEADER_VALUE) {
    throw new ImportSourceError(
      where,
      `the header parameter ${name} has a fixed value with a line break, a NUL or over ${MAX_HEADER_VALUE} characters: a header cannot carry it`,
    );
  }
  headers.push({ header: name, value });
}

/** Why a header parameter cannot be a connector header (the service's rules), or undefined. */
function headerProblem(name: string, setBySettings: boolean): string | undefined {
  const lower = name.toLowerCase();
  if (!HTTP_TOKEN.test(name) || name.length > LIMITS.headerName) return 'its name is not an HTTP token';
  if (CLIENT_MANAGED_HEADERS.has(lower)) return 'the HTTP client sets it itself';
  // A routing header must name url's host (or is refused) when a secret goes with the call; a variable there is refused.
  if (ROUTING_HEADERS.has(lower)) return 'front ends route a call by it (its host, path, scheme or port): write it into the connector if the API needs it';
  if (!setBySettings) return undefined;
  if (lower === 'authorization') return "the connector's auth settings set Authorization";
  return lower === 'content-type'
    ? "the request body's media type is the one sent (OpenAPI ignores a Content-Type parameter)"
    : "the connector's content type sets it";
}

/** A parameter name as a variable name: invalid characters become `_` (and a warning says so). */
function variableNamer(where: string, warnings: ImportWarning[]): (name: string) => string {
  const renamed = new Set<string>();
  return (name) => {
    if (VARIABLE_NAME.test(name)) return name;
    const variable = `${/^[A-Za-z_]/.test(name) ? '' : '_'}${name.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 64);
    if (!renamed.has(name)) {
      renamed.add(name);
      warnings.push(
        warning('VARIABLE_RENAMED', where, `the parameter ${name.slice(0, 100)} is the variable {{${variable}}}: a variable name is letters, digits, _ . -`),
      );
    }
    return variable;
  };
}

/** White space, `?` and `#` cannot stand in a URL's path as they are (the connector URL allows no white space). */
function encodePathPart(text: string): string {
  return text.replace(/[\s?#]/gu, (character) => encodeURIComponent(character));
}

/**
 * Percent-encodes what a query name or value cannot hold as it is (space, `&`, `=`, `#`, `+`, `%`, non-ASCII, control
 * characters) and keeps the rest readable, `{{variables}}` included.
 */
export function encodeQueryPart(text: string): string {
  return text.replace(/[^A-Za-z0-9\-._~!$'()*,;:@/?{}[\]|^`]/gu, (character) => encodeURIComponent(character));
}
