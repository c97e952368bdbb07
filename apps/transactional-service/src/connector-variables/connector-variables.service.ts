import {
  ConnectorVariableRepository,
  ConnectorVariablesDto,
  ConnectorVariableSetVersionPageDto,
  ConsistencyScope,
  EnvironmentPath,
  HistoryPageQueryDto,
  ScopeService,
} from '@app/domain';
import { Injectable } from '@nestjs/common';
import { toPage } from '../rest-connectors/connector-views';
import { WithEtag } from '../rest-connectors/etag';
import { variableDtoOf, variablesEtagOf } from './variable-views';

/** The reads of an environment's connector variables: the set (secrets as `<SECRET>`) and its versions. */
@Injectable()
export class ConnectorVariablesService {
  constructor(
    private readonly scope: ScopeService,
    private readonly variables: ConnectorVariableRepository,
  ) {}

  async get(path: EnvironmentPath, consistency?: ConsistencyScope): Promise<WithEtag<ConnectorVariablesDto>> {
    const found = await this.scope.inPath(path, await this.variables.findSet(path, consistency), consistency);
    // findSet finds every environment in scope: nothing found is a 404 ScopeService names.
    const set = found ?? { version: 0, variables: [] };
    return { body: { version: set.version, variables: set.variables.map(variableDtoOf) }, etag: variablesEtagOf(set.version) };
  }

  async history(
    path: EnvironmentPath,
    { page, linesPerPage }: HistoryPageQueryDto,
    consistency?: ConsistencyScope,
  ): Promise<ConnectorVariableSetVersionPageDto> {
    const found = (await this.scope.inPath(path, await this.variables.page(path, (page - 1) * linesPerPage, linesPerPage, consistency), consistency)) ?? {
      rows: [],
      total: 0,
    };
    const content = found.rows.map((row) => ({
      version: row.version,
      updatedAt: row.updatedAt.toISOString(),
      updatedBy: row.updatedBy,
      sub: row.updatedBySub,
      requestId: row.requestId,
      reason: row.reason,
      promotionId: row.promotionId,
      changes: row.changes,
      variables: row.snapshot,
    }));
    return toPage(content, found.total, page, linesPerPage);
  }
}
