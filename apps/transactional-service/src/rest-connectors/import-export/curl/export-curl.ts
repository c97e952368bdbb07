import { ApiKeyIn, AuthType, ContentType, GrantType, MEDIA_TYPES, multipartPartsOf, RequestType } from '@app/domain';
import { declaredType, ExportedConnector, Exporter, secretHeaderVariable } from '../connector-draft';
import { connectorComment } from './connector-comment';
import { curlEscape } from './curl-payload';
import { withQuery } from './curl-url';
import { formOptions } from './form-options';
import { oauth2Comment } from './oauth2-comment';
import { shellQuoted, shownInComment } from './posix-quote';
import { SECRET_SHELL_VARIABLES as SECRET, shellVariablesOf, shellWord, variablesIn } from './shell-variables';

/**
 * A connector as a POSIX shell command that runs as it is once its shell variables are set, one option a line with
 * ` \` continuations, every literal value in single quotes (`'\''` for a quote), so that the shell expands nothing of
 * it; importCurl reads it back as the same connector. A value with a control or invisible format character (a
 * newline, ^C, ESC, a bidi override) is in ANSI-C quotes instead (`$'{\n  "a": 1\n}'`, posix-quote.ts): pasted into an
 * interactive shell, the command is text and nothing else, and no control character of a connector reaches the
 * terminal or the line editor. The body goes in `--data-raw`, never `--data-binary` or `-d`, which read a file when
 * the body starts with `@`. `--globoff` when the URL holds braces, brackets or variables (a value must not become a
 * curl glob).
 * A multipart body's parts are `--form-string` and `-F` options, its files' bytes on comment lines (form-options.ts).
 *
 * Every `{{variable}}` is a shell variable, `"${NAME}"` (shell-variables.ts: the name itself when it is a shell name
 * that neither the shell nor a secret uses, else mapped), and an escaped `\{{name}}` the text `{{name}}` it is sent
 * as. A value is inserted as it is: the connector percent-encodes a URL's variables, form-encodes a form's and
 * JSON-escapes those inside a JSON string, the shell does not, so a value is set as it must appear on the wire.
 * Secrets are never known here: they are shell variables too (SECRET_SHELL_VARIABLES): `-u "$BASIC_USER:$BASIC_PASSWORD"`
 * (curl makes the Basic token), `$BEARER_TOKEN`, `$API_KEY` (in the header or query parameter apiKeyName), and for
 * OAuth 2.0 `$ACCESS_TOKEN` in the call with the settings on a `# connector-oauth2:` comment line above it
 * (`$CLIENT_SECRET`, `$AUTH_PASSWORD`; oauth2-comment.ts). A first comment line says which variables to set; the
 * `# connector:` line (connector-comment.ts) holds the name, description, output and tags.
 * A secret header is `-H 'X-Tenant: '"$SECRET_X_TENANT"` (secretHeaderVariable), read back as that secret header.
 */
export const exportCurl: Exporter = (connector) => {
  const parts = connector.contentType === ContentType.MULTIPART_FORM_DATA ? multipartPartsOf(connector.body) : undefined;
  // A multipart body's text fields (`--form-string`) hold shell variables; a typed or file part's value is curl's
  // quoted text, in which a variable's value could end the quotes: its placeholders stay as written.
  const bodyTexts = parts
    ? parts.flatMap(({ value, filename, contentType }) => (filename === undefined && contentType === undefined ? [value ?? ''] : []))
    : [connector.body];
  const variables = shellVariablesOf(variablesIn([connector.url, ...connector.headers.map(({ value }) => value), ...bodyTexts]));
  const word = (text: string) => shellWord(text, variables);
  const form = parts ? formOptions(parts, word) : undefined;
  const options = [
    ...(/[{}[\]]/.test(connector.url) ? ['--globoff'] : []),
    // Header values and the body as they are sent: an escaped placeholder (`\{{name}}`) as the text `{{name}}`. curl
    // writes a form's Content-Type itself, with its boundary: a declared one is left out.
    ...connector.headers
      .filter(({ header }) => !(form && header.toLowerCase() === 'content-type'))
      .map(({ header, value, secret }) =>
        secret === true
          ? `-H ${shellQuoted(`${header}: `)}"$${secretHeaderVariable(header)}"`
          : `-H ${word(value === '' ? `${header};` : `${header}: ${value}`)}`,
      ),
    // The connector's own Content-Type (a vendor's media type) is the one it sends; else its content type's.
    ...(connector.contentType === ContentType.NONE || declaredType(connector) !== undefined || (form && form.options.length > 0)
      ? []
      : [`-H ${shellQuoted(`Content-Type: ${MEDIA_TYPES[connector.contentType]}`)}`]),
    ...authOptions(connector),
    ...(form ? form.options : connector.body === '' ? [] : [`--data-raw ${word(connector.body)}`]),
  ];
  const method = connector.requestType === RequestType.HEAD ? '--head' : `-X ${connector.requestType}`;
  const command = [`curl ${method} ${exportedUrl(connector, word)}`, ...options].join(' \\\n  ');
  return (
    [...toSet(connector, variables), connectorComment(connector, variables), ...oauth2Lines(connector), ...(form?.comments ?? []), command].join('\n') + '\n'
  );
};

