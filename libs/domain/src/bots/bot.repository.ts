import { Injectable } from '@nestjs/common';
import { DummyValue, GenerateSql } from '../database/generate-sql';
import { Database, ReadFrom } from '../database/database';
import { statement } from '../database/statement';
import { BOT_IN_SCOPE, ENVIRONMENT_IN_SCOPE } from '../scope/bot-scope.sql';
import { found, Lookup, NOTHING_AT_PATH } from '../scope/lookup';
import { BotPath, EnvironmentPath } from '../scope/scope-params.dto';
import { Bot, BOT_ROWS } from './bot.entity';

export type BotRow = Pick<Bot, 'uuid' | 'environmentUuid' | 'name' | 'image'>;

// The environment joined first and its bots left-joined: an environment without bots is one row of NULLs.
const LIST_IN_SCOPE = statement(
  `SELECT ${BOT_ROWS.select('b')} FROM environments e LEFT JOIN bots b ON b.environment_uuid = e.uuid `,
  `WHERE ${ENVIRONMENT_IN_SCOPE} ORDER BY LOWER(b.name) ASC, b.uuid ASC`,
);
const FIND_IN_SCOPE = statement(`SELECT ${BOT_ROWS.select('b')} FROM bots b JOIN environments e ON e.uuid = b.environment_uuid WHERE ${BOT_IN_SCOPE}`);

@Injectable()
export class BotRepository {
  constructor(private readonly db: Database) {}

  /**
   * The bots of the environment, ordered by name case-insensitively on every engine (SQLite compares
   * binary), uuid breaking ties; an empty list when the environment has none, nothing at the path when the
   * environment is not in the organization (the scope check is joined in: one query).
   */
  @GenerateSql({ params: [DummyValue.ENVIRONMENT_PATH] })
  async listInScope(path: EnvironmentPath, from: ReadFrom = 'replica'): Promise<Lookup<BotRow[]>> {
    const rows = await this.db.rows(LIST_IN_SCOPE, path, from);
    if (rows.length === 0) return NOTHING_AT_PATH;
    return found(rows.filter((row) => row.uuid !== null).map((row) => BOT_ROWS.from(row)));
  }

  /** The bot of the path, in its environment and organization. */
  @GenerateSql({ params: [DummyValue.BOT_PATH] })
  async findInScope(path: BotPath, from: ReadFrom = 'replica'): Promise<Lookup<BotRow>> {
    const [row] = await this.db.rows(FIND_IN_SCOPE, path, from);
    return row ? found(BOT_ROWS.from(row)) : NOTHING_AT_PATH;
  }
}
