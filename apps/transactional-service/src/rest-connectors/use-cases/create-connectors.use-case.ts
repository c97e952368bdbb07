import {
  BotPath,
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  ConsistencyScope,
  creationOf,
  Database,
  fingerprintOf,
  FIRST_VERSION,
  IdempotencyService,
  IdempotentRequest,
  insertedAtPath,
  newUuid,
  RestConnector,
  RestConnectorCreatedDto,
  RestConnectorRepository,
  RestConnectorWriteDto,
  ScopeService,
  StoredAnswer,
  TagRow,
  Transaction,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author, versionAuthorOf } from '../author';
import { ConnectorEnvironments } from '../connector-environment';
import { toConnectorWrite } from '../connector-write';
import { ConnectorEnvironment } from '../env-destinations';
import { unlessNameTaken } from './name-taken';
import { SecretSealing } from './secret-sealing';

/** A connector ready to insert: the write rules passed, its secrets sealed for its new uuid, version 1. */
export interface NewConnector {
  connector: RestConnector;
  tags: TagRow[];
}

/** An Idempotency-Key and the body as it was sent (the key's fingerprint). */
export interface CreateRetry {
  key: string;
  sentBody: unknown;
}

export interface CreateConnectorCommand {
  path: BotPath;
  dto: RestConnectorWriteDto;
  author: Author;
  retry?: CreateRetry;
  consistency?: ConsistencyScope;
}

export interface CreateConnectorsCommand {
  path: BotPath;
  /** Each prepared once (`prepare`). */
  connectors: readonly NewConnector[];
  author: Author;
  /** `route`: the operation under the bot's path that creates them, in the key's fingerprint. */
  retry?: CreateRetry & { route: string };
  consistency?: ConsistencyScope;
}

/** Connectors to create as one, decided once the Idempotency-Key is taken (a retry is answered before). */
export interface CreateBatch {
  connectors: readonly NewConnector[];
  /** Further writes of the same unit of work (an import's updates of existing connectors); throwing undoes it all. */
  within?: (tx: Transaction) => Promise<void>;
  /** What the request answers, stored for a retry with the same key. */
  answer: StoredAnswer;
}

export interface CreateBatchCommand extends Omit<CreateConnectorsCommand, 'connectors'> {
  batch: () => Promise<CreateBatch>;
}

/**
 * Creates connectors: one (`POST …/rest-connectors`) or several as one (an import), each with its tags, its first
 * version and its change event, all in one unit of work. The write rules and the sealing run once per connector
 * (`prepare`); with an Idempotency-Key, a retry of the same request answers the first one's uuids and creates nothing.
 */
@Injectable()
export class CreateConnectors {
  constructor(
    private readonly db: Database,
    private readonly scope: ScopeService,
    private readonly connectors: RestConnectorRepository,
    private readonly history: ConnectorHistoryRepository,
    private readonly outbox: ConnectorEventOutbox,
    private readonly sealing: SecretSealing,
    private readonly idempotency: IdempotencyService,
    private readonly environments: ConnectorEnvironments,
  ) {}

  /**
   * A connector to create from a validated body: the write rules in the path's environment `env` (an InvalidInputError
   * listing every problem), a new uuid, its secrets sealed for it.
   */
  prepare(path: BotPath, dto: RestConnectorWriteDto, { caller }: Author, env: ConnectorEnvironment, now = new Date()): NewConnector {
    const uuid = newUuid();
    const { values, tags } = toConnectorWrite(dto, caller, now, this.sealing.sealFor(uuid), undefined, env);
    const connector = {
      ...values,
      uuid,
      botUuid: path.botUUID,
      createdAt: now,
      createdBy: caller.username,
      deletedAt: null,
      deletedBy: null,
      version: FIRST_VERSION,
    };
    return { connector, tags };
  }

  /** One connector. Its key is taken before the write rules run: a retry of a refused body is refused again, and frees the key again. */
  async one({ path, dto, author, retry, consistency }: CreateConnectorCommand): Promise<RestConnectorCreatedDto> {
    const request = retry && this.requestOf(path, author, retry, '');
    return this.idempotency.once(
      request,
      async (idempotent) => {
        const created = this.prepare(path, dto, author, await this.environments.of(path));
        const answer = { uuid: created.connector.uuid };
        await this.insert(path, [created], author, consistency, idempotent, answer);
        return answer;
      },
      (replay) => ({ uuid: String(replay.body.uuid) }),
    );
  }

  /** Several as one, all or none. Answers the uuids in the order of `connectors`. */
  async many({ connectors, ...command }: CreateConnectorsCommand): Promise<string[]> {
    const answer = await this.batch({
      ...command,
      batch: async () => ({ connectors, answer: { uuids: connectors.map(({ connector }) => connector.uuid).join(',') } }),
    });
    return String(answer.uuids).split(',');
  }

  /**
   * Several as one, with the further writes of the same unit of work (`within`), all or none; `batch` runs once the
   * Idempotency-Key is taken, so a retry of a completed request gets its stored answer and decides nothing again.
   */
  async batch({ path, author, retry, consistency, batch }: CreateBatchCommand): Promise<StoredAnswer> {
    const request = retry && this.requestOf(path, author, retry, `/${retry.route}`);
    return this.idempotency.once(
      request,
      async (idempotent) => {
        const { connectors, within, answer } = await batch();
        await this.insert(path, connectors, author, consistency, idempotent, answer, within);
        return answer;
      },
      (replay) => replay.body,
    );
  }

  private requestOf(path: BotPath, { caller }: Author, retry: CreateRetry, route: string): IdempotentRequest {
    const target = `${path.orgUUID}/${path.envUUID}/${path.botUUID}${route}`;
    return { callerSub: caller.sub, key: retry.key, fingerprint: fingerprintOf('POST', target, retry.sentBody) };
  }

  /**
   * One unit of work: each connector, its tags, its first version and its change event; with an Idempotency-Key, the
   * answer stored for a retry (`answer`). Ends as the API answers: a name taken, 409; a bot that is not at the path (the INSERT read no bot
   * there and refused the NULL), the 404 naming the path's first missing link, read on the primary like the insert.
   * When every link is there the NULL was not the bot's, and the error stands.
   */
  private async insert(
    path: BotPath,
    created: readonly NewConnector[],
    author: Author,
    consistency: ConsistencyScope | undefined,
    idempotent: IdempotentRequest | undefined,
    answer: StoredAnswer,
    within?: (tx: Transaction) => Promise<void>,
  ): Promise<void> {
    const inserted = await insertedAtPath(
      unlessNameTaken(created.length === 1 ? created[0].connector.name : undefined, () =>
        this.db.transaction(async (tx) => {
          for (const { connector, tags } of created) {
            const version = creationOf(connector, tags, versionAuthorOf(author, connector.createdAt));
            this.connectors.insert(tx, path, connector, tags);
            this.history.record(tx, version);
            this.outbox.append(tx, path, version);
          }
          if (within) await within(tx);
          if (idempotent) await this.idempotency.complete(tx, idempotent, { status: 201, body: answer });
        }, consistency),
      ),
    );
    if (inserted.found) return;
    await this.scope.require(path, 'primary');
    throw inserted.refusal;
  }
}
