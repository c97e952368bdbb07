import {
  ConsistencyScope,
  BotPath,
  ConnectorVariableRow,
  variableSecretContext,
  ConnectorWrite,
  newUuid,
  RecordedTestRunOutcome,
  RestConnector,
  RestConnectorPath,
  RestConnectorTestDto,
  SavedRestConnectorTestDto,
  ScopeService,
  SECRET_FIELDS,
  secretContext,
  SecretCipher,
  secretHeaderContext,
  storedSecretHeader,
  TestRunAnswerDto,
  TestRunOutcome,
} from '@app/domain';
import { Caller } from '@app/platform';
import { Injectable } from '@nestjs/common';
import { InjectPinoLogger, PinoLogger } from 'nestjs-pino';
import { ConnectorEnvironments } from '../connector-environment';
import { toConnectorWrite } from '../connector-write';
import { environmentOf } from '../env-destinations';
import { RestConnectorsService } from '../rest-connectors.service';
import { Outbound } from './outbound.providers';
import { RunnableConnector, TestRunReport } from './test-run';
import { TestRunRateLimit, TestRunSlots } from './test-run-limits';
import { TestRunMetrics } from './test-run-metrics';
import { TestRunRecordsService } from './test-run-records.service';
import { RunEnvironment } from './variables';

/** Who asked, for the log line, and the signal of their leaving. */
export interface TestRunCaller {
  caller: Caller;
  requestId: string;
  gone?: AbortSignal;
  /** With replicas, what the run's reads must see (the request's scope). */
  consistency?: ConsistencyScope;
}

/** A test run keeps secrets in clear for its own duration only: they are never sealed, stored or logged. */
const inClear = (_field: unknown, plaintext: string) => plaintext;

/**
 * Connector test runs (docs/api-contract.md, "Connector test runs"): the connector is made runnable (an
 * unsaved one validated as a create, a saved one with its secrets decrypted, edits applied as a PUT would
 * apply them), checked and filled (a 400 costs the caller nothing), given a slot and counted against the
 * caller's limit (a 503 costs nothing either), run once through the outbound guard, logged, counted and
 * recorded (who, when, where to, what came of it: TestRunRecordsService). Nothing of the connector is saved.
 */
@Injectable()
export class TestRunsService {
  constructor(
    private readonly scope: ScopeService,
    private readonly connectors: RestConnectorsService,
    private readonly cipher: SecretCipher,
    private readonly outbound: Outbound,
    private readonly rateLimit: TestRunRateLimit,
    private readonly slots: TestRunSlots,
    private readonly metrics: TestRunMetrics,
    private readonly records: TestRunRecordsService,
    private readonly environments: ConnectorEnvironments,
    @InjectPinoLogger(TestRunsService.name) private readonly logger: PinoLogger,
  ) {}

  /**
   * An unsaved connector: the bot must exist in scope (404); a placeholder is a 400, as for a create. It runs in the
   * path's environment, as a saved one does.
   */
  async testUnsaved(path: BotPath, dto: RestConnectorTestDto, who: TestRunCaller): Promise<TestRunAnswerDto> {
    const env = await this.environmentOf(path, who);
    const { values } = toConnectorWrite(dto.connector, who.caller, new Date(), inClear, undefined, env);
    await this.scope.require(path, who.consistency);
    return this.run(path, { ...runnable(values), env }, dto.variables ?? {}, who);
  }

  /** A saved connector (404 as a get), or edits of it as a PUT would store them. */
  async testSaved(path: RestConnectorPath, dto: SavedRestConnectorTestDto, who: TestRunCaller): Promise<TestRunAnswerDto> {
    const stored = this.inClear(await this.connectors.findActive(path, who.consistency));
    const env = await this.environmentOf(path, who);
    const values = dto.connector ? toConnectorWrite(dto.connector, who.caller, new Date(), inClear, stored, env).values : stored;
    // The secrets the caller did not send (kept by a placeholder, or the stored connector as it is).
    const kept = SECRET_FIELDS.filter((field) => stored[field] !== null && values[field] === stored[field]);
    const keptHeaders = values.headers.flatMap(({ header, value, secret }) =>
      secret === true && storedSecretHeader(stored.headers, header)?.value === value ? [header.toLowerCase()] : [],
    );
    return this.run(path, { ...runnable(values, stored.uuid), kept, keptHeaders, env }, dto.variables ?? {}, who);
  }

  /**
   * The path's environment for one run: the write rules' view of it, and each variable's value, a secret one's
   * unsealed for this run only (never stored, logged or answered: the runner scrubs it as a secret).
   */
  private async environmentOf(path: BotPath, who: TestRunCaller): Promise<RunEnvironment> {
    const variables = await this.environments.variablesOf(path, who.consistency ?? 'replica');
    return { ...environmentOf(variables), filled: new Map(variables.flatMap((variable) => this.valueOf(path.envUUID, variable))) };
  }

