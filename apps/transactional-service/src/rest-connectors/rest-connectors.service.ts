import {
  ConsistencyScope,
  ConnectorForWrite,
  RestConnector,
  RestConnectorDto,
  RestConnectorPath,
  RestConnectorRepository,
  ReadFrom,
  ScopeService,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { toRecord } from './connector-views';
import { etagOf, WithEtag } from './etag';
import { ConnectorInTrashException, ConnectorNotFoundException } from './rest-connector.exceptions';

/**
 * The reads of one connector, each in the path's scope or its 404: what a get answers, and what the writes
 * (use-cases/) and test runs read before they act.
 */
@Injectable()
export class RestConnectorsService {
  constructor(
    private readonly scope: ScopeService,
    private readonly connectors: RestConnectorRepository,
  ) {}

  async get(path: RestConnectorPath, consistency?: ConsistencyScope): Promise<WithEtag<RestConnectorDto>> {
    const { connector, tags, flows } =
      (await this.scope.inPath(path, await this.connectors.findActiveWithRelations(path, consistency), consistency)) ?? (await this.missing(path, consistency));
    return { body: toRecord(connector, tags, flows), etag: etagOf(connector) };
  }

  /** The active connector of the path, secrets sealed, or its 404. A write reads from the primary, a plain read from a replica (see ReadFrom). */
  async findActive(path: RestConnectorPath, from?: ReadFrom): Promise<RestConnector> {
    // Only when nothing is found: which link is missing, the path's or the connector.
    return (await this.scope.inPath(path, await this.connectors.findActive(path, from), from)) ?? (await this.missing(path, from));
  }

  /** The active connector with the record its version left, from the primary (an update follows), or its 404. */
  async findForWrite(path: RestConnectorPath): Promise<ConnectorForWrite> {
    return (await this.scope.inPath(path, await this.connectors.findForWrite(path), 'primary')) ?? (await this.missing(path, 'primary'));
  }

  /** The connector of the path, active or in the trash, from the primary (a write follows), or its 404. */
  async findAny(path: RestConnectorPath): Promise<RestConnector> {
    const any = await this.scope.inPath(path, await this.connectors.findAny(path, 'primary'), 'primary');
    if (!any) throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    return any;
  }

  /**
   * The 404 of a connector the path's bot has no active connector for: one in the trash says so and how to
   * restore it (one more query, on the 404 only).
   */
  private async missing(path: RestConnectorPath, from?: ReadFrom): Promise<never> {
    const any = await this.connectors.findAny(path, from);
    if (any.found && any.value.deletedAt !== null) throw new ConnectorInTrashException(path, any.value);
    throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
  }
}