/** `# Set these shell variables first: …`: the secrets' and the connector variables' the command expands. */
function toSet(connector: ExportedConnector, variables: Map<string, string>): string[] {
  const names = [
    ...secretsOf(connector),
    ...secretHeadersOf(connector),
    ...[...variables].map(([name, shell]) => (name === shell ? shell : `${shell} (the connector variable ${name})`)),
  ];
  return names.length === 0 ? [] : [`# Set these shell variables first: ${names.join(', ')}.`];
}

function secretsOf(connector: ExportedConnector): string[] {
  switch (connector.authType) {
    case AuthType.AUTH_BASIC:
      return [`${SECRET.basicUser} (the user id)`, `${SECRET.basicPassword} (the password)`];
    case AuthType.AUTH_BEARER:
      return [`${SECRET.bearerToken} (the bearer token)`];
    case AuthType.AUTH_OAUTH2:
      return [`${SECRET.accessToken} (an access token)`];
    case AuthType.AUTH_API_KEY:
      return connector.apiKeyName ? [`${SECRET.apiKey} (the API key)`] : [];
    default:
      return [];
  }
}

/** The shell variable of each secret header (secretHeaderVariable). */
function secretHeadersOf(connector: ExportedConnector): string[] {
  return connector.headers.flatMap(({ header, secret }) => (secret === true ? [`${secretHeaderVariable(header)} (the ${header} header)`] : []));
}

function oauth2Lines(connector: ExportedConnector): string[] {
  if (connector.authType !== AuthType.AUTH_OAUTH2 || connector.grantType === null || connector.oauthUrl === null) return [];
  const grant = connector.grantType === GrantType.PASSWORD ? 'password' : 'client credentials';
  return [
    `# OAuth 2.0 (${grant}): set ACCESS_TOKEN to a token from ${shownInComment(connector.oauthUrl)} first; the line below holds the settings.`,
    oauth2Comment(connector.grantType, connector.oauthUrl, connector.clientId, connector.authUsername),
  ];
}

function authOptions(connector: ExportedConnector): string[] {
  switch (connector.authType) {
    case AuthType.AUTH_BASIC:
      return [`-u "$${SECRET.basicUser}:$${SECRET.basicPassword}"`];
    case AuthType.AUTH_BEARER:
      return [`-H "Authorization: Bearer $${SECRET.bearerToken}"`];
    case AuthType.AUTH_OAUTH2:
      return [`-H "Authorization: Bearer $${SECRET.accessToken}"`];
    case AuthType.AUTH_API_KEY:
      return connector.apiKeyIn === ApiKeyIn.HEADER && connector.apiKeyName ? [`-H ${shellQuoted(`${connector.apiKeyName}: `)}"$${SECRET.apiKey}"`] : [];
    default:
      return [];
  }
}

/** The URL as a shell word; with an API key in the query, `name=` then `"$API_KEY"` (before any fragment). */
function exportedUrl(connector: ExportedConnector, word: (text: string) => string): string {
  if (connector.authType !== AuthType.AUTH_API_KEY || connector.apiKeyIn !== ApiKeyIn.QUERY || !connector.apiKeyName) return word(connector.url);
  const marker = '\u0000';
  const [before, after] = withQuery(connector.url, [`${curlEscape(connector.apiKeyName)}=${marker}`]).split(marker);
  return `${word(before)}"$${SECRET.apiKey}"${after === '' ? '' : word(after)}`;
}
