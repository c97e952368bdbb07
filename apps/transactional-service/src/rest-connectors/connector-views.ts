import { FlowRef, PageRow, RestConnector, RestConnectorDto, RestConnectorPageDto, RestConnectorPageItemDto, SECRET_FIELDS, SECRET_PLACEHOLDERS, TagRef } from '@app/domain';

/** The full record, in the seed's field order; a set secret appears only as its placeholder. */
export function toRecord(connector: RestConnector, tags: TagRef[], flows: FlowRef[]): RestConnectorDto {
  const secrets = Object.fromEntries(
    SECRET_FIELDS.map((field) => [field, connector[field] === null ? null : SECRET_PLACEHOLDERS[field]]),
  );
  return {
    uuid: connector.uuid,
    name: connector.name,
    description: connector.description,
    requestType: connector.requestType,
    url: connector.url,
    headers: connector.headers,
    contentType: connector.contentType,
    authType: connector.authType,
    grantType: connector.grantType,
    basicToken: secrets.basicToken,
    bearerToken: secrets.bearerToken,
    clientId: connector.clientId,
    clientSecret: secrets.clientSecret,
    oauthUrl: connector.oauthUrl,
    authUsername: connector.authUsername,
    authPassword: secrets.authPassword,
    body: connector.body,
    output: connector.output,
    tags,
    flows,
    updatedAt: connector.updatedAt.toISOString(),
    updatedBy: connector.updatedBy,
  };
}

export function toPageItem(row: PageRow, tags: TagRef[], flows: FlowRef[]): RestConnectorPageItemDto {
  return {
    uuid: row.uuid,
    name: row.name,
    flows,
    tags,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    user: { username: row.updatedBy, image: row.updatedByImage },
  };
}

const SORTED = { empty: false, sorted: true, unsorted: false };

/** Spring Data's `Page`: `number` is 0-based, `page` (the query) 1-based. */
export function toPage(
  content: RestConnectorPageItemDto[],
  totalElements: number,
  page: number,
  size: number,
): RestConnectorPageDto {
  const number = page - 1;
  const totalPages = Math.ceil(totalElements / size);
  return {
    content,
    pageable: { pageNumber: number, pageSize: size, offset: number * size, paged: true, unpaged: false, sort: SORTED },
    totalPages,
    totalElements,
    last: number >= totalPages - 1,
    size,
    number,
    sort: SORTED,
    numberOfElements: content.length,
    first: number === 0,
    empty: content.length === 0,
  };
}
