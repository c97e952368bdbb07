import {
  BotPath,
  ConnectorPromotion,
  ConnectorPromotionRepository,
  ConnectorVariableRepository,
  ConsistencyScope,
  FIRST_VERSION,
  InvalidInputError,
  newUuid,
  PromotionAction,
  PromotionDto,
  PromotionItem,
  PromotionPlanDto,
  PromotionRequestDto,
  PromotionSecretStatus,
  RestConnectorWriteDto,
  ScopeService,
  SECRET_FIELDS,
  SecretField,
  SECRETS,
} from '@app/domain';
import { PLATFORM_APPS } from '@app/platform';
import { Injectable } from '@nestjs/common';
import { Author } from '../../rest-connectors/author';
import { writeOfSnapshot } from '../../rest-connectors/connector-write';
import { CreateConnectors, CreateRetry, NewConnector } from '../../rest-connectors/use-cases/create-connectors.use-case';
import { DeleteConnector } from '../../rest-connectors/use-cases/delete-connector.use-case';
import { PreparedUpdate, UpdateConnector } from '../../rest-connectors/use-cases/update-connector.use-case';
import { EnvironmentChangedException } from '../../rest-connectors/rest-connector.exceptions';
import { ConnectorEnvironment, environmentOf } from '../../rest-connectors/env-destinations';
import { givenHeader, PlannedConnector, planPromotion, PromotionPlan } from '../promotion-plan';
import { PromotionStaleException } from '../promotion.exceptions';
import { PromotionReads } from '../promotion-reads.service';

export interface PromoteCommand {
  path: BotPath;
  dto: PromotionRequestDto;
  author: Author;
  retry?: CreateRetry;
  consistency?: ConsistencyScope;
}

const isSecretField = (secret: string): secret is SecretField => (SECRET_FIELDS as readonly string[]).includes(secret);

/**
 * `POST …/rest-connectors/promotions` (docs/api-contract.md, "Promotions"): the plan of promoting another bot's
 * connectors into the path's bot (planPromotion), answered for a dry run; applied with its digest as one unit of work
 * through the connectors' own writes (CreateConnectors.prepare and batch, UpdateConnector.prepare and apply,
 * DeleteConnector.apply: the same write rules, versions and change events, each version naming the promotion), with
 * the promotion's row. Both bots' connectors are read whole, one statement each; the source's sealed columns never.
 */
@Injectable()
export class PromoteConnectors {
  constructor(
    private readonly scope: ScopeService,
    private readonly promotions: ConnectorPromotionRepository,
    private readonly variables: ConnectorVariableRepository,
    private readonly create: CreateConnectors,
    private readonly update: UpdateConnector,
    private readonly remove: DeleteConnector,
    private readonly reads: PromotionReads,
  ) {}

  /** The dry run: what an apply with the answer's digest would do. */
  async plan(path: BotPath, dto: PromotionRequestDto): Promise<PromotionPlanDto> {
    return planAnswer(path, dto, await this.read(path, dto));
  }

