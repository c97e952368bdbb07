/** The database of one scale: created, migrated with the real migrations and seeded, or reused; then read back. */
import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { Connection, createConnection, ResultSetHeader, RowDataPacket } from 'mysql2/promise';
import { Scale, SCALES } from './args';
import { DELETE_BOT, LIST_BOT, MAIN_ENVIRONMENT, seedConnectors, TRASH_BOT, UPDATE_BOT, WRITE_BOT } from './seed-connectors';

/**
 * The server the databases are seeded on and read from: BENCH_MYSQL_SERVER, or with `--replica` the primary of the
 * bench's replication pair (`setBenchServer`).
 */
let server = process.env.BENCH_MYSQL_SERVER ?? 'mysql://root@127.0.0.1:3306';
export const benchServer = (): string => server;
/** `mysql://user@host:port`, without a database. */
export function setBenchServer(url: string): void {
  server = url.replace(/\/+$/, '');
}
/** Databases are named `<prefix>_<scale>`; the bench's own test runs under a prefix of its own. */
const PREFIX = process.env.BENCH_DATABASE_PREFIX ?? 'platform_bench';
if (!/^\w{1,48}$/.test(PREFIX)) throw new Error(`BENCH_DATABASE_PREFIX must be letters, digits and _, at most 48: ${PREFIX}`);
/** `<prefix>_<suffix>`: a database of the bench's, e.g. a scale's or another bench's. */
export const databaseNamed = (suffix: string) => `${PREFIX}_${suffix}`;
export const databaseOf = (scale: Scale) => databaseNamed(scale);
export const databaseUrlOf = (scale: Scale, on = server) => `${on}/${databaseOf(scale)}`;

/** What the scenarios address: ids read back from the database, so a reused one works the same. */
export interface Fixtures {
  organization: string;
  environment: string;
  /** An environment of the organization with BOTS_PER_ENVIRONMENT bots (the bot list). */
  botsEnvironment: string;
  /** Bots of the spread connectors that reads go round (page, quicksearch). */
  readBots: string[];
  /** Connectors of those bots that get-by-id goes round. */
  connectors: Array<{ bot: string; uuid: string }>;
  listBot: string;
  updateBot: string;
  writeBot: string;
  /** A bot with TRASH_CONNECTORS deleted connectors: the trash. */
  trashBot: string;
  /** A bot whose DELETE_CONNECTORS connectors deletes and restores toggle (all active before a run). */
  deleteBot: string;
  deletes: string[];
  /** The update bot's connectors, rewritten round-robin with their own names. */
  updates: Array<{ uuid: string; name: string }>;
  counts: Record<'connectors' | 'tags' | 'flowUses' | 'bots' | 'environments' | 'versions', number>;
}

export const LIST_CONNECTORS = 50;
const UPDATE_CONNECTORS = 1_000;
/** Hundreds of deleted connectors in one bot: the trash page must stay index-ordered (docs/query-plans.md). */
const TRASH_CONNECTORS = 500;
const DELETE_CONNECTORS = 2_000;
const EXTRA_ENVIRONMENTS = 9;
const BOTS_PER_ENVIRONMENT = 20;
const READ_BOTS = 50;
const CONNECTORS_PER_READ_BOT = 20;

export interface Prepared {
  fixtures: Fixtures;
  /** Seconds to create, migrate, seed and analyze; undefined when reused. */
  seedSeconds?: number;
  mariadbVersion: string;
}

