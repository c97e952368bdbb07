import { GrantType, isHttpUrlWithPlaceholders, LIMITS } from '@app/domain';
import { CredentialDraft, ImportSourceError } from '../connector-draft';
import { CommentLine } from './curl-commands';
import { shellQuoted } from './posix-quote';
import { tokenizeShell } from './shell-words';

/**
 * curl has no OAuth 2.0: a call with an access token is `Authorization: Bearer $ACCESS_TOKEN`. So that an exported
 * OAuth 2.0 connector imports back as one, the exporter writes its settings on a comment line above the command,
 *
 *   # connector-oauth2: --grant-type CLIENT_CREDENTIALS --token-url 'https://…' --client-id 'id' --client-secret "$CLIENT_SECRET"
 *
 * (PASSWORD adds `--username 'u' --password "$AUTH_PASSWORD"`), and the importer reads that line back; a shell runs
 * none of it. The Bearer header of that command is then the token the connector fetches itself.
 */
export const OAUTH2_COMMENT = 'connector-oauth2:';

export interface OAuth2Settings {
  grantType: GrantType;
  oauthUrl: string;
  credentials: CredentialDraft[];
  line: number;
}

const FLAGS: Record<string, 'clientId' | 'clientSecret' | 'authUsername' | 'authPassword' | 'grantType' | 'oauthUrl'> = {
  '--grant-type': 'grantType',
  '--token-url': 'oauthUrl',
  '--client-id': 'clientId',
  '--client-secret': 'clientSecret',
  '--username': 'authUsername',
  '--password': 'authPassword',
};

/** The comment line for an OAuth 2.0 connector's settings; secrets as the shell variables named here. */
export function oauth2Comment(grantType: GrantType, oauthUrl: string, clientId: string | null, authUsername: string | null): string {
  const parts = [
    `--grant-type ${grantType}`,
    `--token-url ${shellQuoted(oauthUrl)}`,
    `--client-id ${clientId === null ? '"$CLIENT_ID"' : shellQuoted(clientId)}`,
  ];
  if (grantType === GrantType.PASSWORD) {
    parts.push(`--username ${authUsername === null ? '"$AUTH_USERNAME"' : shellQuoted(authUsername)}`, '--password "$AUTH_PASSWORD"');
  } else parts.push('--client-secret "$CLIENT_SECRET"');
  return `# ${OAUTH2_COMMENT} ${parts.join(' ')}`;
}

/** The settings of the last `# connector-oauth2:` line above a command, or undefined. */
export function readOAuth2Comment(
  comments: CommentLine[],
  credentialOf: (field: CredentialDraft['field'], text: string, where: string) => CredentialDraft,
): OAuth2Settings | undefined {
  const comment = comments.filter(({ text }) => text.trim().startsWith(OAUTH2_COMMENT)).pop();
  if (!comment) return undefined;
  const where = `line ${comment.line}`;
  const words = tokenizeShell(comment.text.trim().slice(OAUTH2_COMMENT.length)).flatMap((token) => (token.kind === 'word' ? [token.word.text] : []));
  const values = new Map<string, string>();
  for (let index = 0; index < words.length; index += 2) {
    const field = Object.hasOwn(FLAGS, words[index]) ? FLAGS[words[index]] : undefined;
    if (field === undefined || words[index + 1] === undefined) {
      throw new ImportSourceError(where, `${OAUTH2_COMMENT} takes ${Object.keys(FLAGS).join(', ')}, each with a value`);
    }
    values.set(field, words[index + 1]);
  }
  const grantType = values.get('grantType');
  if (grantType !== GrantType.CLIENT_CREDENTIALS && grantType !== GrantType.PASSWORD)
    throw new ImportSourceError(where, `--grant-type must be CLIENT_CREDENTIALS or PASSWORD`);
  const oauthUrl = values.get('oauthUrl') ?? '';
  if (!isHttpUrlWithPlaceholders(oauthUrl, LIMITS.url)) throw new ImportSourceError(where, '--token-url must be an absolute http or https URL');
  const credentials = Object.entries(FLAGS).flatMap(([flag, field]) => {
    const text = values.get(field);
    if (text === undefined || field === 'grantType' || field === 'oauthUrl') return [];
    return [credentialOf(field, text, `${where}, ${flag}`)];
  });
  return { grantType, oauthUrl, credentials, line: comment.line };
}
