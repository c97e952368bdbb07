import {
  BotPath,
  ConnectorHistoryRepository,
  ConsistencyScope,
  connectorSnapshot,
  InvalidInputError,
  creationOf,
  Database,
  fingerprintOf,
  FIRST_VERSION,
  IdempotencyService,
  IdempotentRequest,
  insertedAtPath,
  isDuplicateKey,
  newUuid,
  nextVersionOf,
  RestConnector,
  RestConnectorCreatedDto,
  RestConnectorDto,
  RestConnectorPath,
  RestConnectorRepository,
  RestConnectorRestoredDto,
  RestConnectorUpdatedDto,
  RestConnectorVersionPath,
  RestConnectorWriteDto,
  ReadFrom,
  ScopeService,
  SecretField,
  TagRow,
  secretContext,
  SecretCipher,
  VersionOperation,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author, versionAuthorOf } from './author';
import { Seal, toConnectorWrite, writeOfSnapshot } from './connector-write';
import { deletionBy, restorationOf } from './connector-lifecycle';
import { toRecord } from './connector-views';
import { etagOf, IfMatch } from './etag';
import { changedSecrets, fieldsChanged, sameTags } from './history/version-changes';
import {
  ConnectorBusyException,
  ConnectorChangedException,
  ConnectorInTrashException,
  ConnectorNameConflictException,
  ConnectorNotDeletedException,
  ConnectorNotFoundException,
  VersionNotFoundException,
  VersionNotRevertibleException,
} from './rest-connector.exceptions';

/** Without If-Match a write retries against the newest version this many times before a 409. */
const WRITE_ATTEMPTS = 3;

export interface WithEtag<T> {
  body: T;
  etag: string;
}

/** Create, read, update, soft delete and restore of one connector; each write records its version in its own transaction. */
@Injectable()
export class RestConnectorsService {
  constructor(
    private readonly db: Database,
    private readonly scope: ScopeService,
    private readonly connectors: RestConnectorRepository,
    private readonly history: ConnectorHistoryRepository,
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
    author: Author,
    retry?: { key: string; sentBody: unknown },
    consistency?: ConsistencyScope,
  ): Promise<RestConnectorCreatedDto> {
    if (!retry) return this.insert(path, dto, author, consistency);
    const request = {
      callerSub: author.caller.sub,
      key: retry.key,
      fingerprint: fingerprintOf('POST', `${path.orgUUID}/${path.envUUID}/${path.botUUID}`, retry.sentBody),
    };
    const replay = await this.idempotency.begin(request);
    if (replay) return { uuid: String(replay.body.uuid) };
    try {
      return await this.insert(path, dto, author, consistency, request);
    } catch (error) {
      await this.idempotency.release(request);
      throw error;
    }
  }

  /**
   * Several creates as one (an import): every connector with its tags and first version in one transaction, all or
   * none. With an Idempotency-Key, a retry of the same request gets the first one's uuids and creates nothing.
   * `route` names the operation in the key's fingerprint. Answers the uuids in the order of `dtos`.
   */
  async createAll(
    path: BotPath,
    dtos: RestConnectorWriteDto[],
    author: Author,
    retry?: { key: string; sentBody: unknown; route: string },
    consistency?: ConsistencyScope,
  ): Promise<string[]> {
    const request = retry && {
      callerSub: author.caller.sub,
      key: retry.key,
      fingerprint: fingerprintOf('POST', `${path.orgUUID}/${path.envUUID}/${path.botUUID}/${retry.route}`, retry.sentBody),
    };
    const replay = request && (await this.idempotency.begin(request));
    if (replay) return String(replay.body.uuids).split(',');
    try {
      return await this.insertAll(path, dtos, author, consistency, request);
    } catch (error) {
      if (request) await this.idempotency.release(request);
      throw error;
    }
  }