  private valueOf(envUUID: string, { name, secret, value, sealedValue }: ConnectorVariableRow): Array<[string, string]> {
    if (!secret) return value === null ? [] : [[name, value]];
    return sealedValue === null ? [] : [[name, this.cipher.decrypt(sealedValue, variableSecretContext(envUUID, name))]];
  }

  private async run(path: BotPath, connector: RunnableConnector, variables: Record<string, string>, who: TestRunCaller): Promise<TestRunAnswerDto> {
    const { runner } = this.outbound;
    const prepared = runner.prepare(connector, variables);
    // A slot first, then the caller's count: a run this replica has no room for (503) was not attempted.
    const { startedAt, report } = await this.slots.run(async () => {
      await this.rateLimit.admit(who.caller);
      // Counted: a caller who puts a stored secret in what is sent is probing it, not fixing a typo.
      await runner.screen(prepared, who.gone).catch((refusal: unknown) => {
        this.metrics.refused('stored_secret');
        this.logger.warn(
          { requestId: who.requestId, callerSub: who.caller.sub, connectorUuid: connector.uuid ?? null },
          'connector test run refused: the request held a stored secret of the connector',
        );
        throw refusal;
      });
      const started = new Date();
      return { startedAt: started, report: await runner.execute(prepared, who.gone) };
    });
    // The host of the URL called, never the URL: its path or query may carry a variable's value or a secret.
    const destinationHost = new URL(prepared.call.url).host;
    const outcome: RecordedTestRunOutcome = report.cancelled ? RecordedTestRunOutcome.CANCELLED : (report.answer.outcome as TestRunOutcome);
    this.report(destinationHost, outcome, connector, report, who);
    // After the run, its slot freed: no transaction is open while a run waits on a far side.
    await this.records.record({
      uuid: newUuid(startedAt.getTime()),
      organizationUuid: path.orgUUID,
      environmentUuid: path.envUUID,
      botUuid: path.botUUID,
      connectorUuid: connector.uuid ?? null,
      callerSub: who.caller.sub,
      callerUsername: who.caller.username,
      requestId: who.requestId,
      destinationHost,
      outcome,
      httpStatus: report.answer.response?.status ?? null,
      durationMs: report.answer.durationMs,
      startedAt,
    });
    return report.answer as TestRunAnswerDto;
  }

  /**
   * One log line per run (never a secret: the host of the URL called, not the URL, whose query may hold one) and
   * its metrics.
   * A refused destination's address is logged here and only here: the answer must not say what a name resolves to.
   */
  private report(
    destinationHost: string,
    outcome: RecordedTestRunOutcome,
    connector: RunnableConnector,
    { answer, blocked, failure }: TestRunReport,
    who: TestRunCaller,
  ): void {
    if (outcome === RecordedTestRunOutcome.CANCELLED) this.metrics.cancelled();
    else this.metrics.ran(outcome, answer.durationMs);
    this.logger.info(
      {
        requestId: who.requestId,
        callerSub: who.caller.sub,
        connectorUuid: connector.uuid ?? null,
        destinationHost,
        outcome,
        status: answer.response?.status ?? null,
        durationMs: answer.durationMs,
        ...(blocked && { blockedAddress: blocked.address, blockedRange: blocked.range }),
        ...(failure && { readerError: { type: failure.name, message: failure.message } }),
      },
      outcome === RecordedTestRunOutcome.CANCELLED ? 'connector test run cancelled: its caller disconnected' : 'connector test run',
    );
  }

  /** The stored connector with its secrets and secret headers decrypted, for this run only. */
  private inClear(connector: RestConnector): RestConnector {
    const secrets = Object.fromEntries(
      SECRET_FIELDS.map((field) => {
        const sealed = connector[field];
        return [field, sealed === null ? null : this.cipher.decrypt(sealed, secretContext(connector.uuid, field))];
      }),
    );
    const headers = connector.headers.map((header) =>
      header.secret === true ? { ...header, value: this.cipher.decrypt(header.value, secretHeaderContext(connector.uuid, header.header)) } : header,
    );
    return { ...connector, ...secrets, headers };
  }
}

/** The columns of a connector as the runner takes them. */
function runnable(values: ConnectorWrite, uuid?: string): RunnableConnector {
  const secrets = Object.fromEntries(SECRET_FIELDS.flatMap((field) => (values[field] === null ? [] : [[field, values[field]]])));
  return {
    uuid,
    requestType: values.requestType,
    url: values.url,
    headers: values.headers,
    contentType: values.contentType,
    authType: values.authType,
    grantType: values.grantType,
    clientId: values.clientId,
    oauthUrl: values.oauthUrl,
    authUsername: values.authUsername,
    apiKeyName: values.apiKeyName,
    apiKeyIn: values.apiKeyIn,
    secrets,
    body: values.body,
    output: values.output,
  };
}
