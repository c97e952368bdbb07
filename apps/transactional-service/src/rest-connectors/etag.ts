import { RestConnector } from '@app/domain';

/** The strong ETag of a connector's current state; every write bumps `version`. */
export function etagOf(connector: Pick<RestConnector, 'version'>): string {
  return `"v${connector.version}"`;
}

/** RFC 9110 If-Match: `*` or a list of strong ETags; a weak ETag never matches. */
export function ifMatchAccepts(header: string, etag: string): boolean {
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag;
  });
}