  /**
   * Applies the plan `dto.digest` names, read again once the Idempotency-Key is taken: a different digest is a 409,
   * a NEEDED secret or a variable the target lacks a 400 naming each; then one unit of work. Answers the promotion.
   */
  async apply({ path, dto, author, retry, consistency }: PromoteCommand): Promise<PromotionDto> {
    if (dto.digest === undefined) throw new InvalidInputError(['digest is required with dryRun false: send the digest a dry run of this promotion answered']);
    const promotionId = newUuid();
    const promoting: Author = { ...author, promotionId };
    const stored = await this.create
      .batch({
        path,
        author: promoting,
        retry: retry && { ...retry, route: 'rest-connectors/promotions' },
        consistency,
        batch: async () => {
          const plan = await this.read(path, dto);
          if (plan.digest !== dto.digest) {
            throw new PromotionStaleException(
              `the source's or the target's connectors, or the target environment's connector variables, have changed since the dry run (the plan's digest is now ${plan.digest})`,
            );
          }
          requireComplete(path, plan);
          const now = new Date();
          const { creates, updates } = this.prepared(path, plan, promoting, now);
          const deletes = plan.connectors.filter(({ action }) => action === PromotionAction.DELETE);
          const items: PromotionItem[] = [
            ...creates.map(({ connector }) => ({
              connectorUuid: connector.uuid,
              name: connector.name,
              action: PromotionAction.CREATE as const,
              versionBefore: null,
              versionAfter: FIRST_VERSION,
            })),
            ...updates.flatMap(({ current, write }) =>
              write === null
                ? []
                : [
                    {
                      connectorUuid: current.uuid,
                      name: write.values.name,
                      action: PromotionAction.UPDATE as const,
                      versionBefore: current.version,
                      versionAfter: write.step.to,
                    },
                  ],
            ),
            ...deletes.map(({ target }) => ({
              connectorUuid: target!.connector.uuid,
              name: target!.connector.name,
              action: PromotionAction.DELETE as const,
              versionBefore: target!.connector.version,
              versionAfter: target!.connector.version + 1,
            })),
          ];
          const promotion: ConnectorPromotion = {
            uuid: promotionId,
            organizationUuid: path.orgUUID,
            environmentUuid: path.envUUID,
            botUuid: path.botUUID,
            sourceEnvironmentUuid: dto.source.envUUID,
            sourceBotUuid: dto.source.botUUID,
            prune: dto.prune === true,
            createdAt: now,
            createdBy: author.caller.username,
            createdBySub: author.caller.sub,
            requestId: author.requestId,
            reason: author.reason,
            created: creates.length,
            updated: updates.filter(({ write }) => write !== null).length,
            deleted: deletes.length,
            unchanged: plan.counts.unchanged + updates.filter(({ write }) => write === null).length,
            items,
            revertedAt: null,
            revertedBy: null,
          };
          return {
            connectors: creates,
            // The plan read the target environment at this version (the digest covers it): held so in the unit of work.
            environmentVersion: updates.some(({ environmentVersion }) => environmentVersion !== null) ? plan.environment.version : null,
            within: async (tx) => {
              for (const update of updates) {
                if (!(await this.update.apply(tx, path, update))) throw changedWhileApplied(update.current);
              }
              for (const { target } of deletes) {
                const { connector } = target!;
                if (!(await this.remove.apply(tx, { ...path, serviceUUID: connector.uuid }, connector, promoting, now))) throw changedWhileApplied(connector);
              }
              this.promotions.insert(tx, promotion);
            },
            answer: { promotionId },
          };
        },
      })
      .catch((error: unknown) => {
        if (!(error instanceof EnvironmentChangedException)) throw error;
        throw new PromotionStaleException("the target environment's connector variables changed while the promotion was applied; nothing was written");
      });
    return this.reads.get(path, String(stored.promotionId), consistency ?? 'primary');
  }

  /** Both sides and the target environment's variables, on the primary (an apply follows), planned. Each path in its scope or its 404. */
  private async read(path: BotPath, dto: PromotionRequestDto): Promise<PromotionPlan & { environment: ConnectorEnvironment }> {
    const source: BotPath = { orgUUID: path.orgUUID, envUUID: dto.source.envUUID, botUUID: dto.source.botUUID };
    if (source.botUUID === path.botUUID) {
      throw new InvalidInputError([
        "source.botUUID must be another bot than the path's: a promotion copies another bot's connectors into the path's bot (the target)",
      ]);
    }
    const environment = { orgUUID: path.orgUUID, envUUID: path.envUUID };
    const [targets, records, set] = await Promise.all([
      this.promotions.targetsForWrite(path),
      this.promotions.sourceRecords(source),
      this.variables.findSet(environment, 'primary'),
    ]);
    const target = (await this.scope.inPath(path, targets, 'primary')) ?? [];
    const sourceRecords = (await this.scope.inPath(source, records, 'primary')) ?? [];
    const variables = (await this.scope.inPath(environment, set, 'primary')) ?? { version: 0, variables: [] };
    const plan = planPromotion({
      sourceBotUuid: source.botUUID,
      targetBotUuid: path.botUUID,
      source: sourceRecords,
      target,
      variables,
      secrets: dto.secrets ?? [],
      prune: dto.prune === true,
    });
    // The target environment as the connectors' write rules read it: where its secrets go once {{env.NAME}} are filled.
    return Object.assign(plan, { environment: environmentOf(variables.variables, variables.version) });
  }

