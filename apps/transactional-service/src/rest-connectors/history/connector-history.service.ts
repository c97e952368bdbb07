import {
  BotPath,
  ConsistencyScope,
  ConnectorHistoryRepository,
  HiddenChange,
  isSecretHeader,
  ConnectorRelationsRepository,
  DeletedRestConnectorPageDto,
  HistoryPageQueryDto,
  RECORDED_FIELDS,
  RestConnectorPath,
  RestConnectorVersionDetailDto,
  RestConnectorVersionDiffDto,
  RestConnectorVersionDiffPath,
  RestConnectorVersionDto,
  RestConnectorVersionPageDto,
  RestConnectorVersionPath,
  ScopeService,
  SECRET_FIELDS,
  SecretField,
  VersionSummary,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { toPage } from '../connector-views';
import { etagOf } from '../etag';
import { ConnectorNotFoundException, VersionNotFoundException } from '../rest-connector.exceptions';

/** A version as the page lists it. */
function toVersion(row: VersionSummary): RestConnectorVersionDto {
  return {
    version: row.version,
    operation: row.operation,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    user: { username: row.updatedBy, image: row.updatedByImage },
    sub: row.updatedBySub,
    requestId: row.requestId,
    reason: row.reason,
    revertedTo: row.revertedTo,
    promotionId: row.promotionId,
    changedFields: row.changedFields,
  };
}

const isSecret = (field: string): field is SecretField => (SECRET_FIELDS as readonly string[]).includes(field);

/** The reads of history and trash: a connector's versions (deleted connectors' too) and the bot's deleted connectors. */
@Injectable()
export class ConnectorHistoryService {
  constructor(
    private readonly scope: ScopeService,
    private readonly history: ConnectorHistoryRepository,
    private readonly relations: ConnectorRelationsRepository,
  ) {}

  async versions(path: RestConnectorPath, { page, linesPerPage }: HistoryPageQueryDto, consistency?: ConsistencyScope): Promise<RestConnectorVersionPageDto> {
    const found = await this.scope.inPath(path, await this.history.page(path, (page - 1) * linesPerPage, linesPerPage, consistency), consistency);
    if (!found) throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    return toPage(found.rows.map(toVersion), found.total, page, linesPerPage);
  }

  async version(path: RestConnectorVersionPath, consistency?: ConsistencyScope): Promise<RestConnectorVersionDetailDto> {
    const found = await this.scope.inPath(path, await this.history.one(path, path.version, consistency), consistency);
    if (found === undefined) throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    if (found === null) throw new VersionNotFoundException(path.serviceUUID, path.version);
    return { ...toVersion(found), snapshot: found.snapshot };
  }

  /**
   * What changed in the record from `version` to `otherVersion` (either may be the newer): the fields whose snapshot
   * values differ and the secrets a write between them changed, secrets shown as placeholders only; the headers too
   * when both hold a secret header and a write between them changed the headers (a secret header's value, unseen).
   */
  async diff(path: RestConnectorVersionDiffPath, consistency?: ConsistencyScope): Promise<RestConnectorVersionDiffDto> {
    const [from, to] = await Promise.all([this.version({ ...path }, consistency), this.version({ ...path, version: path.otherVersion }, consistency)]);
    const secrets = await this.history.secretsChangedBetween(path, Math.min(from.version, to.version), Math.max(from.version, to.version), consistency);
    const hidesSecretHeader = [from, to].every(({ snapshot }) => snapshot.headers.some(isSecretHeader));
    const hiddenChange = (field: string) => (isSecret(field) || (field === 'headers' && hidesSecretHeader)) && secrets.includes(field as HiddenChange);
    const changes = RECORDED_FIELDS.filter(
      (field) => hiddenChange(field) || (!isSecret(field) && !isDeepStrictEqual(from.snapshot[field], to.snapshot[field])),
    ).map((field) => ({ field, from: from.snapshot[field], to: to.snapshot[field] }));
    return { from: from.version, to: to.version, changes };
  }

  async trash(path: BotPath, { page, linesPerPage }: HistoryPageQueryDto, consistency?: ConsistencyScope): Promise<DeletedRestConnectorPageDto> {
    const found = (await this.scope.inPath(path, await this.history.trash(path, (page - 1) * linesPerPage, linesPerPage, consistency), consistency)) ?? {
      rows: [],
      total: 0,
    };
    const { tags } = await this.relations.of(
      path.botUUID,
      found.rows.map((row) => row.uuid),
      consistency,
    );
    const content = found.rows.map((row) => ({
      uuid: row.uuid,
      name: row.name,
      tags: tags.get(row.uuid) ?? [],
      deletedAt: row.deletedAt!.toISOString(),
      deletedBy: row.deletedBy ?? '',
      version: row.version,
      etag: etagOf(row),
    }));
    return toPage(content, found.total, page, linesPerPage);
  }
}
