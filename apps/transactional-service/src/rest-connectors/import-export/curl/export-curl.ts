import { ApiKeyIn, AuthType, ContentType, GrantType, MEDIA_TYPES, multipartPartsOf, RequestType } from '@app/domain';
import { ExportedConnector, Exporter } from '../connector-draft';
import { curlEscape } from './curl-payload';
import { withQuery } from './curl-url';
import { formOptions } from './form-options';
import { oauth2Comment } from './oauth2-comment';
import { shellQuoted, shownInComment } from './posix-quote';

/**
 * A connector as a POSIX shell command, one option a line with ` \` continuations, every value in single quotes
 * (`'\''` for a quote), so that the shell expands nothing of it; importCurl reads it back as the same connector. A
 * value with a control or invisible format character (a newline, ^C, ESC, a bidi override) is in ANSI-C quotes instead
 * (`$'{\n  "a": 1\n}'`, posix-quote.ts): pasted into an interactive shell, the command is text and nothing else, and no
 * control character of a connector reaches the terminal or the line editor.
 * The body goes in `--data-raw`, never `--data-binary` or `-d`, which read a file when the body starts with `@`; a
 * multipart body's parts in `--form-string` and `-F` options, its files' bytes on comment lines (form-options.ts).
 * `--globoff` when the URL holds braces or brackets (the connector's `{{variables}}` are no curl globs).
 *
 * Secrets are never known here: they are shell variables in double quotes, so that the command runs once they are
 * set, and importCurl reads each back as that variable: `$BASIC_TOKEN` (the Base64 of user:password, sent as
 * `Authorization: Basic $BASIC_TOKEN`: a token, not a user and password, is what the connector keeps), `$BEARER_TOKEN`,
 * `$API_KEY` (in the header or query parameter apiKeyName), and for OAuth 2.0 `$ACCESS_TOKEN` in the call with the
 * settings on a `# connector-oauth2:` comment line above it (`$CLIENT_SECRET`, `$AUTH_PASSWORD`; oauth2-comment.ts).
 */
export const exportCurl: Exporter = (connector) => {
  const form = connector.contentType === ContentType.MULTIPART_FORM_DATA ? formOptions(multipartPartsOf(connector.body)) : undefined;
  const options = [
    ...(/[{}[\]]/.test(connector.url) ? ['--globoff'] : []),
    ...connector.headers.map(({ header, value }) => `-H ${shellQuoted(value === '' ? `${header};` : `${header}: ${value}`)}`),
    // curl writes a form's Content-Type itself, with its boundary.
    ...(connector.contentType === ContentType.NONE || (form && form.options.length > 0)
      ? []
      : [`-H ${shellQuoted(`Content-Type: ${MEDIA_TYPES[connector.contentType]}`)}`]),
    ...authOptions(connector),
    ...(form ? form.options : connector.body === '' ? [] : [`--data-raw ${shellQuoted(connector.body)}`]),
  ];
  const method = connector.requestType === RequestType.HEAD ? '--head' : `-X ${connector.requestType}`;
  const command = [`curl ${method} ${exportedUrl(connector)}`, ...options].join(' \\\n  ');
  return [...commentLines(connector), ...(form?.comments ?? []), command].join('\n') + '\n';
};

function commentLines(connector: ExportedConnector): string[] {
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
      return ['-H "Authorization: Basic $BASIC_TOKEN"'];
    case AuthType.AUTH_BEARER:
      return ['-H "Authorization: Bearer $BEARER_TOKEN"'];
    case AuthType.AUTH_OAUTH2:
      return ['-H "Authorization: Bearer $ACCESS_TOKEN"'];
    case AuthType.AUTH_API_KEY:
      return connector.apiKeyIn === ApiKeyIn.HEADER && connector.apiKeyName ? [`-H ${shellQuoted(`${connector.apiKeyName}: `)}"$API_KEY"`] : [];
    default:
      return [];
  }
}

/** The URL in single quotes; with an API key in the query, `name=` then `"$API_KEY"` outside them (before any fragment). */
function exportedUrl(connector: ExportedConnector): string {
  if (connector.authType !== AuthType.AUTH_API_KEY || connector.apiKeyIn !== ApiKeyIn.QUERY || !connector.apiKeyName) return shellQuoted(connector.url);
  const marker = '\u0000';
  const [before, after] = withQuery(connector.url, [`${curlEscape(connector.apiKeyName)}=${marker}`]).split(marker);
  return `${shellQuoted(before)}"$API_KEY"${after === '' ? '' : shellQuoted(after)}`;
}
