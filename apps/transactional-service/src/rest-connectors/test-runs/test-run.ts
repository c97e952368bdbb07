import {
  ApiKeyIn,
  AuthType,
  ContentType,
  declaredTypeFits,
  GrantType,
  InvalidInputError,
  isSecretHeader,
  JSON_MEDIA_TYPE,
  MEDIA_TYPES,
  RequestType,
  SECRET_HEADER_PLACEHOLDER,
  SecretField,
  SECRETS,
  secretSentTo,
} from '@app/domain';
import type { Dispatcher } from 'undici';
import { destinationOf, sameDestination } from '../destination';
import { destinationIn, envDestinationProblems, SecretBinding, secretVariableBindings, secretVariableProblems } from '../env-destinations';
import { hostHeaderProblems } from '../host-header';
import { CLIENT_CREDENTIALS_PLACEHOLDER, clientCredentials, OAuthSettings, OAuthTokens, tokenRequest } from './oauth-tokens';
import { EncodedForm, encodeForm, ShownPart } from './multipart-call';
import { callOnce, OutboundRequest, OutboundResult, Outcome } from './outbound-call';
import { AnswerReader, ownBytes } from './answer/answer-reader';
import { cutAt } from './answer/cut-at';
import { RunDeadline } from './run-deadline';
import { basicTokenSecrets, SecretValue } from './secret-scrubber';
import {
  BodyEncoding,
  fillTemplate,
  Filled,
  Header,
  NO_RUN_ENVIRONMENT,
  placeholdersIn,
  RunEnvironment,
  secretVariablePlaceholder,
  Variables,
} from './variables';

/** What stands for the OAuth access token in an answer. */
export const ACCESS_TOKEN_PLACEHOLDER = '<ACCESS_TOKEN>';
/** Sent unless the connector sets its own, as every HTTP client does: some servers refuse a request without one. */
export const DEFAULT_USER_AGENT = 'bot-platform-connector-test/1.0';
/** At most this much of an answer's body, or of the request's, is returned to the caller (the whole read body is scrubbed first). */
export const MAX_RETURNED_BYTES = 64 * 1024;

/** How variables are written into a sent body, by its content type; as they are for the others. */
const BODY_ENCODINGS: Partial<Record<ContentType, BodyEncoding>> = {
  [ContentType.APPLICATION_JSON]: 'json',
  [ContentType.APPLICATION_FORM_URLENCODED]: 'form',
  [ContentType.MULTIPART_FORM_DATA]: 'multipart',
};

/** A connector as a test run needs it: its settings, and its secrets in clear for this run only. */
export interface RunnableConnector {
  /** A saved connector's uuid: its OAuth token may be kept between runs. */
  uuid?: string;
  requestType: RequestType;
  url: string;
  headers: readonly Header[];
  contentType: ContentType;
  authType: AuthType;
  grantType: GrantType | null;
  clientId: string | null;
  oauthUrl: string | null;
  authUsername: string | null;
  /** AUTH_API_KEY: the header or query parameter that carries `secrets.apiKey`. */
  apiKeyName: string | null;
  apiKeyIn: ApiKeyIn | null;
  secrets: Partial<Record<SecretField, string>>;
  /** The secrets that are stored ones the caller did not send: the run must not tell whether a text holds them. */
  kept?: SecretField[];
  /** The same for secret headers (`secret: true` in `headers`, their values in clear): their lower-cased names. */
  keptHeaders?: string[];
  body: string;
  output: string;
  /** The connector's environment (the path's): what its `{{env.NAME}}` stand for, secret ones unsealed for this run. */
  env?: RunEnvironment;
}

/** A run checked and built, not yet sent (TestRunner.prepare). */
export interface PreparedRun {
  /** The connector, its oauthUrl filled. */
  connector: RunnableConnector;
  /** The call, variables filled, without its Authorization (added when sent). */
  call: OutboundRequest;
  /**
   * The call and the oauthUrl as the answer shows them: each secret variable's value its placeholder
   * (secretVariablePlaceholder); the same as `call` when the connector uses none.
   */
  shown: { call: OutboundRequest; oauthUrl: string | null };
  /** The values of the secret variables the call sends, and what stands for each where the answer would show it. */
  secretVariables: SecretValue[];
  warnings: string[];
}

