import {
  CLIENT_MANAGED_HEADERS,
  ENV_PREFIX,
  envVariableOf,
  ESCAPED_PLACEHOLDER,
  fillPlaceholders,
  InvalidInputError,
  isHttpUrlWithPlaceholders,
  isSingleLine,
  multipartBody,
  MultipartPart,
  PLACEHOLDER,
  readMultipartParts,
  TEMPLATE,
} from '@app/domain';
import { ConnectorEnvironment, NO_ENVIRONMENT, SET_VARIABLES_WITH } from '../env-destinations';

export type Variables = Readonly<Record<string, string>>;

export interface Header {
  header: string;
  value: string;
  /** A secret header: its value is sent as written (no variable is filled in it) and shown as its placeholder. */
  secret?: boolean;
}

/** The parts of a connector that placeholders may stand in. */
export interface Template {
  url: string;
  /** The OAuth 2.0 token endpoint, filled as `url` is. */
  oauthUrl?: string | null;
  headers: readonly Header[];
  body: string;
}

/** A template filled in, and the variables that stood nowhere in it. */
export interface Filled extends Template {
  oauthUrl: string | null;
  /** A multipart body's parts, each text value filled (`body` is then their JSON text). */
  parts?: MultipartPart[];
  unused: string[];
}

/**
 * The environment of a test run (the path's): the write rules' view of it (plain values, secret variables and where
 * each is bound, those without a value), and the value of each variable for this run only: a plain one's as stored, a
 * secret one's unsealed (a secret one without a value has none).
 */
export interface RunEnvironment extends ConnectorEnvironment {
  filled: ReadonlyMap<string, string>;
}

/** No variables: every `{{env.NAME}}` undefined. */
export const NO_RUN_ENVIRONMENT: RunEnvironment = { ...NO_ENVIRONMENT, filled: new Map() };

/** How fillTemplate fills: with every value, or as the answer shows the call (no check: the filled template passed them). */
export interface FillOptions {
  bodyEncoding?: BodyEncoding;
  env?: RunEnvironment;
  /** False for the call as shown: each secret variable's value is its placeholder there, and nothing is checked again. */
  checked?: boolean;
}

/** What a secret connector variable is shown as where a test run's answer shows the call. */
export const secretVariablePlaceholder = (name: string) => `<SECRET:${ENV_PREFIX}${name}>`;

/** The names of the placeholders a text holds, each once, in order. */
export function placeholdersIn(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map(([, name]) => name))];
}

/** What a header value may hold on the wire (RFC 9110 field-value: visible ASCII, obs-text, space and tab). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function fill(text: string, variables: Variables, encode: (value: string, name: string) => string = (value) => value): string {
  return fillPlaceholders(text, (name) => encode(variables[name], name));
}

/** How a URL holds a value: a connector variable's as written (it may be a base URL), a caller's percent-encoded. */
const inUrl = (value: string, name: string) => (envVariableOf(name) === null ? encodeURIComponent(value) : value);

/**
 * A 400's words for what the environment lacks: an `{{env.NAME}}` it does not define, or a secret one without a value.
 */
function undefinedEnvProblem(variable: string, env: RunEnvironment): string {
  return env.withoutValue.has(variable)
    ? `{{env.${variable}}} is a secret connector variable without a value (its destination moved): send its value again with ${SET_VARIABLES_WITH}`
    : `{{env.${variable}}} appears in the connector, and its environment defines no ${variable}: define it with ${SET_VARIABLES_WITH}`;
}

/**
 * The most a filled part may hold (UTF-16 units): the URL room for a variable of the longest kind percent-encoded
 * (8 KiB of UTF-8 is up to 24 KiB so) and more, a header value as a connector may store one, the body twice
 * what a connector may store. A placeholder repeated with a long value could otherwise make a 64 KiB body 100 MB,
 * built and sent on the app's main thread; and 50 runs in flight each hold their body (and show it back).
 */
export const FILLED_LIMITS = { url: 64 * 1024, headerValue: 8 * 1024, body: 128 * 1024 } as const;

/** How long `text` is once filled (each value as `encode` writes it, or the longer of both for a JSON body), without filling it. */
function filledLength(text: string, lengths: ReadonlyMap<string, number>): number {
  let length = text.length;
  for (const [placeholder, name] of text.matchAll(PLACEHOLDER)) length += (lengths.get(name) ?? 0) - placeholder.length;
  return length;
}

/** A JSON string's content for `value`: what JSON.stringify writes between the quotes. */
const inJsonString = (value: string) => JSON.stringify(value).slice(1, -1);

