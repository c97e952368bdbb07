import {
  AuthType,
  BODY_COLUMNS,
  canonicalHttpUrl,
  ConnectorWrite,
  contentTypeHeaderProblems,
  ContentType,
  InvalidInputError,
  readMultipartParts,
  RECORDED_FIELDS,
  RestConnector,
  RestConnectorSnapshotDto,
  RestConnectorWriteDto,
  SecretField,
  SecretHeaderKey,
  SECRET_FIELDS,
  SECRETS,
  secretSentTo,
  secretsUsedBy,
  TagRow,
  unsetColumns,
  UrlField,
  whenSecretIsUsed,
  envVariableOf,
} from '@app/domain';
import { hasVariableDestination } from './destination';
import {
  ConnectorEnvironment,
  envDestinationProblems,
  NO_ENVIRONMENT,
  placeholdersInDestination,
  sameDestinationIn,
  secretVariableBindings,
  secretVariableProblems,
  urlInEnvironment,
} from './env-destinations';
import { hostHeaderProblems } from './host-header';
import { storedHeaders } from './secret-headers';

export interface Writer {
  username: string;
  picture: string | null;
}

/** Encrypts a new secret value, or a secret header's (SecretHeaderKey), for storage (see SecretCipher). */
export type Seal = (field: SecretField | SecretHeaderKey, plaintext: string) => string;

/**
 * Turns a validated write body into the columns of a full write (create, PUT, and a test run's edits). URLs are
 * stored canonical (canonicalHttpUrl). Secrets the auth type does not use are discarded; a new secret is sealed;
 * a secret's placeholder keeps the stored (sealed) value, but only while every URL it or its access token is sent
 * to keeps its destination, and what places it in the call (an API key's apiKeyIn and apiKeyName) is unchanged. A secret header
 * (`secret: true`) is sealed and kept the same way, bound to `url` (storedHeaders). A URL that carries a secret has no `{{variable}}` in its
 * destination, and no routing header of its call names another host (hostHeaderProblems); without a secret, both are free. A Content-Type
 * header fits `contentType` (contentTypeHeaderProblems). Any rule broken is one 400 listing every problem; nothing is written.
 * `env` is the connector's environment (its path's): destinations are told with its plain values filled (destinationIn), so a
 * `{{env.NAME}}` of a defined plain variable may stand in a secret-carrying URL's destination and a placeholder keeps its secret
 * while the resolved destination is unchanged; what the connector needs of the environment besides is environmentProblems'.
 */
export function toConnectorWrite(
  dto: RestConnectorWriteDto,
  writer: Writer,
  now: Date,
  seal: Seal,
  stored?: RestConnector,
  env: ConnectorEnvironment = NO_ENVIRONMENT,
): { values: ConnectorWrite; tags: TagRow[] } {
  const urls = { url: canonicalHttpUrl(dto.url), oauthUrl: dto.oauthUrl === undefined || dto.oauthUrl === null ? null : canonicalHttpUrl(dto.oauthUrl) };
  const problems: string[] = [];
  const headers = storedHeaders(dto.headers ?? [], urls.url, seal, stored, problems, env.values);
  const use: EnvironmentUse = { ...dto, ...urls, headers: dto.headers ?? [], body: dto.body ?? '' };
  // A secret variable sent with the call is a secret there too.
  const carriesSecret = secretCarriedTo('url', dto) !== null || secretVariablesOf(use, env).some(({ url }) => url === 'url');
  problems.push(
    ...variableDestinationProblems(urls, dto, env),
    ...environmentProblems(use, env),
    ...(carriesSecret ? hostHeaderProblems(urlInEnvironment(urls.url, env.values), headers) : []),
    ...contentTypeHeaderProblems(dto.contentType, dto.headers ?? []),
    ...multipartBodyProblems(dto),
  );
  const used = secretsUsedBy(dto.authType, dto.grantType);
  const secrets = Object.fromEntries(
    SECRET_FIELDS.map((field) => {
      const sent = dto[field];
      if (!used.includes(field) || sent === undefined || sent === null) return [field, null];
      if (sent !== SECRETS[field].placeholder) return [field, seal(field, sent)];
      const kept = stored?.[field] ?? null;
      const { destinations, placement = [] } = SECRETS[field];
      const movedUrls = destinations.filter((url) => !sameDestinationIn(urls[url], stored?.[url], env.values));
      const movedPlacement = placement.filter((setting) => dto[setting] !== stored?.[setting]);
      const moved = [...movedUrls, ...movedPlacement];
      if (kept === null) {
        problems.push(`${field} must be the secret itself: ${sent} only stands for a stored one, and none is stored`);
      } else if (moved.length > 0) {
        const verb = moved.length > 1 ? 'point' : 'points';
        const elsewhere = [
          ...(movedUrls.length > 0 ? ['another scheme, host, port or user info'] : []),
          ...(movedPlacement.length > 0 ? ['another header or query parameter'] : []),
        ].join('; ');
        problems.push(`${field} must be sent again: ${moved.join(' and ')} now ${verb} elsewhere (${elsewhere}) than when it was stored`);
      }
      return [field, kept];
    }),
  ) as Pick<ConnectorWrite, (typeof SECRET_FIELDS)[number]>;
  if (problems.length > 0) throw new InvalidInputError(problems);

  const name = dto.name;
  return {
    values: {
      ...asSent(dto),
      name,
      nameKey: name.toLowerCase(),
      activeNameKey: name.toLowerCase(),
      url: urls.url,
      headers,
      oauthUrl: urls.oauthUrl,
      // Where the key goes means nothing without one: kept only with AUTH_API_KEY.
      apiKeyName: dto.authType === AuthType.AUTH_API_KEY ? (dto.apiKeyName ?? null) : null,
      apiKeyIn: dto.authType === AuthType.AUTH_API_KEY ? (dto.apiKeyIn ?? null) : null,
      ...secrets,
      updatedAt: now,
      updatedBy: writer.username,
      updatedByImage: writer.picture,
    },
    tags: uniqueTags(dto.tags ?? []),
  };
}