  /** One unit of work: the connector, its tags, its first version and, with an Idempotency-Key, the stored answer. */
  private async insert(
    path: BotPath,
    dto: RestConnectorWriteDto,
    author: Author,
    consistency?: ConsistencyScope,
    idempotent?: IdempotentRequest,
  ): Promise<RestConnectorCreatedDto> {
    const now = new Date();
    const { connector, tags } = this.newConnector(path, dto, author, now);
    const created = { uuid: connector.uuid };
    await this.inserting(path, connector.name, () =>
      this.db.transaction(async (tx) => {
        this.connectors.insert(tx, path, connector, tags);
        this.history.record(tx, path, creationOf(connector, tags, versionAuthorOf(author, now)));
        if (idempotent) await this.idempotency.complete(tx, idempotent, { status: 201, body: created });
      }, consistency),
    );
    return created;
  }

  private async insertAll(
    path: BotPath,
    dtos: RestConnectorWriteDto[],
    author: Author,
    consistency?: ConsistencyScope,
    idempotent?: IdempotentRequest,
  ): Promise<string[]> {
    const now = new Date();
    const written = dtos.map((dto) => this.newConnector(path, dto, author, now));
    const uuids = written.map(({ connector }) => connector.uuid);
    await this.inserting(path, written.length === 1 ? written[0].connector.name : undefined, () =>
      this.db.transaction(async (tx) => {
        for (const { connector, tags } of written) {
          this.connectors.insert(tx, path, connector, tags);
          this.history.record(tx, path, creationOf(connector, tags, versionAuthorOf(author, now)));
        }
        if (idempotent) await this.idempotency.complete(tx, idempotent, { status: 201, body: { uuids: uuids.join(',') } });
      }, consistency),
    );
    return uuids;
  }

  /**
   * A unit of work that inserts connectors at `path`, the errors it ends with as the API answers them: a name taken,
   * 409; a bot that is not at the path (the INSERT read no bot there and refused the NULL), the 404 naming the path's
   * first missing link, read on the primary like the insert. When every link is there the NULL was not the bot's,
   * and the error stands.
   */
  private async inserting(path: BotPath, name: string | undefined, write: () => Promise<void>): Promise<void> {
    const inserted = await insertedAtPath(this.unlessNameTaken(name, write));
    if (inserted.found) return;
    await this.scope.require(path, 'primary');
    throw inserted.refusal;
  }

  /** A created connector's row and tags: a new uuid, its secrets sealed for it, version 1. */
  private newConnector(path: BotPath, dto: RestConnectorWriteDto, { caller }: Author, now: Date): { connector: RestConnector; tags: TagRow[] } {
    const uuid = newUuid();
    const { values, tags } = toConnectorWrite(dto, caller, now, this.sealFor(uuid));
    return {
      connector: {
        ...values,
        uuid,
        botUuid: path.botUUID,
        createdAt: now,
        createdBy: caller.username,
        deletedAt: null,
        deletedBy: null,
        version: FIRST_VERSION,
      },
      tags,
    };
  }

  async get(path: RestConnectorPath, consistency?: ConsistencyScope): Promise<WithEtag<RestConnectorDto>> {
    const { connector, tags, flows } =
      (await this.scope.inPath(path, await this.connectors.findActiveWithRelations(path, consistency), consistency)) ?? (await this.missing(path, consistency));
    return { body: toRecord(connector, tags, flows), etag: etagOf(connector) };
  }

  /**
   * A full write. With If-Match it applies only to that exact version (else 412 naming the current ETag);
   * without, it applies to the newest version, re-reading when another write lands in between. A write that changes
   * no field answers the current ETag and writes nothing: no version, no event.
   */
  async update(
    path: RestConnectorPath,
    dto: RestConnectorWriteDto,
    author: Author,
    ifMatch?: string,
    consistency?: ConsistencyScope,
  ): Promise<WithEtag<RestConnectorUpdatedDto>> {
    return this.replace(path, dto, author, IfMatch.from(ifMatch), consistency, null);
  }

