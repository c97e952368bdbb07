import {
  CHANGE_REASON_MAX_LENGTH,
  ConnectorEventOutbox,
  ConnectorHistoryRepository,
  ConnectorVariableRepository,
  ConnectorVariablesWrittenDto,
  ConsistencyScope,
  Database,
  EnvironmentPath,
  MovedConnectorSecretsDto,
  newUuid,
  ScopeService,
  SecretCipher,
  shownHeaders,
  StoredVariableRow,
  Transaction,
  variableSecretContext,
  VersionOperation,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Author, versionAuthorOf } from '../../rest-connectors/author';
import { IfMatch } from '../../rest-connectors/etag';
import { ConnectorVariablesBusyException, ConnectorVariablesChangedException, DestinationsMovedException } from '../connector-variables.exceptions';
import { NextVariable, planVariableSet, VariableSeal, VariableSetPlan, withMovedSecretsCleared } from '../variable-set-plan';
import { answerOf, variablesEtagOf } from '../variable-views';

/** Without If-Match a write retries against the newest set this many times before a 409. */
const WRITE_ATTEMPTS = 3;

/** How a write of a set is made, beside the set itself. */
export interface VariableWriteOptions {
  /** The promotion that makes the write, recorded on its version and carried by its event. */
  promotionId?: string | null;
  /** Why, when the author's Change-Reason does not say it (a promotion's own words). */
  reason?: string | null;
  /** Clear what the new values move rather than refuse with 409 DESTINATIONS_MOVED. */
  confirmDestinationMoves?: boolean;
  /** The If-Match condition: applies only over the version it names (412 otherwise). */
  condition?: IfMatch;
}

/** What a write did: the set's version after it (unchanged: the current one), and what a confirmed move cleared. */
export interface VariableWriteResult {
  written: boolean;
  version: number;
  rows: StoredVariableRow[];
  clearedSecrets: MovedConnectorSecretsDto[];
  clearedVariables: string[];
}

/** Thrown inside a unit of work that lost a race (another write came first): rolls it back. */
class LostRace extends Error {}

/**
 * The writes of an environment's connector variables (docs/api-contract.md, "Connector variables"): the whole set
 * (PUT), and, for the parts that write sets of their own (promotions, imports), `applyInTransaction` inside their unit of
 * work and `addMissing`. Every write: the rules (variable-set-plan.ts), one unit of work that steps the set's version
 * over the one read (optimistic, as a connector's), replaces the rows, records the version and appends its change
 * event; a confirmed destination move clears the moved secrets of the environment's connectors there too, each a
 * new connector version (UPDATED) with its own change event.
 */
@Injectable()
export class ConnectorVariableWrites {
  constructor(
    private readonly db: Database,
    private readonly scope: ScopeService,
    private readonly variables: ConnectorVariableRepository,
    private readonly history: ConnectorHistoryRepository,
    private readonly outbox: ConnectorEventOutbox,
    private readonly cipher: SecretCipher,
  ) {}