export interface TestRunResponse {
  status: number;
  headers: Header[];
  body: string;
  bodyTruncated: boolean;
  sizeBytes: number | null;
  json?: unknown;
  /** With `json`: the JSONPath of each of its values, at most 100 (output-query.ts jsonPaths). */
  jsonPaths?: string[];
  jsonPathsTruncated?: boolean;
}

export interface TestRunOutput {
  expression: string;
  values: unknown[] | null;
  valuesTruncated: boolean;
  error: string | null;
  hint: string | null;
}

export interface TestRunAnswer {
  outcome: Outcome;
  message: string | null;
  durationMs: number;
  /** `parts`: a multipart body's parts as sent (its `body` is then empty: a file's bytes are not shown). */
  request: { method: string; url: string; headers: Header[]; body: string; bodyTruncated: boolean; parts?: ShownPart[] };
  response: TestRunResponse | null;
  output: TestRunOutput | null;
  warnings: string[];
}

/** A run's answer, and what only the server's log says of it. */
export interface TestRunReport {
  answer: TestRunAnswer;
  /** The address and range the guard refused (never in the answer: it would tell what a name resolves to). */
  blocked: { address: string; range: string } | null;
  /** The caller left before the run ended. */
  cancelled: boolean;
  /** An error of the answer reader itself, not of the answer: for the server's log. */
  failure?: Error;
}

/**
 * One test run of a connector's outbound call (docs/api-contract.md, "Connector test runs"). `prepare` fills the
 * variables and checks everything that can be checked before sending (a 400 then, nothing sent); `execute` gets
 * the token for OAuth 2.0 (a 401 to a kept token is tried once more with a fresh one), makes the call through the
 * outbound guard within one deadline, and reports it: every secret and the access token replaced by their
 * placeholders (the body in the answer reader's worker, whole before it is cut, `output` applied there too).
 */
export class TestRunner {
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly tokens: OAuthTokens,
    private readonly reader: AnswerReader,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Throws a 400 listing every problem before anything is sent. The connector's `{{env.NAME}}` are filled from its
   * environment (a secret variable's value too, sent only to one of its destinations and never where a URL's
   * destination is told); the call is also built as the answer shows it, each secret variable as its placeholder.
   */
  prepare(connector: RunnableConnector, variables: Variables): PreparedRun {
    const sendsBody = connector.contentType !== ContentType.NONE && connector.requestType !== RequestType.GET && connector.requestType !== RequestType.HEAD;
    const env = connector.env ?? NO_RUN_ENVIRONMENT;
    const bodyEncoding: BodyEncoding = sendsBody ? (BODY_ENCODINGS[connector.contentType] ?? 'text') : 'text';
    const filled = fillTemplate(connector, variables, { bodyEncoding, env });
    // Routing headers are checked where a secret goes with the call, as on write: without one, a Host header that
    // differs from the address is how a virtual host is reached by IP.
    const carriesSecret =
      secretSentTo('url', connector.authType, connector.grantType) !== null ||
      connector.headers.some(isSecretHeader) ||
      secretVariableBindings(bindingSourceOf(connector), env).some(({ url }) => url === 'url');
    const problems = [
      ...boundDestinationProblems(connector, filled, env),
      ...secretVariableRunProblems(connector, filled, env),
      ...(carriesSecret ? hostHeaderProblems(filled.url, filled.headers) : []),
    ];
    if (problems.length > 0) throw new InvalidInputError(problems);

    const secret = secretVariablesOf(connector, env);
    const warnings = filled.unused.map((name) => `variables.${name} is not used: the connector has no {{${name}}}`);
    const call = this.callOf(connector, filled, sendsBody, warnings);
    if (secret.length === 0)
      return { connector: { ...connector, oauthUrl: filled.oauthUrl }, warnings, call, shown: { call, oauthUrl: filled.oauthUrl }, secretVariables: [] };
    const placeholders = new Map([...env.filled].map(([name, value]) => [name, env.secrets.has(name) ? secretVariablePlaceholder(name) : value]));
    const shownFill = fillTemplate(connector, variables, { bodyEncoding, env: { ...env, filled: placeholders }, checked: false });
    return {
      connector: { ...connector, oauthUrl: filled.oauthUrl },
      warnings,
      call,
      shown: { call: this.callOf(connector, shownFill, sendsBody, []), oauthUrl: shownFill.oauthUrl },
      secretVariables: secret,
    };
  }