/**
 * `value` as the WHATWG application/x-www-form-urlencoded serializer writes a name or a value (URLSearchParams,
 * browsers, newman): its UTF-8 bytes, space as `+`, every byte but ASCII letters, digits and `*-._` as `%XX`.
 */
export const formEncoded = (value: string) => new URLSearchParams([['', value]]).toString().slice(1);

/**
 * How the body's variables are written: `json` JSON-escaped inside the body's strings (fillJson), `form` form-encoded
 * wherever they stand (a name or a value of an application/x-www-form-urlencoded body), `text` as they are,
 * `multipart` as they are in the text values of a multipart body's parts (and nowhere else of it).
 */
export type BodyEncoding = 'json' | 'form' | 'text' | 'multipart';

/**
 * A JSON body's placeholders filled: JSON-escaped where they stand inside a string (so a value with a quote or a
 * backslash stays one string), as written elsewhere (so `{"n": {{count}}}` can send a number).
 */
export function fillJson(text: string, variables: Variables): string {
  const placeholder = new RegExp(TEMPLATE.source, 'y');
  let filled = '';
  let inString = false;
  for (let i = 0; i < text.length;) {
    placeholder.lastIndex = i;
    const found = placeholder.exec(text);
    if (found) {
      // An escaped placeholder is the text it stands for; a placeholder, its variable's value.
      const value = found[1] ?? variables[found[2]];
      filled += inString && found[1] === undefined ? inJsonString(value) : value;
      i = placeholder.lastIndex;
    } else if (inString && text[i] === '\\') {
      filled += text.slice(i, i + 2);
      i += 2;
    } else {
      if (text[i] === '"') inString = !inString;
      filled += text[i++];
    }
  }
  return filled;
}

/** The options of fillTemplate, each set (a body encoding alone for the others' defaults). */
function fillOptions(options: FillOptions | BodyEncoding): Required<FillOptions> {
  const given = typeof options === 'string' ? { bodyEncoding: options } : options;
  return { bodyEncoding: 'text', env: NO_RUN_ENVIRONMENT, checked: true, ...given };
}

/**
 * The values of the placeholders a template holds (`used`), by placeholder name: the caller's variables as given, the
 * environment's `env.NAME` from `env`. A 400 lists a caller's variable named `env.*` (those are the environment's),
 * and then every placeholder without a value.
 */
function variablesOf(used: ReadonlySet<string>, callerVariables: Variables, env: RunEnvironment): Variables {
  const envNames = Object.keys(callerVariables).filter((name) => envVariableOf(name) !== null);
  if (envNames.length > 0) {
    throw new InvalidInputError(
      envNames.map(
        (name) => `variables.${name} cannot be given: ${ENV_PREFIX}* names are the connector variables of the environment, set with ${SET_VARIABLES_WITH}`,
      ),
    );
  }
  const problems: string[] = [];
  const fromEnv: Array<[string, string]> = [];
  for (const name of used) {
    const variable = envVariableOf(name);
    const value = variable === null ? undefined : env.filled.get(variable);
    if (variable === null && !Object.hasOwn(callerVariables, name)) problems.push(`variables.${name} is missing: {{${name}}} appears in the connector`);
    else if (variable !== null && value === undefined) problems.push(undefinedEnvProblem(variable, env));
    else if (value !== undefined) fromEnv.push([name, value]);
  }
  if (problems.length > 0) throw new InvalidInputError(problems);
  return { ...callerVariables, ...Object.fromEntries(fromEnv) };
}

/**
 * Fills every `{{name}}` of the url and the oauthUrl (percent-encoded there), of the header values and of the body (as
 * `bodyEncoding` says: JSON-escaped inside a JSON body's strings, form-encoded in a form body; the body's own text is
 * the connector's, sent as written); a secret header's value is sent as written. A 400 lists every problem at once: a placeholder without a
 * variable, a header value that would hold CR, LF or NUL or another character a header cannot carry, a header the
 * HTTP client sets itself, a URL that is no longer an absolute http(s) URL once filled, a JSON body that is no
 * longer JSON. Nothing is sent then. The variables that stand nowhere are named in `unused`. Each `{{env.NAME}}` is the
 * environment's variable (`env`): in a URL as written (a base URL may be the scheme, host, port and path), elsewhere
 * as a caller's variable is; a caller's variable named `env.*`, and an `{{env.NAME}}` without a value, are 400s first.
 */
