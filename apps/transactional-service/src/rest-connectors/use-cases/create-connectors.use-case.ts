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
  tagReadCopy,
  StoredAnswer,
  TagRow,
  Transaction,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author, versionAuthorOf } from '../author';
import { ConnectorEnvironments } from '../connector-environment';
import { toConnectorWrite } from '../connector-write';
import { ConnectorEnvironment, refersToEnvironment } from '../env-destinations';
import { EnvironmentChangedException } from '../rest-connector.exceptions';
import { unlessNameTaken } from './name-taken';
import { SecretSealing } from './secret-sealing';

/** A single create whose environment keeps changing under it is checked again this many times before the 409. */
const WRITE_ATTEMPTS = 3;

/** A connector ready to insert: the write rules passed, its secrets sealed for its new uuid, version 1. */
export interface NewConnector {
  connector: RestConnector;
  tags: TagRow[];
  /** The version of the environment's connector variables it was checked against, when it refers to a `{{env.NAME}}` (held in the unit of work). */
  environmentVersion: number | null;
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
  /** The version of the environment's connector variables `within`'s writes were checked against, when one of them depends on it. */
  environmentVersion?: number | null;
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
   * listing every problem), a new uuid, its secrets sealed for it, the read copy of its tags, and no flows (no flow can
   * name a uuid made here).
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
      ...tagReadCopy(tags),
      flowsJson: [],
    };
    return { connector, tags, environmentVersion: refersToEnvironment(connector) ? env.version : null };
  }

  /**
   * One connector. Its key is taken before the write rules run: a retry of a refused body is refused again, and frees the
   * key again. One that refers to its environment and finds it changed in its unit of work is checked again (as an
   * update is: ConditionalWrites), up to WRITE_ATTEMPTS times.
   */
  async one({ path, dto, author, retry, consistency }: CreateConnectorCommand): Promise<RestConnectorCreatedDto> {
    const request = retry && this.requestOf(path, author, retry, '');
    return this.idempotency.once(
      request,
      async (idempotent) => {
        for (let attempt = 1; ; attempt++) {
          const created = this.prepare(path, dto, author, await this.environments.forWrite(path, dto));
          const answer = { uuid: created.connector.uuid };
          try {
            await this.insert(path, [created], author, consistency, idempotent, answer);
            return answer;
          } catch (error) {
            if (!(error instanceof EnvironmentChangedException) || attempt === WRITE_ATTEMPTS) throw error;
          }
        }
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
        const { connectors, within, answer, environmentVersion = null } = await batch();
        await this.insert(path, connectors, author, consistency, idempotent, answer, within, environmentVersion);
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
   * One unit of work: first, when any write of it depends on the environment (`environmentVersion`, or a connector's),
   * the environment held at the version they were checked against (ConnectorEnvironments.hold: else
   * EnvironmentChangedException, nothing written); each connector, its tags, its first version and its change event; with an Idempotency-Key, the
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
    environmentVersion: number | null = null,
  ): Promise<void> {
    const checkedAgainst = environmentVersion ?? created.find((one) => one.environmentVersion !== null)?.environmentVersion ?? null;
    const inserted = await insertedAtPath(
      unlessNameTaken(created.length === 1 ? created[0].connector.name : undefined, () =>
        this.db.transaction(async (tx) => {
          await this.environments.hold(tx, path, checkedAgainst);
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