  /** The creates and updates of the plan, through the connectors' write rules: every problem of every connector in one 400. */
  private prepared(
    path: BotPath,
    plan: PromotionPlan & { environment: ConnectorEnvironment },
    author: Author,
    now: Date,
  ): { creates: NewConnector[]; updates: PreparedUpdate[] } {
    const creates: NewConnector[] = [];
    const updates: PreparedUpdate[] = [];
    const problems: string[] = [];
    for (const planned of plan.connectors) {
      try {
        if (planned.action === PromotionAction.CREATE) creates.push(this.create.prepare(path, writeOf(planned), author, plan.environment, now));
        if (planned.action === PromotionAction.UPDATE) updates.push(this.update.prepare(planned.target!, writeOf(planned), author, plan.environment, now));
      } catch (error) {
        if (!(error instanceof InvalidInputError)) throw error;
        problems.push(...error.problems.map((problem) => `connectors[${JSON.stringify(planned.name)}]: ${problem}`));
      }
    }
    if (problems.length > 0) throw new InvalidInputError(problems.slice(0, 50));
    return { creates, updates };
  }
}

/**
 * The target's write of a promoted connector: the source's record as a PUT body (writeOfSnapshot: each secret, and
 * each secret header's value, as its placeholder, which keeps the target's stored one), each given secret in its place.
 */
export function writeOf({ source, secrets, given }: PlannedConnector): RestConnectorWriteDto {
  const dto = writeOfSnapshot(source!.snapshot);
  const write = dto as unknown as Record<string, unknown>;
  for (const { secret, status } of secrets) {
    if (!isSecretField(secret)) continue;
    if (status === PromotionSecretStatus.GIVEN) write[secret] = given![secret];
    // The target's own, whatever the source's record holds (it may have none: cleared by a move in its environment).
    if (status === PromotionSecretStatus.KEPT) write[secret] = SECRETS[secret].placeholder;
  }
  dto.headers = (dto.headers ?? []).map((header) =>
    header.secret === true ? { ...header, value: givenHeader(given, header.header) ?? header.value } : header,
  );
  return dto;
}

/** Where a promoted connector's variables are set: the target environment's connector variables. */
const variablesPath = ({ orgUUID, envUUID }: BotPath) => `/${PLATFORM_APPS.transactionalService.label}/org/${orgUUID}/env/${envUUID}/connector-variables`;

/** An apply needs every variable the source's connectors use defined in the target, and every secret KEPT or GIVEN: a 400 naming each one missing. */
function requireComplete(path: BotPath, plan: PromotionPlan): void {
  const { missing } = plan.variables;
  const problems = [
    ...(missing.length === 0
      ? []
      : [
          `the target environment does not define the connector variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')} that the source's connectors use ` +
            `({{env.NAME}}): define ${missing.length > 1 ? 'them' : 'it'} with PUT ${variablesPath(path)}, then run the dry run again`,
        ]),
    ...plan.connectors.flatMap(({ name, secrets }) =>
      secrets
        .filter(({ status }) => status === PromotionSecretStatus.NEEDED)
        .map(({ secret }) => {
          const field = secret.startsWith('headers.') ? `headers[${JSON.stringify(secret.slice('headers.'.length))}]` : secret;
          return (
            `secrets[${JSON.stringify(name)}].${field} is needed: the target stores none for it, or where it goes in the target environment differs ` +
            `(secrets are never copied between environments); send it in secrets, { "connector": ${JSON.stringify(name)}, … }`
          );
        }),
    ),
  ];
  if (problems.length > 0) throw new InvalidInputError(problems);
}

const changedWhileApplied = ({ uuid, name }: { uuid: string; name: string }) =>
  new PromotionStaleException(`the target's rest connector "${name}" (${uuid}) was changed while the promotion was applied; nothing was written`);

/** A dry run's answer. */
function planAnswer(path: BotPath, dto: PromotionRequestDto, plan: PromotionPlan): PromotionPlanDto {
  return {
    source: { envUUID: dto.source.envUUID, botUUID: dto.source.botUUID },
    target: { envUUID: path.envUUID, botUUID: path.botUUID },
    digest: plan.digest,
    prune: dto.prune === true,
    connectors: plan.connectors.map(({ name, action, source, target, changedFields, secrets }) => ({
      name,
      action,
      sourceUuid: source?.uuid ?? null,
      targetUuid: target?.connector.uuid ?? null,
      sourceVersion: source?.version ?? null,
      targetVersion: target?.connector.version ?? null,
      changedFields,
      secrets,
    })),
    variables: plan.variables,
    counts: plan.counts,
  };
}