  /** The call a filled template makes: the headers the auth type or contentType sets given way, each a warning. */
  private callOf(connector: RunnableConnector, filled: Filled, sendsBody: boolean, warnings: string[]): OutboundRequest {
    const authHeader = authHeaderOf(connector);
    // The connector's own header gives way where the auth type sets it (Authorization, an API key's), and its
    // Content-Type where it does not fit the body's contentType (declaredTypeFits: writes refuse it, a connector
    // stored before may hold one) or where the platform writes it (multipart, whose boundary is the platform's, added
    // when the form is encoded). An empty form sends no Content-Type of ours, as Postman and browsers send none.
    const multipart = sendsBody && connector.contentType === ContentType.MULTIPART_FORM_DATA;
    const ownType = sendsBody ? MEDIA_TYPES[connector.contentType as Exclude<ContentType, ContentType.NONE>] : undefined;
    const typed = ownType !== undefined && !multipart && !(connector.contentType === ContentType.APPLICATION_FORM_URLENCODED && filled.body === '');
    let declaresType = false;
    const headers = filled.headers.filter(({ header, value }, index) => {
      if (authHeader !== null && header.toLowerCase() === authHeader.toLowerCase()) {
        warnings.push(`headers.${index} ${header} is not sent: authType ${connector.authType} sets the ${authHeader} header`);
        return false;
      }
      if (ownType === undefined || !/^content-type$/i.test(header)) return true;
      const fits = !declaresType && declaredTypeFits(connector.contentType, value);
      if (fits && !multipart) {
        declaresType = true;
        return true;
      }
      if (!fits) warnings.push(`headers.${index} ${header} is not sent: contentType ${connector.contentType} sends Content-Type: ${ownType}`);
      return false;
    });
    if (typed && !declaresType) headers.push({ header: 'Content-Type', value: ownType });
    if (!headers.some(({ header }) => /^user-agent$/i.test(header))) headers.push({ header: 'User-Agent', value: DEFAULT_USER_AGENT });
    const url =
      connector.authType === AuthType.AUTH_API_KEY && connector.apiKeyIn === ApiKeyIn.QUERY
        ? withoutParameter(filled.url, connector.apiKeyName!, warnings)
        : filled.url;
    return { method: connector.requestType, url, headers, body: sendsBody ? filled.body : null, ...(multipart && { form: filled.parts }) };
  }