export async function prepareDatabase(scale: Scale, reuse: boolean, log: (line: string) => void): Promise<Prepared> {
  const admin = await createConnection({ uri: server });
  try {
    const [[{ version }]] = await admin.query<RowDataPacket[]>('SELECT VERSION() AS version');
    const database = databaseOf(scale);
    let seedSeconds: number | undefined;
    if (!reuse) seedSeconds = await createAndSeed(admin, scale, log);
    await admin.changeUser({ database }).catch(() => {
      throw new Error(`database ${database} does not exist: run without --skip-seed`);
    });
    // A reused database gets the migrations written since it was seeded, as a deployment's `migration:run` would.
    if (reuse) await migrateReused(scale, log);
    let fixtures = await readFixtures(admin);
    // Creates of earlier runs are removed (their tags go with them: ON DELETE CASCADE; their versions first), then counted without them.
    await admin.query('DELETE v FROM rest_connector_versions v JOIN rest_connectors c ON c.uuid = v.connector_uuid WHERE c.bot_uuid = ?', [fixtures.writeBot]);
    const [removed] = await admin.query<ResultSetHeader>('DELETE FROM rest_connectors WHERE bot_uuid = ?', [fixtures.writeBot]);
    if (removed.affectedRows > 0) fixtures = await readFixtures(admin);
    // Deletes toggle: a run that stopped half-way leaves some deleted. Restore them, as the API would, so every run starts
    // from all active (a version is recorded for each, as the restore operation records one).
    await admin.query(
      'INSERT INTO rest_connector_versions (connector_uuid, version, operation, updated_at, updated_by, updated_by_image, changed_fields, snapshot) ' +
        "SELECT c.uuid, c.version + 1, 'RESTORED', NOW(3), 'bench', NULL, '[]', v.snapshot FROM rest_connectors c " +
        'JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version WHERE c.bot_uuid = ? AND c.deleted_at IS NOT NULL',
      [fixtures.deleteBot],
    );
    await admin.query(
      'UPDATE rest_connectors SET deleted_at = NULL, deleted_by = NULL, active_name_key = name_key, version = version + 1 WHERE bot_uuid = ? AND deleted_at IS NOT NULL',
      [fixtures.deleteBot],
    );
    if (fixtures.counts.connectors < SCALES[scale].connectors) {
      throw new Error(`${database} holds ${fixtures.counts.connectors} connectors, fewer than ${scale}: run without --skip-seed`);
    }
    await buildDenormalizedCopy(admin, log);
    return { fixtures, seedSeconds, mariadbVersion: String(version) };
  } finally {
    await admin.end();
  }
}

/**
 * The denormalized floor's table (bench/baseline-server.js with FLOOR=denormalized): one row per connector, its tags,
 * the keys its search matches and its flows as JSON on the row, in the order the answers list them, and the list's
 * content beside them; the least work a read's answer needs. Copied from the seeded rows when absent (a new seed drops
 * it with its database): the reads it serves go to bots the bench's writes leave alone.
 */
export const DENORMALIZED_TABLE = 'floor_connectors';

