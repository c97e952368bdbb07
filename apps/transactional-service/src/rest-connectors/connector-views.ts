import { connectorRecord, ConnectorView, FlowRef, PageRow, RestConnectorDto, RestConnectorPageItemDto, SpringPageDto, TagRef } from '@app/domain';

/** The full record, in the seed's field order: the snapshot a version keeps, with the flows that use the connector. */
export function toRecord(connector: ConnectorView, tags: TagRef[], flows: FlowRef[]): RestConnectorDto {
  return connectorRecord(connector, tags, flows);
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
export function toPage<T>(content: T[], totalElements: number, page: number, size: number): SpringPageDto & { content: T[] } {
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