export function fillTemplate(template: Template, callerVariables: Variables, options: FillOptions | BodyEncoding = {}): Filled {
  const { bodyEncoding, env, checked } = fillOptions(options);
  const urls = { url: template.url, ...(template.oauthUrl && { oauthUrl: template.oauthUrl }) };
  const parts = bodyEncoding === 'multipart' ? partsOf(template.body) : undefined;
  // A multipart body's placeholders stand in its parts' values only; NUL, which no value holds, keeps them apart.
  const bodyText = parts ? parts.map(({ value }) => value ?? '').join('\0') : template.body;
  const templated = template.headers.filter(({ secret }) => secret !== true);
  const used = new Set([...Object.values(urls), bodyText, ...templated.map((header) => header.value)].flatMap(placeholdersIn));
  const variables = variablesOf(used, callerVariables, env);
  const problems: string[] = [];
  // Sizes first, from each value's length once encoded: nothing large is built before it is known to fit.
  const names = Object.keys(variables).filter((name) => used.has(name));
  const raw = new Map(names.map((name) => [name, variables[name].length]));
  const tooLong = (part: string, text: string, lengths: ReadonlyMap<string, number>, limit: number) => {
    const length = filledLength(text, lengths);
    if (length > limit) problems.push(`${part} would be ${length} characters once its variables are filled in: a test run sends at most ${limit}`);
    return length > limit;
  };
  const encoded = new Map(names.map((name) => [name, inUrl(variables[name], name).length]));
  const inBody = { json: inJsonString, form: formEncoded, text: undefined, multipart: undefined }[bodyEncoding];
  const tooLarge = [
    ...Object.entries(urls).map(([part, url]) => tooLong(part, url, encoded, FILLED_LIMITS.url)),
    ...template.headers.map(({ value }, index) => tooLong(`headers.${index}.value`, value, raw, FILLED_LIMITS.headerValue)),
    tooLong('body', bodyText, inBody ? new Map(names.map((name) => [name, inBody(variables[name]).length])) : raw, FILLED_LIMITS.body),
  ];
  if (checked && tooLarge.includes(true)) throw new InvalidInputError(problems);
  const filledUrl = (part: string, template: string) => {
    if (template.search(ESCAPED_PLACEHOLDER) !== -1) {
      problems.push(`${part} holds an escaped placeholder (\\{{…}}): in a URL, write literal braces percent-encoded (%7B%7B…%7D%7D)`);
      return template;
    }
    const url = fill(template, variables, inUrl);
    if (!isHttpUrlWithPlaceholders(url, Number.MAX_SAFE_INTEGER) || placeholdersIn(url).length > 0) {
      problems.push(`${part} is not an absolute http or https URL once its variables are filled in`);
    }
    return url;
  };
  const url = filledUrl('url', template.url);
  const oauthUrl = template.oauthUrl ? filledUrl('oauthUrl', template.oauthUrl) : null;
  let hosts = 0;
  const headers = template.headers.map(({ header, value, secret }, index) => {
    const name = header.toLowerCase();
    if (CLIENT_MANAGED_HEADERS.has(name)) problems.push(`headers.${index}.header ${header} is set by the HTTP client: a test run cannot send it`);
    if (name === 'host' && ++hosts === 2) problems.push(`headers.${index}.header Host may be sent once only`);
    // A secret header's value is the secret itself, never a template.
    if (secret === true) return { header, value, secret };
    const filled = fill(value, variables);
    // CR, LF and NUL would end the header line early.
    if (!isSingleLine(filled)) problems.push(`headers.${index}.value would hold a line break or NUL once its variables are filled in`);
    else if (!FIELD_VALUE.test(filled))
      problems.push(`headers.${index}.value holds a character an HTTP header cannot carry (only printable ASCII, Latin-1, space and tab)`);
    return { header, value: filled };
  });
  const filledParts = parts?.map((part) => (part.value === undefined ? part : { ...part, value: fill(part.value, variables) }));
  const body = filledParts ? multipartBody(filledParts) : bodyEncoding === 'json' ? fillJson(template.body, variables) : fill(template.body, variables, inBody);
  const jsonProblem = bodyEncoding === 'json' && body.trim() !== '' ? notJson(body) : null;
  if (jsonProblem)
    problems.push(
      `body is not valid JSON once its variables are filled in (${jsonProblem}): fix the body, or choose another contentType than APPLICATION_JSON`,
    );
  if (checked && problems.length > 0) throw new InvalidInputError(problems);
  const unused = Object.keys(callerVariables).filter((name) => !used.has(name));
  return { url, oauthUrl, headers, body, ...(filledParts && { parts: filledParts }), unused };
}

/** A multipart body's parts; a body that holds none is a 400 (only an unchecked connector can hold one). */
function partsOf(body: string): MultipartPart[] {
  const reading = readMultipartParts(body);
  if ('problems' in reading) throw new InvalidInputError(reading.problems);
  return reading.parts;
}

function notJson(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}