async function buildDenormalizedCopy(admin: Connection, log: (line: string) => void): Promise<void> {
  const [found] = await admin.query<RowDataPacket[]>('SHOW TABLES LIKE ?', [DENORMALIZED_TABLE]);
  if (found.length > 0) return;
  const started = Date.now();
  await admin.query(`DROP TABLE IF EXISTS ${DENORMALIZED_TABLE}_building`);
  await admin.query(`CREATE TABLE ${DENORMALIZED_TABLE}_building LIKE rest_connectors`);
  // The app's own read copy (tags_json, tag_keys, flows_json) is left out: the floor makes its copy itself, below.
  const [appCopy] = await admin.query<RowDataPacket[]>(
    "SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME IN ('tags_json', 'tag_keys', 'flows_json')",
    [`${DENORMALIZED_TABLE}_building`],
  );
  if (appCopy.length > 0) await admin.query(`ALTER TABLE ${DENORMALIZED_TABLE}_building ${appCopy.map(({ name }) => `DROP COLUMN \`${name}\``).join(', ')}`);
  const [kept] = await admin.query<RowDataPacket[]>(
    'SELECT COLUMN_NAME AS name FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION',
    [`${DENORMALIZED_TABLE}_building`],
  );
  const columns = kept.map(({ name }) => `\`${name}\``);
  await admin.query(
    `ALTER TABLE ${DENORMALIZED_TABLE}_building ADD COLUMN tags MEDIUMTEXT NOT NULL, ADD COLUMN tag_keys MEDIUMTEXT NOT NULL, ` +
      'ADD COLUMN flows MEDIUMTEXT NOT NULL, ADD COLUMN content MEDIUMTEXT NULL',
  );
  await admin.query(
    `INSERT INTO ${DENORMALIZED_TABLE}_building (${columns.join(', ')}, tags, tag_keys, flows, content) SELECT ${columns.map((column) => `c.${column}`).join(', ')}, ` +
      "COALESCE((SELECT JSON_ARRAYAGG(JSON_OBJECT('name', t.name) ORDER BY t.position) FROM rest_connector_tags t WHERE t.connector_uuid = c.uuid), '[]'), " +
      // One line per tag key: a search term never holds a line break (the app trims and splits terms), so LIKE '%term%' matches within one key.
      "COALESCE((SELECT GROUP_CONCAT(t.name_key ORDER BY t.position SEPARATOR '\\n') FROM rest_connector_tags t WHERE t.connector_uuid = c.uuid), ''), " +
      "COALESCE((SELECT JSON_ARRAYAGG(JSON_OBJECT('uuid', f.uuid, 'name', f.name) ORDER BY LOWER(f.name), f.uuid) FROM flow_connectors fc " +
      "JOIN flows f ON f.uuid = fc.flow_uuid WHERE fc.connector_uuid = c.uuid AND f.bot_uuid = c.bot_uuid), '[]'), " +
      '(SELECT cc.content FROM connector_content cc WHERE cc.connector_uuid = c.uuid) FROM rest_connectors c',
  );
  await admin.query(`RENAME TABLE ${DENORMALIZED_TABLE}_building TO ${DENORMALIZED_TABLE}`);
  await admin.query(`ANALYZE TABLE ${DENORMALIZED_TABLE}`);
  log(`  ${DENORMALIZED_TABLE}: the denormalized floor's copy of the connectors, made in ${elapsed(started)} s`);
}

async function migrateReused(scale: Scale, log: (line: string) => void): Promise<void> {
  const dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(databaseUrlOf(scale))));
  await dataSource.initialize();
  try {
    const ran = await dataSource.runMigrations();
    if (ran.length > 0) log(`  ${databaseOf(scale)}: ran ${ran.map(({ name }) => name).join(', ')}`);
  } finally {
    await dataSource.destroy();
  }
}