  /**
   * A 400 when what the run would send holds a stored secret the caller did not send, anywhere but where the
   * connector's auth puts it. Scrubbing an answer tells which of the texts it echoes held a secret: a far side
   * that reflects the request would otherwise confirm a caller's guesses of a secret they cannot read. The check
   * says only that a text holds one, never which (docs/decisions.md, "Connector test runs").
   */
  async screen(run: PreparedRun, callerGone?: AbortSignal): Promise<void> {
    const kept = [
      ...(run.connector.kept ?? []).flatMap((field) => secretValuesOf(field, run.connector.secrets[field])),
      ...secretHeaderValues(run.connector.headers.filter(({ header }) => run.connector.keptHeaders?.includes(header.toLowerCase()))),
      // A secret variable's value is never the caller's.
      ...run.secretVariables,
    ];
    if (kept.length === 0) return;
    const { connector } = run;
    // The call as shown: where the connector puts a secret variable, its placeholder, not the secret.
    const { call, oauthUrl } = run.shown;
    // Everything of the caller's that the call or its token request sends, and so a far side may echo: the header
    // names too (a secret header's value is where the secret goes), and the OAuth client id and username (the token
    // request's form or Basic credentials).
    const texts = [
      call.url,
      oauthUrl ?? '',
      ...call.headers.flatMap(({ header, value, secret }) => (secret === true ? [header] : [header, value])),
      // A multipart body is still its parts' JSON text here (encoded when sent): every name, value and filename.
      typeof call.body === 'string' ? call.body : '',
      connector.clientId ?? '',
      connector.authUsername ?? '',
    ];
    const found = await this.reader.holdsSecret({ texts, secrets: kept }, callerGone);
    if ('result' in found && !found.result) return;
    throw new InvalidInputError(
      'result' in found
        ? [
            "The request would carry a secret stored for this connector outside the Authorization or API key its authType sends: a test run sends a stored secret only where the connector's authType puts it",
          ]
        : [`The request could not be checked for the connector's stored secrets: it ${found.stopped}`],
    );
  }

  /** Reports every failure as an outcome; `callerGone` cancels the run (its answer is then read by nobody). */
  async execute(run: PreparedRun, callerGone?: AbortSignal): Promise<TestRunReport> {
    const started = this.now();
    const deadline = new RunDeadline(this.timeoutMs, callerGone);
    try {
      const { connector } = run;
      const form = run.call.form ? await encodeForm(run.call.form) : null;
      const call: OutboundRequest = form
        ? { ...run.call, headers: [...run.call.headers, { header: 'Content-Type', value: form.contentType }], body: form.bytes }
        : run.call;
      const secrets = [...secretsOf(connector), ...run.secretVariables];
      const withAuthorization = (authorization: string): OutboundRequest => ({
        ...call,
        headers: [...call.headers, { header: 'Authorization', value: authorization }],
      });

      // The call is shown with its secrets as placeholders, and nothing of it needs scrubbing: its URL, headers and
      // body are the connector's, which a GET shows, and the caller's variables.
      let shown = withCredentials(shownCall(run, call, form), connector, true);
      let result: OutboundResult;
      // Null when the connector has no output (the answer is shown whole, and that is all), or when the run failed at
      // the token request: the connector's output is not applied to a token endpoint's answer.
      let expression: string | null = connector.output.trim() === '' ? null : connector.output;
      if (connector.authType === AuthType.AUTH_OAUTH2) {
        const settings = oauthSettings(connector, call.url);
        const credentials = clientCredentials(settings);
        if (credentials !== null) secrets.push({ value: credentials, placeholder: CLIENT_CREDENTIALS_PLACEHOLDER });
        const sent = await this.callWithToken(connector, settings, withAuthorization, secrets, deadline);
        result = sent.result;
        if (sent.atTokenRequest) {
          shown = tokenRequest({ ...settings, oauthUrl: run.shown.oauthUrl ?? '' }, true);
          expression = null;
        }
      } else {
        result = await callOnce(this.dispatcher, withCredentials(call, connector, false), deadline);
      }

      const shownBody = cutAt(typeof shown.body === 'string' ? shown.body : '', MAX_RETURNED_BYTES);
      const answer: TestRunAnswer = {
        outcome: result.outcome,
        message: result.message,
        durationMs: 0,
        request: {
          method: shown.method,
          url: shown.url,
          headers: [...shown.headers],
          body: shownBody.text,
          bodyTruncated: shownBody.truncated,
          ...(form && shown.form && { parts: shownParts(form.parts, shown.form) }),
        },
        response: null,
        output: null,
        warnings: [...run.warnings],
      };
      // A stored secret the caller did not send may be echoed in an encoded answer, which the scrubber cannot read.
      const hidesEncoded = (connector.kept ?? []).length > 0 || (connector.keptHeaders ?? []).length > 0 || run.secretVariables.length > 0;
      const failure = result.answer ? await this.read(answer, result, secrets, expression, hidesEncoded, callerGone) : undefined;
      answer.durationMs = this.now() - started;
      return { answer, blocked: result.blocked ?? null, cancelled: deadline.cancelled, failure };
    } finally {
      deadline.end();
    }
  }