/** The body's columns but its secrets (sealed above), as it sends them. */
const SENT_AS_IS = BODY_COLUMNS.filter((field): field is Exclude<(typeof BODY_COLUMNS)[number], SecretField> => !(SECRET_FIELDS as string[]).includes(field));

/** The columns of the body as it sends them, those it leaves out unset (CONNECTOR_FIELDS): the rules above replace the ones they shape. */
function asSent(dto: RestConnectorWriteDto): Pick<ConnectorWrite, (typeof SENT_AS_IS)[number]> {
  const unset: Partial<Record<string, unknown>> = unsetColumns();
  return Object.fromEntries(SENT_AS_IS.map((field) => [field, dto[field] ?? unset[field] ?? null])) as Pick<ConnectorWrite, (typeof SENT_AS_IS)[number]>;
}

/**
 * The write that puts a recorded snapshot back: its record fields as a PUT body (secrets as their placeholders,
 * which keep the stored ones while toConnectorWrite allows it).
 */
export function writeOfSnapshot(snapshot: RestConnectorSnapshotDto): RestConnectorWriteDto {
  return Object.fromEntries(RECORDED_FIELDS.map((field) => [field, snapshot[field]])) as unknown as RestConnectorWriteDto;
}

/**
 * A caller's `{{variable}}` in the scheme, user info, host or port of a URL that carries a secret (secretSentTo) would let
 * whoever fills it in send the secret anywhere: refused, one message per URL. The path, query and fragment may hold them.
 * The environment's plain values are filled first; a `{{env.NAME}}` left there is environmentProblems'.
 */
function variableDestinationProblems(urls: Record<UrlField, string | null>, dto: RestConnectorWriteDto, env: ConnectorEnvironment): string[] {
  return (['url', 'oauthUrl'] as const).flatMap((field) => {
    const url = urls[field] === null ? null : urlInEnvironment(urls[field], env.values);
    const carried = secretCarriedTo(field, dto);
    if (url === null || carried === null || !hasVariableDestination(url)) return [];
    const standing = placeholdersInDestination(url);
    if (standing.length > 0 && standing.every((name) => envVariableOf(name) !== null)) return [];
    const byAuth = secretSentTo(field, dto.authType, dto.grantType) !== null;
    const when = !byAuth
      ? 'a header is secret'
      : field === 'url'
        ? `authType is ${dto.authType}`
        : whenSecretIsUsed(secretsUsedBy(dto.authType, dto.grantType)[0]);
    return [
      `${field} must not have a {{variable}} in its scheme, user info, host or port while ${when}: ${carried} would go wherever the variable points. ` +
        'Write them out in full; variables may stand in the path, query and fragment',
    ];
  });
}

/** The settings of a connector that say what it needs of its environment. */
export type EnvironmentUse = Pick<RestConnector, 'url' | 'oauthUrl' | 'authType' | 'headers' | 'body'> & Pick<RestConnectorWriteDto, 'grantType'>;

/**
 * What a connector needs of its environment (a write, and a restore, which writes the stored connector back): no secret
 * variable where a URL's destination is told, every `{{env.NAME}}` in the destination of a URL that carries a secret
 * defined (envDestinationProblems), and each secret variable it uses going to one of its `destinations`
 * (secretVariableProblems). One message per problem.
 */
export function environmentProblems(connector: EnvironmentUse, env: ConnectorEnvironment): string[] {
  const destinations = (['url', 'oauthUrl'] as const).flatMap((field) =>
    envDestinationProblems(field, connector[field], env, secretCarriedTo(field, connector)),
  );
  return [...destinations, ...secretVariableProblems(secretVariablesOf(connector, env), env)];
}

/** The secret variables a connector sends, each where it goes (secretVariableBindings). */
const secretVariablesOf = (connector: EnvironmentUse, env: ConnectorEnvironment) =>
  secretVariableBindings({ ...connector, grantType: connector.grantType ?? null }, env);

/** A MULTIPART_FORM_DATA body holds parts (docs/api-contract.md, "Multipart bodies"); the other content types' bodies are text. */
function multipartBodyProblems(dto: RestConnectorWriteDto): string[] {
  if (dto.contentType !== ContentType.MULTIPART_FORM_DATA) return [];
  const reading = readMultipartParts(dto.body);
  return 'problems' in reading ? reading.problems : [];
}

/**
 * What a write's settings send to `field` that a secret binds there, in the words of a 400: the auth type's secret
 * (secretSentTo), else the secret headers, which go to `url` with the call. Null when nothing secret goes there.
 */
function secretCarriedTo(
  field: UrlField,
  dto: Pick<RestConnectorWriteDto, 'authType' | 'grantType'> & { headers?: ReadonlyArray<{ secret?: boolean }> },
): string | null {
  const byAuth = secretSentTo(field, dto.authType, dto.grantType);
  if (byAuth !== null || field !== 'url') return byAuth;
  return (dto.headers ?? []).some(({ secret }) => secret === true) ? 'the secret headers' : null;
}

/** De-duplicated case-insensitively, the first spelling kept, in the order written. */
function uniqueTags(tags: Array<{ name: string }>): TagRow[] {
  const seen = new Set<string>();
  const rows: TagRow[] = [];
  for (const { name } of tags) {
    const nameKey = name.toLowerCase();
    if (seen.has(nameKey)) continue;
    seen.add(nameKey);
    rows.push({ name, nameKey, position: rows.length });
  }
  return rows;
}