  /** `PUT …/connector-variables`: the whole set, with If-Match (412) or against the newest set (retried, then 409). */
  async put(
    path: EnvironmentPath,
    next: readonly NextVariable[],
    author: Author,
    { ifMatch, confirmDestinationMoves = false, consistency }: { ifMatch?: string; confirmDestinationMoves?: boolean; consistency?: ConsistencyScope },
  ): Promise<{ body: ConnectorVariablesWrittenDto; etag: string }> {
    const condition = IfMatch.from(ifMatch);
    await this.scope.require(path, 'primary');
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.db.transaction((tx) => this.applyInTransaction(tx, path, next, author, { condition, confirmDestinationMoves }), consistency);
        return { body: answerOf(result), etag: variablesEtagOf(result.version) };
      } catch (error) {
        if (!(error instanceof LostRace)) throw error;
        if (condition) {
          const now = await this.variables.findStored(path, 'primary');
          throw new ConnectorVariablesChangedException(path.envUUID, variablesEtagOf(now.found ? now.value.version : 0));
        }
        if (attempt === WRITE_ATTEMPTS) throw new ConnectorVariablesBusyException(path.envUUID);
      }
    }
  }

  /**
   * Writes `next` as the whole set of `path`'s environment inside the caller's unit of work `tx` (a promotion's, an
   * import's): reads the set and the environment's connectors through `tx`, applies the rules (InvalidInputError,
   * 409 DestinationsMovedException unless confirmed, 412 when `condition` does not name the set's version), and writes
   * the set, its version (with `promotionId`) and its change event, and the clearing of moved connector secrets, in
   * `tx`. A set that does not change writes nothing. Throws (rolling `tx` back) when another write came first; the
   * environment must be in the organization (the caller checked the path). Its first statement locks the set for the
   * write (lockForWrite): the connector writes that depend on the environment and were made before have committed, and
   * the reads after it see them; those after it wait for it and check against the new set.
   */
  async applyInTransaction(
    tx: Transaction,
    path: EnvironmentPath,
    next: readonly NextVariable[],
    author: Author,
    options: VariableWriteOptions = {},
  ): Promise<VariableWriteResult> {
    await this.variables.lockForWrite(tx, path);
    return this.applyLocked(tx, path, next, author, options);
  }

  /** applyInTransaction once the set is locked for the write. */
  private async applyLocked(
    tx: Transaction,
    path: EnvironmentPath,
    next: readonly NextVariable[],
    author: Author,
    options: VariableWriteOptions,
  ): Promise<VariableWriteResult> {
    const found = await this.variables.findStored(path, 'primary', tx);
    if (!found.found) throw new Error(`connector variables: environment ${path.envUUID} is not in organization ${path.orgUUID}`);
    const current = found.value;
    if (options.condition && !options.condition.accepts(variablesEtagOf(current.version))) {
      throw new ConnectorVariablesChangedException(path.envUUID, variablesEtagOf(current.version));
    }
    const now = new Date();
    const connectors = await this.variables.connectorsOf(tx, path);
    const plan = planVariableSet({
      stored: current.variables,
      next,
      connectors: connectors.map(({ connector }) => connector),
      seal: this.sealFor(path.envUUID),
      compare: (a, b) => this.db.compareKeys(a, b),
      now,
      updatedBy: author.caller.username,
      newUuid: () => newUuid(now.getTime()),
      confirmed: options.confirmDestinationMoves === true,
    });
    if (!options.confirmDestinationMoves && (plan.movedConnectors.length > 0 || plan.movedVariables.length > 0)) {
      throw new DestinationsMovedException(movedConnectorsOf(plan), plan.movedVariables);
    }
    if (plan.changes.length === 0 && plan.movedConnectors.length === 0) {
      return { written: false, version: current.version, rows: current.variables, clearedSecrets: [], clearedVariables: [] };
    }
    const step = { from: current.version, to: current.version + 1 };
    if (!(await this.variables.stepSet(tx, path, step, now, author.caller.username))) throw new LostRace();
    this.variables.replaceVariables(tx, path, plan.rows);
    const recordedAuthor = versionAuthorOf(author, now);
    const reason = author.reason ?? options.reason ?? null;
    this.variables.record(tx, {
      environmentUuid: path.envUUID,
      version: step.to,
      organizationUuid: path.orgUUID,
      updatedAt: now,
      updatedBy: recordedAuthor.updatedBy,
      updatedBySub: recordedAuthor.updatedBySub,
      requestId: recordedAuthor.requestId,
      reason,
      promotionId: options.promotionId ?? null,
      changes: plan.changes,
      snapshot: plan.snapshot,
    });
    this.outbox.appendVariables(tx, path, step.to, now);
    await this.clearMovedSecrets(tx, path, plan, connectors, author, now, step.to);
    return {
      written: true,
      version: step.to,
      rows: plan.rows,
      clearedSecrets: movedConnectorsOf(plan),
      clearedVariables: plan.movedVariables.map((moved) => moved.name),
    };
  }

  /**
   * Adds the variables of `missing` that the environment does not define, leaving every defined one as it is (an import
   * filling values from a Postman environment file): in its own unit of work, retried as a PUT without If-Match. A
   * secret one is bound to the destinations given, else to those of the connectors that use it. Answers the names added
   * (none: nothing written).
   */
  async addMissing(
    path: EnvironmentPath,
    missing: readonly NextVariable[],
    author: Author,
    options: Omit<VariableWriteOptions, 'condition'> = {},
  ): Promise<string[]> {
    await this.scope.require(path, 'primary');
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction((tx) => this.addMissingInTransaction(tx, path, missing, author, options));
      } catch (error) {
        if (!(error instanceof LostRace) || attempt === WRITE_ATTEMPTS)
          throw error instanceof LostRace ? new ConnectorVariablesBusyException(path.envUUID) : error;
      }
    }
  }

  /** addMissing inside the caller's unit of work `tx`, the set locked for the write first (as applyInTransaction). */
  async addMissingInTransaction(
    tx: Transaction,
    path: EnvironmentPath,
    missing: readonly NextVariable[],
    author: Author,
    options: Omit<VariableWriteOptions, 'condition'> = {},
  ): Promise<string[]> {
    await this.variables.lockForWrite(tx, path);
    const found = await this.variables.findStored(path, 'primary', tx);
    if (!found.found) throw new Error(`connector variables: environment ${path.envUUID} is not in organization ${path.orgUUID}`);
    const defined = new Set(found.value.variables.map((row) => row.name));
    const added = missing.filter((variable, index) => !defined.has(variable.name) && missing.findIndex((other) => other.name === variable.name) === index);
    if (added.length === 0) return [];
    const kept: NextVariable[] = found.value.variables.map((row) => ({
      name: row.name,
      secret: row.secret,
      value: row.secret ? (row.sealedValue === null ? null : '<SECRET>') : row.value,
      destinations: row.secret ? row.destinations : undefined,
    }));
    await this.applyLocked(tx, path, [...kept, ...added], author, { ...options, condition: IfMatch.from(variablesEtagOf(found.value.version)) });
    return added.map((variable) => variable.name);
  }

  /** Each moved connector's moved secrets cleared over the version read: a connector version (UPDATED) and its change event. */
  private async clearMovedSecrets(
    tx: Transaction,
    path: EnvironmentPath,
    plan: VariableSetPlan,
    connectors: Awaited<ReturnType<ConnectorVariableRepository['connectorsOf']>>,
    author: Author,
    now: Date,
    setVersion: number,
  ): Promise<void> {
    const snapshots = new Map(connectors.map(({ connector, snapshot }) => [connector.uuid, snapshot]));
    const recordedAuthor = versionAuthorOf(author, now);
    for (const { connector, secrets } of plan.movedConnectors) {
      const { fields, headers, changedFields } = withMovedSecretsCleared(connector, secrets);
      const step = { from: connector.version, to: connector.version + 1 };
      const cleared = {
        ...secretsOf(connector),
        ...fields,
        headers,
        updatedAt: now,
        updatedBy: recordedAuthor.updatedBy,
        updatedByImage: recordedAuthor.updatedByImage,
      };
      if (!(await this.variables.clearSecrets(tx, connector.botUuid, connector.uuid, step, cleared))) throw new LostRace();
      const before = snapshots.get(connector.uuid);
      const snapshot = before && {
        ...before,
        ...fields,
        headers: shownHeaders(headers),
        updatedAt: now.toISOString(),
        updatedBy: recordedAuthor.updatedBy,
      };
      const moves = [...new Set(secrets.map((secret) => `${secret.from ?? 'nowhere'} → ${secret.destination ?? 'an unknown destination'}`))].join(', ');
      const reason = `Secrets cleared: connector variables version ${setVersion} moved where they go (${moves}); send them again`.slice(
        0,
        CHANGE_REASON_MAX_LENGTH,
      );
      const version = {
        connectorUuid: connector.uuid,
        version: step.to,
        operation: VersionOperation.UPDATED,
        ...recordedAuthor,
        reason,
        revertedTo: null,
        changedFields,
        snapshot: snapshot ?? ({} as never),
      };
      this.history.record(tx, version);
      this.outbox.append(tx, { ...path, botUUID: connector.botUuid }, version);
    }
  }

  /** How this environment's secret variables are sealed (variableSecretContext), and compared without keeping the plaintext. */
  private sealFor(environmentUuid: string): VariableSeal {
    return {
      seal: (name, plaintext) => this.cipher.encrypt(plaintext, variableSecretContext(environmentUuid, name)),
      sameAsStored: (name, sealed, plaintext) => {
        try {
          return this.cipher.decrypt(sealed, variableSecretContext(environmentUuid, name)) === plaintext;
        } catch {
          return false;
        }
      },
    };
  }
}

const secretsOf = (connector: Awaited<ReturnType<ConnectorVariableRepository['connectorsOf']>>[number]['connector']) => ({
  basicToken: connector.basicToken,
  bearerToken: connector.bearerToken,
  clientSecret: connector.clientSecret,
  authPassword: connector.authPassword,
  apiKey: connector.apiKey,
});

/** The connectors a plan moves, as the 409 and the answer name them. */
function movedConnectorsOf(plan: VariableSetPlan): MovedConnectorSecretsDto[] {
  return plan.movedConnectors.map(({ connector, secrets }) => ({
    uuid: connector.uuid,
    name: connector.name,
    botUUID: connector.botUuid,
    secrets: [...new Set(secrets.map((secret) => secret.secret))],
    from: secrets[0].from,
    to: secrets[0].destination,
  }));
}
