import { connectorSnapshot, PlatformDataSource, REST_CONNECTOR_ROWS, tagReadCopy } from '@app/domain';
import { randomUUID } from 'node:crypto';
import { QueryRunner } from 'typeorm';
import { aStoredConnector } from '../apps/transactional-service/src/rest-connectors/testing/connector-factories';

export interface SeedOptions {
  connectors: number;
  /** Bots the `connectors` are spread over, round-robin. */
  bots: number;
  /** A bot of its own, named LIST_BOT, with exactly this many connectors (the list operation). */
  listConnectors?: number;
  /** A bot of its own, named UPDATE_BOT, with this many connectors for updates to rewrite. */
  updateConnectors?: number;
  /** An empty bot of its own, named WRITE_BOT, for creates. */
  writeBot?: boolean;
  /** A bot of its own, named DELETE_BOT, with this many connectors for deletes (and restores) to toggle. */
  deleteConnectors?: number;
  /** A bot of its own, named TRASH_BOT, with this many deleted connectors (the trash). */
  trashConnectors?: number;
  /** Environments besides the main one, each with `botsPerEnvironment` bots (environment and bot lists). */
  environments?: number;
  botsPerEnvironment?: number;
  /** Connectors per multi-row INSERT. */
  batch?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface SeededData {
  organization: string;
  environment: string;
  /** The bots holding `connectors`, in the main environment. */
  bots: string[];
  connectorsOf(bot: string): string[];
  /** The other environments, in order. */
  environments: string[];
  listBot?: string;
  updateBot?: string;
  writeBot?: string;
  trashBot?: string;
  deleteBot?: string;
}

export const LIST_BOT = 'Bench list bot';
export const UPDATE_BOT = 'Bench update bot';
export const WRITE_BOT = 'Bench write bot';
export const TRASH_BOT = 'Bench trash bot';
export const DELETE_BOT = 'Bench delete bot';
/** Versions every seeded connector has: created, then updated twice (a deleted one: created, updated, deleted). */
export const SEEDED_VERSIONS = 3;
export const MAIN_ENVIRONMENT = 'Bench';
export const connectorName = (i: number) => `Connector ${i}`;
export const updateConnectorName = (i: number) => `Update connector ${i}`;

const APPLICATIONS = JSON.stringify([{ version: '1.4.2', name: 'bot-runtime', properties: { region: 'eu-west-1', replicas: '3' } }]);
const PERMISSIONS = JSON.stringify(['connectors:read', 'connectors:write']);

/**
 * Fills a migrated database with one organization, one environment, `bots` bots and `connectors`
 * connectors spread evenly over them, each with two tags, every tenth of each bot used by its flow,
 * every fifth with imported content; optionally dedicated bots for lists, updates and creates, and more
 * environments with bots. Multi-row INSERTs on one session with unique and foreign key checks off,
 * the next batch built while the last one is written, the non-unique indexes of the big tables built
 * once at the end: a million connectors load in a minute or two.
 */
export async function seedConnectors(dataSource: PlatformDataSource, options: SeedOptions): Promise<SeededData> {
  const runner = dataSource.createQueryRunner('master');
  await runner.connect();
  try {
    await runner.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
    const rebuild = await dropSecondaryIndexes(runner);
    try {
      return await seed(runner, options);
    } finally {
      await rebuild();
    }
  } finally {
    await runner.query('SET SESSION unique_checks = 1, foreign_key_checks = 1').catch(() => undefined);
    await runner.release();
  }
}

interface Planned {
  bot: string;
  name: string;
  rank: number;
  deleted?: boolean;
}

async function seed(runner: QueryRunner, options: SeedOptions): Promise<SeededData> {
  const { connectors, bots: botCount, batch = 2_000 } = options;
  const organization = randomUUID();
  const environment = randomUUID();
  const environments = Array.from({ length: options.environments ?? 0 }, () => randomUUID());
  const bots = Array.from({ length: botCount }, () => randomUUID());
  const extra = {
    listBot: options.listConnectors ? randomUUID() : undefined,
    updateBot: options.updateConnectors ? randomUUID() : undefined,
    writeBot: options.writeBot ? randomUUID() : undefined,
    trashBot: options.trashConnectors ? randomUUID() : undefined,
    deleteBot: options.deleteConnectors ? randomUUID() : undefined,
  };

  await runner.query('INSERT INTO organizations (uuid, name) VALUES (?, ?)', [organization, 'Bench organization']);
  const envRows = [[environment, MAIN_ENVIRONMENT], ...environments.map((uuid, i) => [uuid, `Bench environment ${pad(i)}`])];
  await insertRows(
    runner,
    'environments (uuid, organization_uuid, name, removed, dns, api_url, applications, permissions)',
    envRows.map(([uuid, name]) => [uuid, organization, name, 0, 'bench.example.com', 'https://api.bench.example.com', APPLICATIONS, PERMISSIONS]),
  );
  const botRows: unknown[][] = bots.map((uuid, i) => [uuid, environment, `Bot ${pad(i)}`]);
  if (extra.listBot) botRows.push([extra.listBot, environment, LIST_BOT]);
  if (extra.updateBot) botRows.push([extra.updateBot, environment, UPDATE_BOT]);
  if (extra.writeBot) botRows.push([extra.writeBot, environment, WRITE_BOT]);
  if (extra.trashBot) botRows.push([extra.trashBot, environment, TRASH_BOT]);
  if (extra.deleteBot) botRows.push([extra.deleteBot, environment, DELETE_BOT]);
  environments.forEach((env, e) => {
    for (let i = 0; i < (options.botsPerEnvironment ?? 0); i++) botRows.push([randomUUID(), env, `Bot ${pad(e)}-${pad(i)}`]);
  });
  for (let i = 0; i < botRows.length; i += 5_000) {
    await insertRows(runner, 'bots (uuid, environment_uuid, name)', botRows.slice(i, i + 5_000));
  }
  const flowOf = new Map(botRows.map(([bot]) => [bot as string, randomUUID()]));
  const flowRows = [...flowOf].map(([bot, flow]) => [flow, bot, 'Main flow']);
  for (let i = 0; i < flowRows.length; i += 5_000) {
    await insertRows(runner, 'flows (uuid, bot_uuid, name)', flowRows.slice(i, i + 5_000));
  }

  // Every connector to write, in order: the spread ones, then the dedicated bots'.
  // `rank`: the place in its bot, which picks the tags, the flow use and the content, so every bot has some of each.
  const plan = (i: number): Planned => {
    if (i < connectors) return { bot: bots[i % botCount], name: connectorName(i), rank: Math.floor(i / botCount) };
    const k = i - connectors;
    if (k < (options.listConnectors ?? 0)) return { bot: extra.listBot!, name: `List connector ${k}`, rank: k };
    const u = k - (options.listConnectors ?? 0);
    if (u < (options.updateConnectors ?? 0)) return { bot: extra.updateBot!, name: updateConnectorName(u), rank: u };
    const t = u - (options.updateConnectors ?? 0);
    if (t < (options.trashConnectors ?? 0)) return { bot: extra.trashBot!, name: `Deleted connector ${t}`, rank: t, deleted: true };
    const d = t - (options.trashConnectors ?? 0);
    return { bot: extra.deleteBot!, name: `Delete connector ${d}`, rank: d };
  };
  const total = connectors + (options.listConnectors ?? 0) + (options.updateConnectors ?? 0) + (options.trashConnectors ?? 0) + (options.deleteConnectors ?? 0);
  // Random v4 uuids, as connectors created before version-7 ids (and imported ones) have, handed out in
  // sorted order: each bot's connectors are still spread over the whole primary key, but the inserts
  // append to it instead of splitting pages all over it.
  const uuids = Array.from({ length: total }, () => randomUUID()).sort();
  const byBot = new Map<string, string[]>();
  const start = Date.now() - total * 1000;
  let pending: Promise<void> = Promise.resolve();
  for (let first = 0; first < total; first += batch) {
    const rows: unknown[][] = [];
    const tags: unknown[][] = [];
    const uses: unknown[][] = [];
    const content: unknown[][] = [];
    const versions: unknown[][] = [];
    for (let i = first; i < Math.min(first + batch, total); i++) {
      const { bot, name, rank, deleted = false } = plan(i);
      const uuid = uuids[i];
      (byBot.get(bot) ?? byBot.set(bot, []).get(bot)!).push(uuid);
      const at = new Date(start + i * 1000);
      const key = name.toLowerCase();
      const url = `https://api.example.com/items/${i}`;
      const deletedAt = deleted ? new Date(start + i * 1000 + 500) : null;
      const tag = `tag-${'abcdefghij'[rank % 10]}`;
      const group = `group-${rank % 100}`;
      const tagRows = [
        { name: tag, nameKey: tag, position: 0 },
        { name: group, nameKey: group, position: 1 },
      ];
      const usedBy = rank % 10 === 0 ? flowOf.get(bot)! : null;
      const connector = aStoredConnector({
        uuid,
        botUuid: bot,
        name,
        activeNameKey: deleted ? null : key,
        url,
        createdAt: at,
        createdBy: 'bench',
        updatedAt: at,
        updatedBy: `user-${i % 50}`,
        deletedAt,
        deletedBy: deleted ? 'bench' : null,
        version: SEEDED_VERSIONS,
        // The read copy of its tags and flows, as the API and the flow import write it.
        ...tagReadCopy(tagRows),
        flowsJson: usedBy === null ? [] : [{ uuid: usedBy, name: 'Main flow' }],
      });
      rows.push(REST_CONNECTOR_ROWS.values(connector));
      for (const row of tagRows) tags.push([uuid, row.name, row.nameKey, row.position]);
      // The record a get shows, the history of a create and two writes before it.
      const snapshot = JSON.stringify(connectorSnapshot(connector, [{ name: tag }, { name: group }]));
      versions.push(
        [uuid, 1, 'CREATED', at, 'bench', '["name","requestType","url","contentType","authType","output","tags"]', snapshot],
        [uuid, 2, 'UPDATED', at, `user-${i % 50}`, '["url"]', snapshot],
        [uuid, 3, deleted ? 'DELETED' : 'UPDATED', deletedAt ?? at, deleted ? 'bench' : `user-${i % 50}`, deleted ? '[]' : '["tags"]', snapshot],
      );
      if (usedBy !== null) uses.push([usedBy, uuid]);
      if (rank % 5 === 0) content.push([uuid, JSON.stringify([{ id: `opt-${i}`, option: 'Yes', urlRedirect: false }])]);
    }
    await pending;
    options.onProgress?.(first, total);
    pending = (async () => {
      await insertRows(runner, `rest_connectors (${REST_CONNECTOR_ROWS.names})`, rows);
      await insertRows(runner, 'rest_connector_versions (connector_uuid, version, operation, updated_at, updated_by, changed_fields, snapshot)', versions);
      await insertRows(runner, 'rest_connector_tags (connector_uuid, name, name_key, position)', tags);
      await insertRows(runner, 'flow_connectors (flow_uuid, connector_uuid)', uses);
      await insertRows(runner, 'connector_content (connector_uuid, content)', content);
    })();
  }
  await pending;
  options.onProgress?.(total, total);
  return { organization, environment, bots, connectorsOf: (bot) => byBot.get(bot) ?? [], environments, ...extra };
}

/**
 * Drops the non-unique secondary indexes of the big tables; the function returned adds them back as
 * they were (one sorted build each instead of random inserts that outgrow the buffer pool) and checks
 * that the tables are exactly as the migrations made them.
 */
async function dropSecondaryIndexes(runner: QueryRunner): Promise<() => Promise<void>> {
  const tables = ['rest_connectors', 'rest_connector_tags', 'flow_connectors', 'rest_connector_versions'];
  const indexes: Array<{ table: string; name: string; columns: string }> = await runner.query(
    "SELECT TABLE_NAME AS `table`, INDEX_NAME AS name, GROUP_CONCAT(CONCAT('`', COLUMN_NAME, '`') ORDER BY SEQ_IN_INDEX) AS columns " +
      'FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (?) AND NON_UNIQUE = 1 AND SUB_PART IS NULL ' +
      'GROUP BY TABLE_NAME, INDEX_NAME',
    [tables],
  );
  const definitions = async () => new Map(await Promise.all(tables.map(async (t) => [t, await createTable(runner, t)] as const)));
  const before = await definitions();
  const alter = (table: string, clause: (index: { name: string; columns: string }) => string) => {
    const mine = indexes.filter((index) => index.table === table);
    return mine.length === 0 ? undefined : runner.query(`ALTER TABLE \`${table}\` ${mine.map(clause).join(', ')}`);
  };
  for (const table of tables) await alter(table, (index) => `DROP INDEX \`${index.name}\``);
  return async () => {
    for (const table of tables) await alter(table, (index) => `ADD INDEX \`${index.name}\` (${index.columns})`);
    const after = await definitions();
    for (const table of tables) {
      if (after.get(table) !== before.get(table))
        throw new Error(`${table} differs after its indexes were rebuilt:\n${before.get(table)}\n${after.get(table)}`);
    }
  };
}

/** SHOW CREATE TABLE, its lines sorted: the same indexes in another order compare equal. */
async function createTable(runner: QueryRunner, table: string): Promise<string> {
  const [row] = await runner.query(`SHOW CREATE TABLE \`${table}\``);
  return String(row['Create Table'])
    .split('\n')
    .map((line) => line.replace(/,$/, ''))
    .sort()
    .join('\n');
}

/** One multi-row INSERT of `rows` into `into` (`table (columns)`); nothing when there is none. */
export async function insertRows(runner: QueryRunner, into: string, rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  const row = `(${rows[0].map(() => '?').join(', ')})`;
  await runner.query(`INSERT INTO ${into} VALUES ${rows.map(() => row).join(', ')}`, rows.flat());
}

const pad = (i: number) => String(i).padStart(4, '0');