  /**
   * What came back, as shown: the answer reader's worker scrubs the message (it may quote the far side), the
   * header names and values and the whole body, cuts the body, parses it and applies `output`, within its bounds.
   * What it could not scrub is not shown: the message then without what the far side said, the headers and body
   * left out. Nothing of the answer is scrubbed, parsed or queried on this thread. An error of the reader itself
   * (not the answer's doing) is handed back for the log. With `hidesEncoded` (the call carries a stored secret the
   * caller did not send), an encoded answer shows its status only: the scrubber cannot read a compressed echo of the
   * secret, and its size alone tells how much of a guess sent with the call compresses with it (BREACH).
   */
  private async read(
    answer: TestRunAnswer,
    result: OutboundResult,
    secrets: SecretValue[],
    expression: string | null,
    hidesEncoded: boolean,
    callerGone?: AbortSignal,
  ): Promise<Error | undefined> {
    const received = result.answer!;
    const header = (name: string) => received.headers.find(({ header }) => header === name)?.value;
    const declared = Number(header('content-length'));
    const query = expression !== null && expression.startsWith('$') ? expression : null;
    const texts = [result.message ?? '', ...received.headers.flatMap(({ header: name, value }) => [name, value])];
    const sizeBytes = !received.truncated ? received.bytes.length : Number.isSafeInteger(declared) ? declared : null;
    const encoding = header('content-encoding');
    if (encoding !== undefined && !/^\s*identity\s*$/i.test(encoding)) {
      if (hidesEncoded) return showStatusOnly(answer, result, encoding, expression);
      // No Accept-Encoding is sent, so a far side should not encode; one that does is shown as it came.
      answer.warnings.push(`The answer's body is encoded (Content-Encoding: ${encoding.slice(0, 40)}): it is shown and read as it came, not decoded`);
    }
    const read = await this.reader.read(
      {
        bytes: ownBytes(received.bytes),
        whole: !received.truncated,
        texts,
        secrets,
        shownBytes: MAX_RETURNED_BYTES,
        isJson: JSON_MEDIA_TYPE.test(header('content-type') ?? ''),
        expression: query,
      },
      callerGone,
    );
    if ('stopped' in read && read.shown === undefined) {
      answer.message = withoutTheFarSide(result);
      answer.response = { status: received.status, headers: [], body: '', bodyTruncated: true, sizeBytes: null };
      answer.warnings.push(`The answer's headers and body are not shown: it ${read.stopped}`);
    } else {
      const shown = 'result' in read ? read.result : read.shown!;
      const [message, ...headers] = shown.texts;
      answer.message = result.message === null ? null : message;
      answer.response = { status: received.status, headers: pairs(headers), body: shown.body, bodyTruncated: shown.bodyTruncated, sizeBytes: null };
    }
    answer.response.sizeBytes = sizeBytes;
    if ('result' in read && read.result.json !== undefined) {
      answer.response.json = read.result.json;
      answer.response.jsonPaths = read.result.jsonPaths!.paths;
      answer.response.jsonPathsTruncated = read.result.jsonPaths!.truncated;
    }
    if (expression === null) return undefined;
    const failed = (error: string) => ({ expression, values: null, valuesTruncated: false, error, hint: null });
    if (query === null) answer.output = failed('output is not a JSONPath query (it does not start with $)');
    else if ('stopped' in read) answer.output = failed(`output was not evaluated: the answer ${read.stopped}`);
    else answer.output = { expression, ...read.result.query! };
    return 'error' in read ? read.error : undefined;
  }