  /**
   * Puts the record of an earlier version back, as a PUT of its snapshot would (placeholders keep the stored secrets
   * while their destinations are unchanged), recorded as a revert to that version. 409 listing why when that record
   * can no longer be written (a secret it used is no longer stored, or would go elsewhere); as an update otherwise.
   */
  async revert(
    { version, ...path }: RestConnectorVersionPath,
    author: Author,
    ifMatch?: string,
    consistency?: ConsistencyScope,
  ): Promise<WithEtag<RestConnectorUpdatedDto>> {
    const target = await this.scope.inPath(path, await this.history.one(path, version, 'primary'), 'primary');
    if (target === undefined) throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    if (target === null) throw new VersionNotFoundException(path.serviceUUID, version);
    try {
      return await this.replace(path, writeOfSnapshot(target.snapshot), author, IfMatch.from(ifMatch), consistency, version);
    } catch (error) {
      if (error instanceof InvalidInputError) throw new VersionNotRevertibleException(path.serviceUUID, version, error.problems);
      throw error;
    }
  }

  private async replace(
    path: RestConnectorPath,
    dto: RestConnectorWriteDto,
    author: Author,
    condition: IfMatch | undefined,
    consistency: ConsistencyScope | undefined,
    revertedTo: number | null,
  ): Promise<WithEtag<RestConnectorUpdatedDto>> {
    for (let attempt = 1; ; attempt++) {
      const { connector: current, snapshot: before } =
        (await this.scope.inPath(path, await this.connectors.findForWrite(path), 'primary')) ?? (await this.missing(path, 'primary'));
      this.requireMatch(condition, current);
      const now = new Date();
      const { values, tags } = toConnectorWrite(dto, author.caller, now, this.sealFor(current.uuid), current);
      const step = nextVersionOf(current);
      const after = connectorSnapshot({ ...current, ...values }, tags);
      const changedFields = fieldsChanged(before, after, changedSecrets(dto, current, values, this.sameAsStored(current.uuid)));
      if (changedFields.length === 0) return { body: { message: 'Rest connector unchanged', data: current.uuid }, etag: etagOf(current) };
      const written = await this.unlessNameTaken(values.name, () =>
        this.db.transaction(async (tx) => {
          if (!(await this.connectors.update(tx, path.botUUID, current.uuid, step, values, sameTags(before, tags) ? null : tags))) return false;
          this.history.record(tx, path, {
            connectorUuid: current.uuid,
            version: step.to,
            operation: VersionOperation.UPDATED,
            ...versionAuthorOf(author, now),
            revertedTo,
            changedFields,
            snapshot: after,
          });
          return true;
        }, consistency),
      );
      if (written) {
        return {
          body: { message: revertedTo === null ? 'Rest connector updated' : `Rest connector reverted to version ${revertedTo}`, data: current.uuid },
          etag: etagOf({ version: step.to }),
        };
      }
      await this.afterLostRace(path, condition, attempt);
    }
  }

  /**
   * A soft delete; answers the connector's new ETag (its version in the trash, what a restore's If-Match names).
   * With If-Match only from that exact version (else 412); without, from the newest.
   */
  async remove(path: RestConnectorPath, author: Author, ifMatch?: string, consistency?: ConsistencyScope): Promise<string> {
    const condition = IfMatch.from(ifMatch);
    for (let attempt = 1; ; attempt++) {
      const current = await this.findActive(path, 'primary');
      this.requireMatch(condition, current);
      const now = new Date();
      const step = nextVersionOf(current);
      const deleted = await this.db.transaction(async (tx) => {
        if (!(await this.connectors.softDelete(tx, path, step, deletionBy(author.caller, now)))) return false;
        await this.history.recordUnchanged(tx, path, current.uuid, step, VersionOperation.DELETED, versionAuthorOf(author, now));
        return true;
      }, consistency);
      if (deleted) return etagOf({ version: step.to });
      await this.afterLostRace(path, condition, attempt);
    }
  }

