import { ConnectorWrite, RestConnector, RestConnectorWriteDto, SecretField, SECRET_FIELDS, SECRETS, secretsUsedBy, TagRow } from '@app/domain';
import { BadRequestException } from '@nestjs/common';
import { destinationOf } from './destination';

export interface Writer {
  username: string;
  picture: string | null;
}

/** Encrypts a new secret value for storage (see SecretCipher). */
export type Seal = (field: SecretField, plaintext: string) => string;

/**
 * Turns a validated write body into the columns of a full write. Secrets the auth type does not use
 * are discarded; a new secret is sealed; a secret's placeholder keeps the stored (sealed) value, but only
 * while the URL it is sent to keeps its scheme and authority; any rule broken is a 400 listing every field.
 */
export function toConnectorWrite(
  dto: RestConnectorWriteDto,
  writer: Writer,
  now: Date,
  seal: Seal,
  stored?: RestConnector,
): { values: ConnectorWrite; tags: TagRow[] } {
  const problems: string[] = [];
  const used = secretsUsedBy(dto.authType, dto.grantType);
  const secrets = Object.fromEntries(
    SECRET_FIELDS.map((field) => {
      const sent = dto[field];
      if (!used.includes(field) || sent === undefined || sent === null) return [field, null];
      if (sent !== SECRETS[field].placeholder) return [field, seal(field, sent)];
      const kept = stored?.[field] ?? null;
      const { destination } = SECRETS[field];
      if (kept === null) {
        problems.push(`${field} must be the secret itself: ${sent} only stands for a stored one, and none is stored`);
      } else if (destinationOf(dto[destination]) !== destinationOf(stored?.[destination])) {
        problems.push(`${field} must be sent again: ${destination} now points elsewhere (scheme, host, port or user info) than the stored secret`);
      }
      return [field, kept];
    }),
  ) as Pick<ConnectorWrite, (typeof SECRET_FIELDS)[number]>;
  if (problems.length > 0) throw new BadRequestException(problems);

  const name = dto.name;
  return {
    values: {
      name,
      nameKey: name.toLowerCase(),
      activeNameKey: name.toLowerCase(),
      description: dto.description ?? null,
      requestType: dto.requestType,
      url: dto.url,
      headers: (dto.headers ?? []).map(({ header, value }) => ({ header, value })),
      contentType: dto.contentType,
      authType: dto.authType,
      grantType: dto.grantType ?? null,
      clientId: dto.clientId ?? null,
      oauthUrl: dto.oauthUrl ?? null,
      authUsername: dto.authUsername ?? null,
      ...secrets,
      body: dto.body,
      output: dto.output,
      updatedAt: now,
      updatedBy: writer.username,
      updatedByImage: writer.picture,
    },
    tags: uniqueTags(dto.tags ?? []),
  };
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