  /**
   * AUTH_OAUTH2: the call with the access token (added to `secrets`, to be scrubbed); a 401 to a kept token drops
   * it and tries once more with a fresh one. A failing token request is the outcome, and the request shown.
   */
  private async callWithToken(
    connector: RunnableConnector,
    settings: OAuthSettings,
    withAuthorization: (authorization: string) => OutboundRequest,
    secrets: SecretValue[],
    deadline: RunDeadline,
  ): Promise<{ result: OutboundResult; atTokenRequest?: true }> {
    for (let attempt = 1; ; attempt++) {
      const token = await this.tokens.tokenFor(settings, deadline, connector.uuid);
      if ('failed' in token) return { result: tokenFailure(token.failed), atTokenRequest: true };
      secrets.push({ value: token.accessToken, placeholder: ACCESS_TOKEN_PLACEHOLDER });
      const result = await callOnce(this.dispatcher, withAuthorization(`Bearer ${token.accessToken}`), deadline);
      if (result.answer?.status !== 401 || !token.kept || connector.uuid === undefined || attempt === 2) return { result };
      this.tokens.drop(connector.uuid);
    }
  }
}

/** The header the auth type sets: Authorization, or an API key's; null when it sets none. */
function authHeaderOf(connector: RunnableConnector): string | null {
  if (connector.authType === AuthType.AUTH_NONE) return null;
  if (connector.authType !== AuthType.AUTH_API_KEY) return 'Authorization';
  return connector.apiKeyIn === ApiKeyIn.HEADER ? connector.apiKeyName : null;
}

/**
 * The call with what the auth type adds (`shown`: as the answer shows it, secrets as placeholders): an Authorization
 * header, or the API key as its header or as the last query parameter. OAuth 2.0's access token is added per call.
 */
function withCredentials(sent: OutboundRequest, connector: RunnableConnector, shown: boolean): OutboundRequest {
  const call = shown ? { ...sent, headers: shownHeaders(sent.headers) } : sent;
  const secret = (field: SecretField) => (shown ? SECRETS[field].placeholder : (connector.secrets[field] ?? ''));
  const withHeader = (header: string, value: string) => ({ ...call, headers: [...call.headers, { header, value }] });
  switch (connector.authType) {
    case AuthType.AUTH_BASIC:
      return withHeader('Authorization', `Basic ${secret('basicToken')}`);
    case AuthType.AUTH_BEARER:
      return withHeader('Authorization', `Bearer ${secret('bearerToken')}`);
    case AuthType.AUTH_OAUTH2:
      return shown ? withHeader('Authorization', `Bearer ${ACCESS_TOKEN_PLACEHOLDER}`) : call;
    case AuthType.AUTH_API_KEY: {
      const name = connector.apiKeyName!;
      if (connector.apiKeyIn === ApiKeyIn.HEADER) return withHeader(name, secret('apiKey'));
      // Shown as written, so the placeholder reads as one; sent percent-encoded.
      const value = shown ? secret('apiKey') : encodeURIComponent(secret('apiKey'));
      return { ...call, url: withParameter(call.url, `${encodeURIComponent(name)}=${value}`) };
    }
    default:
      return call;
  }
}

