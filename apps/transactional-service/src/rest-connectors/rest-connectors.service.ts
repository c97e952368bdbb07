import { BotNotFoundException, BotPath, ConnectorRelationsRepository, Database, fingerprintOf, IdempotencyService, IdempotentRequest, isDuplicateKey, newUuid, RestConnector, RestConnectorCreatedDto, RestConnectorDto, RestConnectorPath, RestConnectorRepository, RestConnectorUpdatedDto, RestConnectorWriteDto, ReadFrom, ScopeService, secretContext, SecretCipher } from '@app/domain';
import { Caller } from '@app/platform';
import { ConflictException, Injectable } from '@nestjs/common';
import { Seal, toConnectorWrite } from './connector-write';
import { deletionBy } from './connector-lifecycle';
import { toRecord } from './connector-views';
import { etagOf, ifMatchAccepts } from './etag';
import { ConnectorChangedException, ConnectorNameConflictException, ConnectorNotFoundException } from './rest-connector.exceptions';

/** Without If-Match a write retries against the newest version this many times before a 409. */
const WRITE_ATTEMPTS = 3;

export interface WithEtag<T> {
  body: T;
  etag: string;
}

/** Create, read, update and soft delete of one connector. */
@Injectable()
export class RestConnectorsService {
  constructor(
    private readonly db: Database,
    private readonly scope: ScopeService,
    private readonly connectors: RestConnectorRepository,
    private readonly relations: ConnectorRelationsRepository,
    private readonly cipher: SecretCipher,
    private readonly idempotency: IdempotencyService,
  ) {}

  /**
   * With an Idempotency-Key, a retry of the same request returns the first answer and creates nothing;
   * the answer is stored in the transaction that creates the connector, so it is never lost or doubled.
   */
  async create(
    path: BotPath,
    dto: RestConnectorWriteDto,
    caller: Caller,
    retry?: { key: string; sentBody: unknown },
  ): Promise<RestConnectorCreatedDto> {
    if (!retry) return this.insert(path, dto, caller);
    const request = {
      callerSub: caller.sub,
      key: retry.key,
      fingerprint: fingerprintOf('POST', `${path.orgUUID}/${path.envUUID}/${path.botUUID}`, retry.sentBody),
    };
    const replay = await this.idempotency.begin(request);
    if (replay) return { uuid: String(replay.body.uuid) };
    try {
      return await this.insert(path, dto, caller, request);
    } catch (error) {
      await this.idempotency.release(request);
      throw error;
    }
  }

  /** One unit of work: the connector, its tags and, with an Idempotency-Key, the stored answer. */
  private async insert(path: BotPath, dto: RestConnectorWriteDto, caller: Caller, idempotent?: IdempotentRequest): Promise<RestConnectorCreatedDto> {
    const now = new Date();
    const uuid = newUuid();
    const { values, tags } = toConnectorWrite(dto, caller, now, this.sealFor(uuid));
    const connector: RestConnector = {
      ...values,
      uuid,
      botUuid: path.botUUID,
      createdAt: now,
      createdBy: caller.username,
      deletedAt: null,
      deletedBy: null,
      version: 1,
    };
    const created = { uuid: connector.uuid };
    const inserted = await this.unlessNameTaken(values.name, () =>
      this.db.transaction(async (tx) => {
        const answer = await this.connectors.insert(tx, path, connector, tags);
        if (idempotent && typeof answer === 'string') await this.idempotency.complete(tx, idempotent, { status: 201, body: created });
        return answer;
      }),
    );
    // Not inserted: the 404 names the path's missing link (on the primary, like the insert).
    await this.scope.resolve(path, inserted, () => {
      throw new BotNotFoundException(path.envUUID, path.botUUID);
    }, 'primary');
    return created;
  }

  async get(path: RestConnectorPath): Promise<WithEtag<RestConnectorDto>> {
    // Both at once: the tags and flows need only the ids of the path, and are dropped if the connector is not found.
    const [connector, { tags, flows }] = await Promise.all([
      this.findActive(path, 'replica'),
      this.relations.of(path.botUUID, [path.serviceUUID]),
    ]);
    return { body: toRecord(connector, tags.get(connector.uuid) ?? [], flows.get(connector.uuid) ?? []), etag: etagOf(connector) };
  }

  /**
   * A full write. With If-Match it applies only to that exact version (else 412); without, it applies
   * to the newest version, re-reading when another write lands in between.
   */
  async update(
    path: RestConnectorPath,
    dto: RestConnectorWriteDto,
    caller: Caller,
    ifMatch?: string,
  ): Promise<WithEtag<RestConnectorUpdatedDto>> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.findActive(path, 'primary');
      if (ifMatch !== undefined && !ifMatchAccepts(ifMatch, etagOf(current))) {
        throw new ConnectorChangedException(current.uuid);
      }
      const { values, tags } = toConnectorWrite(dto, caller, new Date(), this.sealFor(current.uuid), current);
      const written = await this.unlessNameTaken(values.name, () =>
        this.db.transaction((tx) => this.connectors.update(tx, path.botUUID, current.uuid, current.version, values, tags)),
      );
      if (written) {
        return { body: { message: 'Rest connector updated', data: current.uuid }, etag: etagOf({ version: current.version + 1 }) };
      }
      if (ifMatch !== undefined) throw new ConnectorChangedException(current.uuid);
      if (attempt === WRITE_ATTEMPTS) {
        throw new ConflictException(`Rest connector ${current.uuid} is being changed by others; retry`);
      }
    }
  }

  async remove(path: RestConnectorPath, caller: Caller): Promise<void> {
    const deleted = await this.connectors.softDelete(path, deletionBy(caller, new Date()));
    await this.scope.resolve(path, deleted, () => {
      throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    }, 'primary');
  }

  private sealFor(connectorUuid: string): Seal {
    return (field, plaintext) => this.cipher.encrypt(plaintext, secretContext(connectorUuid, field));
  }

  /** The active connector of the path, secrets sealed, or its 404. A write reads from the primary, a plain read from a replica (see ReadFrom). */
  async findActive(path: RestConnectorPath, from: ReadFrom): Promise<RestConnector> {
    // Only when nothing is found: which link is missing, the path's or the connector.
    return this.scope.resolve(path, await this.connectors.findActive(path, from), () => {
      throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    }, from);
  }

  /** The database keeps active names unique per bot; its duplicate-key error becomes a 409. */
  private async unlessNameTaken<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isDuplicateKey(error)) throw new ConnectorNameConflictException(name);
      throw error;
    }
  }
}