  /**
   * A deleted connector active again exactly as it was (fields, tags, secrets; flows still name it), with a
   * new version. With If-Match only from that exact version (else 412). Two restores at once: one wins, the other
   * finds it active (409); a connector that took the name meanwhile: the unique key refuses it (409 naming it).
   */
  async restore(path: RestConnectorPath, author: Author, ifMatch?: string, consistency?: ConsistencyScope): Promise<WithEtag<RestConnectorRestoredDto>> {
    const condition = IfMatch.from(ifMatch);
    for (let attempt = 1; ; attempt++) {
      const current = await this.findAny(path);
      if (current.deletedAt === null) throw new ConnectorNotDeletedException(current.uuid);
      this.requireMatch(condition, current);
      const step = nextVersionOf(current);
      const restored = await this.unlessNameTaken(current.name, () =>
        this.db.transaction(async (tx) => {
          if (!(await this.connectors.restore(tx, path, step, restorationOf(current)))) return false;
          await this.history.recordUnchanged(tx, path, current.uuid, step, VersionOperation.RESTORED, versionAuthorOf(author, new Date()));
          return true;
        }, consistency),
      );
      if (restored) return { body: { message: 'Rest connector restored', data: current.uuid }, etag: etagOf({ version: step.to }) };
      await this.afterLostRace(path, condition, attempt);
    }
  }

  /** A 412 naming the current ETag when If-Match does not name the version found. */
  private requireMatch(condition: IfMatch | undefined, current: Pick<RestConnector, 'uuid' | 'version'>): void {
    if (condition && !condition.accepts(etagOf(current))) throw new ConnectorChangedException(current.uuid, etagOf(current));
  }

  /**
   * Another write landed between the read and the conditional write. With If-Match: the 412, naming the version
   * that won; without: try again from the newest version, up to WRITE_ATTEMPTS, then 409.
   */
  private async afterLostRace(path: RestConnectorPath, condition: IfMatch | undefined, attempt: number): Promise<void> {
    if (condition) {
      const now = await this.findAny(path);
      throw new ConnectorChangedException(now.uuid, etagOf(now));
    }
    if (attempt === WRITE_ATTEMPTS) throw new ConnectorBusyException(path.serviceUUID);
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

  /** The connector of the path, active or in the trash, from the primary (a write follows), or its 404. */
  private async findAny(path: RestConnectorPath): Promise<RestConnector> {
    const any = await this.scope.inPath(path, await this.connectors.findAny(path, 'primary'), 'primary');
    if (!any) throw new ConnectorNotFoundException(path.botUUID, path.serviceUUID);
    return any;
  }

  private sealFor(connectorUuid: string): Seal {
    return (field, plaintext) => this.cipher.encrypt(plaintext, secretContext(connectorUuid, field));
  }

  /** Whether a sent secret is the stored one: decrypted in memory for the comparison only. One that no key decrypts counts as changed. */
  private sameAsStored(connectorUuid: string): (field: SecretField, sealed: string, plaintext: string) => boolean {
    return (field, sealed, plaintext) => {
      try {
        return this.cipher.decrypt(sealed, secretContext(connectorUuid, field)) === plaintext;
      } catch {
        return false;
      }
    };
  }

  /** The active connector of the path, secrets sealed, or its 404. A write reads from the primary, a plain read from a replica (see ReadFrom). */
  async findActive(path: RestConnectorPath, from?: ReadFrom): Promise<RestConnector> {
    // Only when nothing is found: which link is missing, the path's or the connector.
    return (await this.scope.inPath(path, await this.connectors.findActive(path, from), from)) ?? (await this.missing(path, from));
  }

  /** The database keeps active names unique per bot; its duplicate-key error becomes a 409. */
  /** `name`: the one name written, or undefined when several were (the 409 then says one of them is taken). */
  private async unlessNameTaken<T>(name: string | undefined, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isDuplicateKey(error)) throw new ConnectorNameConflictException(name);
      throw error;
    }
  }
}