/** `url` with `parameter` (already encoded) appended to its query, before any fragment. */
function withParameter(url: string, parameter: string): string {
  const hash = url.indexOf('#');
  const [head, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const separator = !head.includes('?') ? '?' : head.endsWith('?') || head.endsWith('&') ? '' : '&';
  return `${head}${separator}${parameter}${fragment}`;
}

/**
 * `url` without the query parameters named `name` (compared once decoded), each removal a warning: the API key's
 * parameter is added by the auth type, and a far side reading the first of two would read the connector's.
 */
function withoutParameter(url: string, name: string, warnings: string[]): string {
  const hash = url.indexOf('#');
  const [head, fragment] = hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  const question = head.indexOf('?');
  if (question === -1) return url;
  const decodedName = (part: string) => {
    const raw = part.split('=', 1)[0].replace(/\+/g, ' ');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  const parts = head.slice(question + 1).split('&');
  const kept = parts.filter((part) => decodedName(part) !== name);
  if (kept.length === parts.length) return url;
  warnings.push(`The query parameter ${name} of url is not sent: authType AUTH_API_KEY sends the API key as ${name}`);
  const query = kept.join('&');
  return `${head.slice(0, question)}${query === '' ? '' : `?${query}`}${fragment}`;
}

/** Every form of every secret of the connector that an answer must not show, its secret headers' values included. */
function secretsOf(connector: RunnableConnector): SecretValue[] {
  return [
    ...(Object.keys(connector.secrets) as SecretField[]).flatMap((field) => secretValuesOf(field, connector.secrets[field])),
    ...secretHeaderValues(connector.headers),
  ];
}

/** What to scrub for the secret headers among `headers`: each value, shown as SECRET_HEADER_PLACEHOLDER. */
function secretHeaderValues(headers: readonly Header[]): SecretValue[] {
  return headers.filter(isSecretHeader).map(({ value }) => ({ value, placeholder: SECRET_HEADER_PLACEHOLDER }));
}

/** The headers as a test run's answer shows them: a secret header's value as its placeholder. */
function shownHeaders(headers: readonly Header[]): Header[] {
  return headers.map((header) => (isSecretHeader(header) ? { header: header.header, value: SECRET_HEADER_PLACEHOLDER } : header));
}

/** What to scrub for one secret: the value, and for a Basic token what it decodes to. */
function secretValuesOf(field: SecretField, value: string | undefined): SecretValue[] {
  if (value === undefined) return [];
  const { placeholder } = SECRETS[field];
  return field === 'basicToken' ? basicTokenSecrets(value, placeholder) : [{ value, placeholder }];
}

function oauthSettings(connector: RunnableConnector, url: string): OAuthSettings {
  return {
    oauthUrl: connector.oauthUrl ?? '',
    grantType: connector.grantType ?? GrantType.CLIENT_CREDENTIALS,
    clientId: connector.clientId,
    clientSecret: connector.secrets.clientSecret ?? null,
    username: connector.authUsername,
    password: connector.secrets.authPassword ?? null,
    callDestination: destinationOf(url),
  };
}

/**
 * A stored secret goes only where it is bound: the filled URL must keep the destination (scheme and authority) of
 * the connector's URL resolved in its environment (destinationIn), checked after the variables are filled, whatever
 * they hold. A destination that cannot be read is a different one.
 */
function boundDestinationProblems(connector: RunnableConnector, filled: Filled, env: RunEnvironment): string[] {
  const problems = new Set<string>();
  const bound = { url: destinationIn(connector.url, env.values), oauthUrl: destinationIn(connector.oauthUrl, env.values) };
  if (connector.headers.some(isSecretHeader) && !sameDestination(filled.url, bound.url)) {
    problems.add("url must keep its scheme, host, port and user info once its variables are filled in: the connector's secret headers are bound to them");
  }
  for (const field of Object.keys(connector.secrets) as SecretField[]) {
    for (const url of SECRETS[field].destinations) {
      if (!sameDestination(filled[url], bound[url])) {
        problems.add(`${url} must keep its scheme, host, port and user info once its variables are filled in: the connector's ${field} is bound to them`);
      }
    }
  }
  return [...problems];
}

/**
 * A secret variable goes only where it is bound: never in a URL's destination, and to one of its `destinations` once
 * the URL it goes with is filled (secretBindings, at the filled URLs' destinations).
 */
function secretVariableRunProblems(connector: RunnableConnector, filled: Filled, env: RunEnvironment): string[] {
  if (env.secrets.size === 0) return [];
  const inDestination = (['url', 'oauthUrl'] as const).flatMap((field) => envDestinationProblems(field, connector[field], env, null));
  const bindings = secretVariableBindings(bindingSourceOf(connector), env);
  return [...inDestination, ...secretVariableProblems(bindings, env, ({ url }: SecretBinding) => destinationOf(filled[url]))];
}

/** What secretVariableBindings reads of a runnable connector. */
const bindingSourceOf = (connector: RunnableConnector) => ({ ...connector, headers: [...connector.headers] });

/** The values of the secret variables a connector sends (anywhere in its template), and the placeholder of each. */
function secretVariablesOf(connector: RunnableConnector, env: RunEnvironment): SecretValue[] {
  if (env.secrets.size === 0) return [];
  const texts = [
    connector.url,
    connector.oauthUrl ?? '',
    connector.body,
    ...connector.headers.filter((header) => !isSecretHeader(header)).map(({ value }) => value),
  ];
  const names = new Set(texts.flatMap(placeholdersIn));
  return [...env.secrets.keys()].flatMap((name) => {
    const value = env.filled.get(name);
    return names.has(`env.${name}`) && value !== undefined ? [{ value, placeholder: secretVariablePlaceholder(name) }] : [];
  });
}

/** The call as the answer shows it: a multipart body sent as `call` (its Content-Type, with the boundary, the same). */
function shownCall(run: PreparedRun, call: OutboundRequest, form: EncodedForm | null): OutboundRequest {
  if (run.shown.call === run.call) return call;
  return form ? { ...run.shown.call, headers: [...run.shown.call.headers, { header: 'Content-Type', value: form.contentType }] } : run.shown.call;
}

/** A multipart body's parts as shown: each text value as the shown call holds it (a secret variable as its placeholder). */
function shownParts(parts: ShownPart[], shown: NonNullable<OutboundRequest['form']>): ShownPart[] {
  return parts.map((part, index) => (part.value === undefined || shown[index]?.value === undefined ? part : { ...part, value: shown[index].value }));
}

/** A failure at the token request: the endpoint's refusal or silence is AUTH_FAILED; a refused address or the deadline say so. */
function tokenFailure(failed: OutboundResult): OutboundResult {
  if (failed.outcome === 'AUTH_FAILED' || failed.outcome === 'BLOCKED_DESTINATION' || failed.outcome === 'TIMEOUT') {
    return { ...failed, message: `Token endpoint: ${failed.message}` };
  }
  return { ...failed, outcome: 'AUTH_FAILED', message: `Token endpoint: ${failed.message}` };
}

/** Header names and values, alternating, as a list of headers. */
function pairs(texts: string[]): Header[] {
  const headers: Header[] = [];
  for (let i = 0; i + 1 < texts.length; i += 2) headers.push({ header: texts[i], value: texts[i + 1] });
  return headers;
}

/** An encoded answer of a call that carries a stored secret the caller did not send, shown as its status alone (TestRunner.read). */
function showStatusOnly(answer: TestRunAnswer, result: OutboundResult, encoding: string, expression: string | null): undefined {
  answer.message = withoutTheFarSide(result);
  answer.response = { status: result.answer!.status, headers: [], body: '', bodyTruncated: true, sizeBytes: null };
  answer.warnings.push(
    `The answer's headers and body are not shown: it is encoded (Content-Encoding: ${encoding.slice(0, 40)}), and its size would tell how much ` +
      'of what the call sent compresses with a stored secret the far side echoes; remove an Accept-Encoding header from the connector to see it',
  );
  if (expression !== null)
    answer.output = { expression, values: null, valuesTruncated: false, error: 'output was not evaluated: the answer is encoded', hint: null };
  return undefined;
}

/** A failure's message without what the far side said (a Location, an error_description): what may be shown unscrubbed. */
function withoutTheFarSide({ outcome, message, answer }: OutboundResult): string | null {
  if (message === null || answer === null) return message;
  return outcome === 'AUTH_FAILED' ? `Token endpoint: The token endpoint answered ${answer.status}` : `The far side answered ${answer.status}`;
}