async function createAndSeed(admin: Connection, scale: Scale, log: (line: string) => void): Promise<number> {
  const started = Date.now();
  const database = databaseOf(scale);
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.query(`CREATE DATABASE ${database} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(databaseUrlOf(scale))));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
    const { connectors, bots } = SCALES[scale];
    let lastLog = 0;
    await seedConnectors(dataSource, {
      connectors,
      bots,
      listConnectors: LIST_CONNECTORS,
      updateConnectors: UPDATE_CONNECTORS,
      writeBot: true,
      trashConnectors: TRASH_CONNECTORS,
      deleteConnectors: DELETE_CONNECTORS,
      environments: EXTRA_ENVIRONMENTS,
      botsPerEnvironment: BOTS_PER_ENVIRONMENT,
      onProgress: (done, total) => {
        if (Date.now() - lastLog < 10_000 && done < total) return;
        lastLog = Date.now();
        log(`  seeded ${done.toLocaleString('en')} / ${total.toLocaleString('en')} connectors (${elapsed(started)} s)`);
      },
    });
    await dataSource.query(
      'ANALYZE TABLE organizations, environments, bots, flows, flow_connectors, rest_connectors, rest_connector_tags, connector_content, rest_connector_versions',
    );
  } finally {
    await dataSource.destroy();
  }
  const seconds = elapsed(started);
  log(`  ${database}: created, migrated, seeded and analyzed in ${seconds} s`);
  return seconds;
}

async function readFixtures(db: Connection): Promise<Fixtures> {
  const rows = async (sql: string, params: unknown[] = []) => (await db.query<RowDataPacket[]>(sql, params))[0];
  const one = async (sql: string, params: unknown[], what: string): Promise<string> => {
    const [row] = await rows(sql, params);
    if (!row) throw new Error(`the bench database has no ${what}: run without --skip-seed`);
    return String(Object.values(row)[0]);
  };
  const organization = await one("SELECT uuid FROM organizations WHERE name = 'Bench organization'", [], 'organization');
  const environment = await one('SELECT uuid FROM environments WHERE organization_uuid = ? AND name = ?', [organization, MAIN_ENVIRONMENT], 'environment');
  const botsEnvironment = await one(
    "SELECT uuid FROM environments WHERE organization_uuid = ? AND name LIKE 'Bench environment %' ORDER BY name LIMIT 1",
    [organization],
    'second environment',
  );
  const botNamed = (name: string) => one('SELECT uuid FROM bots WHERE environment_uuid = ? AND name = ?', [environment, name], name);
  const readBots = (await rows("SELECT uuid FROM bots WHERE environment_uuid = ? AND name LIKE 'Bot %' ORDER BY name LIMIT ?", [environment, READ_BOTS])).map(
    (row) => String(row.uuid),
  );
  const connectors: Fixtures['connectors'] = [];
  for (const bot of readBots) {
    const found = await rows('SELECT uuid FROM rest_connectors WHERE bot_uuid = ? AND deleted_at IS NULL ORDER BY name_key LIMIT ?', [
      bot,
      CONNECTORS_PER_READ_BOT,
    ]);
    connectors.push(...found.map((row) => ({ bot, uuid: String(row.uuid) })));
  }
  // Interleaved, so that consecutive gets go to different bots.
  connectors.sort((a, b) => a.uuid.localeCompare(b.uuid));
  const updateBot = await botNamed(UPDATE_BOT);
  const deleteBot = await botNamed(DELETE_BOT);
  const updates = (await rows('SELECT uuid, name FROM rest_connectors WHERE bot_uuid = ? AND deleted_at IS NULL ORDER BY uuid', [updateBot])).map((row) => ({
    uuid: String(row.uuid),
    name: String(row.name),
  }));
  const count = async (table: string) => Number((await rows(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
  return {
    organization,
    environment,
    botsEnvironment,
    readBots,
    connectors,
    listBot: await botNamed(LIST_BOT),
    updateBot,
    writeBot: await botNamed(WRITE_BOT),
    trashBot: await botNamed(TRASH_BOT),
    deleteBot,
    deletes: (await rows('SELECT uuid FROM rest_connectors WHERE bot_uuid = ? ORDER BY uuid', [deleteBot])).map((row) => String(row.uuid)),
    updates,
    counts: {
      connectors: await count('rest_connectors'),
      tags: await count('rest_connector_tags'),
      flowUses: await count('flow_connectors'),
      bots: await count('bots'),
      environments: await count('environments'),
      versions: await count('rest_connector_versions'),
    },
  };
}

/**
 * Statements each server has received so far (SHOW GLOBAL STATUS 'Questions'), in the order of `servers` (the bench's
 * server; with `--replica` the primary and the replica): queries per request, by difference. Each read adds one (its own).
 */
export async function statementCounter(servers: string[] = [server]): Promise<{ read(): Promise<number[]>; end(): Promise<void> }> {
  const connections = await Promise.all(servers.map((uri) => createConnection({ uri })));
  return {
    read: () =>
      Promise.all(connections.map(async (connection) => Number((await connection.query<RowDataPacket[]>("SHOW GLOBAL STATUS LIKE 'Questions'"))[0][0].Value))),
    end: async () => void (await Promise.all(connections.map((connection) => connection.end()))),
  };
}

const elapsed = (since: number) => Math.round((Date.now() - since) / 100) / 10;
