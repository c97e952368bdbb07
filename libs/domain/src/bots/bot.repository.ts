import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { EntityColumns, queryRows } from '../database/raw-rows';
import { ENVIRONMENT_IN_SCOPE, environmentInScope } from '../scope/bot-scope.sql';
import { EnvironmentPath } from '../scope/scope-params.dto';
import { Bot } from './bot.entity';

type BotColumn = 'uuid' | 'environmentUuid' | 'name' | 'image';

@Injectable()
export class BotRepository {
  private readonly columns: EntityColumns<Bot, BotColumn>;

  constructor(@InjectRepository(Bot) private readonly bots: Repository<Bot>) {
    this.columns = new EntityColumns(bots.manager.connection, Bot, ['uuid', 'environmentUuid', 'name', 'image']);
  }

  /**
   * The bots of the environment, ordered by name case-insensitively on every engine (SQLite compares
   * binary), uuid breaking ties; undefined when the environment is not in the organization (the scope
   * check is joined in: one query).
   */
  async listInScope(path: EnvironmentPath): Promise<Array<Pick<Bot, BotColumn>> | undefined> {
    // The environment joined first and its bots left-joined: an environment without bots is one row of NULLs.
    const rows = await queryRows(
      this.bots.manager.connection,
      'replica',
      `SELECT ${this.columns.select('b')} FROM environments e LEFT JOIN bots b ON b.environment_uuid = e.uuid ` +
        `WHERE ${ENVIRONMENT_IN_SCOPE} ORDER BY LOWER(b.name) ASC, b.uuid ASC`,
      environmentInScope(path),
    );
    if (rows.length === 0) return undefined;
    return rows.filter((row) => row.uuid !== null).map((row) => this.columns.from(row));
  }

  findInEnvironment(environmentUuid: string, uuid: string): Promise<Bot | null> {
    return this.bots.findOne({ where: { environmentUuid, uuid } });
  }
}
