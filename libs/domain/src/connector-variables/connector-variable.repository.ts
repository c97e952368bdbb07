import { Injectable } from '@nestjs/common';
import { Database, ReadFrom, Statements } from '../database/database';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { statement } from '../database/statement';
import { ENVIRONMENT_IN_SCOPE } from '../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { EnvironmentPath } from '../scope/scope-params.dto';
import { CONNECTOR_VARIABLE_ROWS, ConnectorVariable } from './connector-variable.entity';

export type ConnectorVariableRow = Omit<ConnectorVariable, 'uuid' | 'organizationUuid' | 'environmentUuid'>;

/** An environment's connector variables as stored, and the version of the set (0 before its first write). */
export interface ConnectorVariableSetRow {
  version: number;
  /** By name, in name order (byte order). */
  variables: ConnectorVariableRow[];
}

const VARIABLE_ROWS = CONNECTOR_VARIABLE_ROWS.omit('uuid', 'organizationUuid', 'environmentUuid');

const SET_IN_SCOPE = statement(
  'SELECT e.uuid AS environment_uuid, s.version AS version FROM environments e ',
  `LEFT JOIN connector_variable_sets s ON s.environment_uuid = e.uuid WHERE ${ENVIRONMENT_IN_SCOPE}`,
).returning<{ environment_uuid: string; version: number | string | null }>();
const VARIABLES_OF = statement(`SELECT ${VARIABLE_ROWS.select('v')} FROM connector_variables v WHERE v.environment_uuid = :envUUID ORDER BY v.name`);

/**
 * The connector variables of environments (connector_variables, versioned per environment by
 * connector_variable_sets). Reads only: what a connector's `{{env.NAME}}` stands for.
 */
@Injectable()
export class ConnectorVariableRepository {
  constructor(private readonly db: Database) {}

  /**
   * The environment's variables and the version of its set, read through `reader` (the Database, or a unit of work
   * that must see its own writes); nothing at the path when the environment is not in the organization.
   */
  @GenerateSql({ params: [DummyValue.ENVIRONMENT_PATH] })
  async findSet(path: EnvironmentPath, from: ReadFrom = 'replica', reader: Statements = this.db): Promise<Lookup<ConnectorVariableSetRow>> {
    const [set] = await reader.rows(SET_IN_SCOPE, path, from);
    if (set === undefined) return NOTHING_AT_PATH;
    const rows = await reader.rows(VARIABLES_OF, path, from);
    return found({ version: Number(set.version ?? 0), variables: rows.map((row) => VARIABLE_ROWS.from(row)) });
  }
}
