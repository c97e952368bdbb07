'use strict';
/**
 * The floor of `npm run bench`: what Node does for the same requests with no framework. node:http,
 * a mysql2 pool of the apps' size (10), the HS256 JWT checked with node:crypto (signature, exp, the
 * path's organization, the write scope), one scoped statement per read (the page: its count and its
 * rows, in parallel), each in the form that measured least work (docs/performance.md), a write's
 * statements, its tags (and the row's read copy of them, tags_json and tag_keys, as the app writes it) and its
 * version in one transaction, the apps' JSON. No logging, no validation
 * beyond what the query needs.
 * With FLOOR=denormalized, the reads of connectors come from one row per connector instead (floor_connectors, made
 * by bench/database.ts): its tags, tag keys, flows and the list's content stored on the row as JSON in the order the
 * answer lists them, one statement per read and nothing put in order in code: the least work the answers need,
 * whatever the schema. Writes and the other reads are the union floor's.
 * Env: PORT, DATABASE_URL, AUTH_JWT_SECRET, FLOOR (union, the default, or denormalized).
 */
const { createHmac, randomUUID, timingSafeEqual } = require('node:crypto');
const { createServer } = require('node:http');
const mysql = require('mysql2/promise');

const SECRET = process.env.AUTH_JWT_SECRET;
const pool = mysql.createPool({
  uri: process.env.DATABASE_URL,
  connectionLimit: 10,
  enableKeepAlive: true,
  timezone: 'Z',
  charset: 'utf8mb4_unicode_ci',
});

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** The caller's claims, or a 401: HS256 signature and an unexpired `exp`. */
function verify(header) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header || '');
  const parts = match ? match[1].split('.') : [];
  if (parts.length !== 3) throw new HttpError(401, 'Authorization: Bearer <token> is required');
  const expected = createHmac('sha256', SECRET).update(`${parts[0]}.${parts[1]}`).digest();
  const signature = Buffer.from(parts[2], 'base64url');
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw new HttpError(401, 'The token is invalid');
  const header_ = JSON.parse(Buffer.from(parts[0], 'base64url').toString());
  const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString());
  if (header_.alg !== 'HS256' || typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) throw new HttpError(401, 'The token is invalid');
  return claims;
}

function authorize(claims, org, scope) {
  const orgs = Array.isArray(claims.orgs) ? claims.orgs : [];
  if (!orgs.includes('*') && !orgs.includes(org.toLowerCase())) throw new HttpError(403, `Not allowed to access organization ${org}`);
  if (scope && !String(claims.scope || '').split(' ').includes(scope)) throw new HttpError(403, `This operation needs the ${scope} scope`);
}

const json = (value) => (typeof value === 'string' ? JSON.parse(value) : value);
const contains = (term) => `%${term.toLowerCase().replace(/[!%_]/g, '!$&')}%`;
// The bot must be in the environment and the environment in the organization: joined into each query.
const SCOPE = 'JOIN environments e ON e.uuid = b.environment_uuid WHERE b.uuid = ? AND b.environment_uuid = ? AND e.organization_uuid = ?';
const TAGS = "(SELECT JSON_ARRAYAGG(JSON_OBJECT('name', t.name) ORDER BY t.position) FROM rest_connector_tags t WHERE t.connector_uuid = c.uuid)";
const FLOWS =
  "(SELECT JSON_ARRAYAGG(JSON_OBJECT('uuid', f.uuid, 'name', f.name) ORDER BY f.name) FROM flow_connectors fc " +
  'JOIN flows f ON f.uuid = fc.flow_uuid WHERE fc.connector_uuid = c.uuid AND f.bot_uuid = c.bot_uuid)';
// The columns a get answers from, and as many NULLs for the union's tag and flow rows.
const CONNECTOR_COLUMNS = ['uuid', 'name', 'description', 'request_type', 'url', 'headers', 'content_type', 'auth_type', 'grant_type', 'basic_token',
  'bearer_token', 'client_id', 'client_secret', 'oauth_url', 'auth_username', 'auth_password', 'api_key_name', 'api_key_in', 'api_key', 'body', 'output',
  'updated_at', 'updated_by'];
const CONNECTOR_NULLS = CONNECTOR_COLUMNS.map(() => 'NULL').join(', ');
const ORDER = { name: 'c.name_key', updatedAt: 'c.updated_at', updatedBy: 'c.updated_by' };
const SORTED = { empty: false, sorted: true, unsorted: false };

async function rows(sql, params) {
  const [result] = await pool.query(sql, params);
  return result;
}

/**
 * Tags and flows put in their order in code (the bench's names are ASCII: `<` is the app's order for them). The union
 * of the connector and its relations, not ordered in SQL, costs less than aggregating them in subqueries
 * (docs/performance.md, "Reads against a tighter floor").
 */
const byPosition = (a, b) => a.position - b.position;
const byKey = (a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0);

async function getConnector([org, env, bot, uuid]) {
  const found = await rows(
    `SELECT 0 AS kind, 0 AS position, NULL AS relation_name, NULL AS relation_uuid, ${CONNECTOR_COLUMNS.map((column) => `c.${column}`).join(', ')} ` +
      'FROM rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid ' +
      `${SCOPE} AND c.uuid = ? AND c.bot_uuid = ? AND c.deleted_at IS NULL ` +
      `UNION ALL SELECT 1, t.position, t.name, NULL, ${CONNECTOR_NULLS} FROM rest_connector_tags t WHERE t.connector_uuid = ? ` +
      `UNION ALL SELECT 2, 0, f.name, f.uuid, ${CONNECTOR_NULLS} FROM flow_connectors fc JOIN flows f ON f.uuid = fc.flow_uuid WHERE fc.connector_uuid = ? AND f.bot_uuid = ?`,
    [bot, env, org, uuid, bot, uuid, uuid, bot],
  );
  const c = found.find((row) => Number(row.kind) === 0);
  if (!c) throw new HttpError(404, `Rest connector ${uuid} not found`);
  const tags = found.filter((row) => Number(row.kind) === 1).map((row) => ({ position: Number(row.position), name: row.relation_name }));
  const flows = found.filter((row) => Number(row.kind) === 2).map((row) => ({ key: row.relation_name.toLowerCase(), uuid: row.relation_uuid, name: row.relation_name }));
  return connectorAnswer(c, tags.sort(byPosition).map(({ name }) => ({ name })), flows.sort(byKey).map(({ uuid: id, name }) => ({ uuid: id, name })));
}

/** A get's answer from the connector's row and its tags and flows, in order; secrets as their placeholders. */
function connectorAnswer(c, tags, flows) {
  const secret = (value, placeholder) => (value === null ? null : placeholder);
  return {
    uuid: c.uuid, name: c.name, description: c.description, requestType: c.request_type, url: c.url, headers: json(c.headers),
    contentType: c.content_type, authType: c.auth_type, grantType: c.grant_type, basicToken: secret(c.basic_token, '<BASIC_TOKEN>'),
    bearerToken: secret(c.bearer_token, '<BEARER_TOKEN>'), clientId: c.client_id, clientSecret: secret(c.client_secret, '<CLIENT_SECRET>'),
    oauthUrl: c.oauth_url, authUsername: c.auth_username, authPassword: secret(c.auth_password, '<PASSWORD>'),
    apiKeyName: c.api_key_name, apiKeyIn: c.api_key_in, apiKey: secret(c.api_key, '<API_KEY>'), body: c.body, output: c.output,
    tags, flows, updatedAt: c.updated_at.toISOString(), updatedBy: c.updated_by,
  };
}

async function page([org, env, bot], query) {
  const number = Math.max(1, Number(query.get('page') || 1)) - 1;
  const size = Math.min(100, Math.max(1, Number(query.get('linesPerPage') || 5)));
  const direction = String(query.get('direction') || 'DESC').toUpperCase() === 'ASC' ? 'ASC' : 'DESC';
  const terms = query.getAll('searchTerms').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  const filter = terms
    .map(() => " AND (c.name_key LIKE ? ESCAPE '!' OR EXISTS (SELECT 1 FROM rest_connector_tags t WHERE t.connector_uuid = c.uuid AND t.name_key LIKE ? ESCAPE '!'))")
    .join('');
  const filterParams = terms.flatMap((term) => [contains(term), contains(term)]);
  const [[counted], items] = await Promise.all([
    rows(
      `SELECT (SELECT COUNT(*) FROM bots b ${SCOPE}) AS scope, (SELECT COUNT(*) FROM rest_connectors c WHERE c.bot_uuid = ? AND c.deleted_at IS NULL${filter}) AS total`,
      [bot, env, org, bot, ...filterParams],
    ),
    rows(
      `SELECT c.uuid, c.name, c.updated_at, c.updated_by, c.updated_by_image, ${TAGS} AS tags, ${FLOWS} AS flows FROM rest_connectors c ` +
        `WHERE c.bot_uuid = ? AND c.deleted_at IS NULL${filter} ORDER BY ${ORDER[query.get('orderBy')] || ORDER.updatedAt} ${direction}, c.uuid ${direction} LIMIT ? OFFSET ?`,
      [bot, ...filterParams, size, number * size],
    ),
  ]);
  if (!counted.scope) throw new HttpError(404, `Bot ${bot} not found`);
  return pageAnswer(number, size, Number(counted.total), items);
}

/** A page's answer from its rows (their tags and flows as JSON text; NULL for none). */
function pageAnswer(number, size, total, items) {
  const totalPages = Math.ceil(total / size);
  const content = items.map((c) => ({
    uuid: c.uuid, name: c.name, flows: json(c.flows) || [], tags: json(c.tags) || [], updatedAt: c.updated_at.toISOString(),
    updatedBy: c.updated_by, user: { username: c.updated_by, image: c.updated_by_image },
  }));
  return {
    content, pageable: { pageNumber: number, pageSize: size, offset: number * size, paged: true, unpaged: false, sort: SORTED },
    totalPages, totalElements: total, last: number >= totalPages - 1, size, number, sort: SORTED,
    numberOfElements: content.length, first: number === 0, empty: content.length === 0,
  };
}

/** Quicksearch over `table` (the apps' rest_connectors, or the denormalized floor's copy). */
const quicksearchIn = (table) =>
  async function quicksearch([org, env, bot], query) {
    const term = String(query.get('searchTerm') || '').trim();
    if (!term) throw new HttpError(400, 'searchTerm must be a non-blank string');
    const limit = Math.min(50, Math.max(1, Number(query.get('limit') || 6)));
    const found = await rows(
      `SELECT c.name FROM bots b JOIN environments e ON e.uuid = b.environment_uuid LEFT JOIN ${table} c ON c.bot_uuid = b.uuid ` +
        `AND c.deleted_at IS NULL AND c.name_key LIKE ? ESCAPE '!' WHERE b.uuid = ? AND b.environment_uuid = ? AND e.organization_uuid = ? ` +
        `ORDER BY CASE WHEN c.name_key LIKE ? ESCAPE '!' THEN 0 ELSE 1 END, c.name_key LIMIT ?`,
      [contains(term), bot, env, org, contains(term).slice(1), limit],
    );
    if (found.length === 0) throw new HttpError(404, `Bot ${bot} not found`);
    return found.filter((row) => row.name !== null).map((row) => row.name);
  };

/** The bot's connectors with their content, and their tags, as one union put in order in code (an empty bot in scope: one row of NULLs). */
async function list([org, env, bot]) {
  const found = await rows(
    'SELECT 0 AS kind, c.uuid AS uuid, c.name AS name, c.name_key AS name_key, cc.content AS content, 0 AS position ' +
      'FROM bots b JOIN environments e ON e.uuid = b.environment_uuid LEFT JOIN rest_connectors c ON c.bot_uuid = b.uuid AND c.deleted_at IS NULL ' +
      'LEFT JOIN connector_content cc ON cc.connector_uuid = c.uuid WHERE b.uuid = ? AND b.environment_uuid = ? AND e.organization_uuid = ? ' +
      'UNION ALL SELECT 1, t.connector_uuid, t.name, NULL, NULL, t.position FROM rest_connectors c JOIN rest_connector_tags t ON t.connector_uuid = c.uuid ' +
      'WHERE c.bot_uuid = ? AND c.deleted_at IS NULL',
    [bot, env, org, bot],
  );
  if (found.length === 0) throw new HttpError(404, `Bot ${bot} not found`);
  const tags = new Map();
  const connectors = [];
  for (const row of found) {
    if (Number(row.kind) === 1) {
      const tag = { position: Number(row.position), name: row.name };
      const group = tags.get(row.uuid);
      if (group) group.push(tag);
      else tags.set(row.uuid, [tag]);
    } else if (row.uuid !== null) connectors.push({ key: row.name_key, uuid: row.uuid, name: row.name, content: json(row.content) || [] });
  }
  connectors.sort(byKey);
  return {
    data: connectors.map(({ uuid, name, content }) => ({ uuid, name, tags: (tags.get(uuid) || []).sort(byPosition).map((tag) => ({ name: tag.name })), content })),
  };
}

/** The fields a version's changed_fields may name, in the record's order (the app's RECORDED_FIELDS). */
const RECORDED_FIELDS = ['name', 'description', 'requestType', 'url', 'headers', 'contentType', 'authType', 'grantType', 'basicToken', 'bearerToken',
  'clientId', 'clientSecret', 'oauthUrl', 'authUsername', 'authPassword', 'apiKeyName', 'apiKeyIn', 'apiKey', 'body', 'output', 'tags'];
const hasValue = (value) => value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/**
 * The columns of a full write, from a JSON body (only what the statement needs is checked), and the record
 * a version keeps of it (the bench's bodies carry no secrets: every secret is null).
 */
function writeValues(body, claims) {
  const dto = JSON.parse(body);
  const name = typeof dto.name === 'string' ? dto.name.trim() : '';
  if (!name || name.length > 100 || typeof dto.url !== 'string' || typeof dto.requestType !== 'string') throw new HttpError(400, 'Invalid body');
  const key = name.toLowerCase();
  const by = claims.username || claims.sub;
  const now = new Date();
  const tags = Array.isArray(dto.tags) ? dto.tags.map((tag, position) => [String(tag.name), String(tag.name).toLowerCase(), position]) : [];
  const record = {
    name, description: dto.description ?? null, requestType: dto.requestType, url: dto.url, headers: dto.headers || [], contentType: dto.contentType,
    authType: dto.authType, grantType: null, basicToken: null, bearerToken: null, clientId: null, clientSecret: null, oauthUrl: null, authUsername: null,
    authPassword: null, apiKeyName: null, apiKeyIn: null, apiKey: null, body: String(dto.body ?? ''), output: String(dto.output ?? ''), tags: tags.map(([tag]) => ({ name: tag })),
  };
  return {
    values: [name, key, key, record.description, dto.requestType, dto.url, JSON.stringify(record.headers), dto.contentType, dto.authType,
      record.body, record.output, now, by],
    tags,
    /** The row's read copy of its tags (tags_json, tag_keys), which the app writes with the row. */
    tagCopy: [JSON.stringify(record.tags), tags.map(([, tagKey]) => tagKey).join('\n')],
    /** The version's columns after the connector's uuid and version: when, who, changed_fields (every field set), snapshot. */
    version: (uuid) => [now, by, JSON.stringify(RECORDED_FIELDS.filter((field) => hasValue(record[field]))),
      JSON.stringify({ uuid, ...record, updatedAt: now.toISOString(), updatedBy: by })],
  };
}

/** A write's version, numbered as the connector now is. */
const RECORD_WRITE =
  'INSERT INTO rest_connector_versions (connector_uuid, version, operation, updated_at, updated_by, updated_by_image, changed_fields, snapshot) ' +
  'SELECT c.uuid, c.version, ?, ?, ?, NULL, ?, ? FROM rest_connectors c WHERE c.uuid = ?';

/** The connector's statement and its tags in one transaction, run again (3 attempts in all) when MariaDB aborts it for a lock conflict, as the app does. */
async function inTransaction(write) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transactionOnce(write);
    } catch (error) {
      if (attempt >= 3 || !['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT'].includes(error.code)) throw error;
    }
  }
}

async function transactionOnce(write) {
  const connection = await pool.getConnection();
  try {
    await connection.query('START TRANSACTION');
    const result = await write((sql, params) => connection.query(sql, params).then(([r]) => r));
    await connection.query(result ? 'COMMIT' : 'ROLLBACK');
    return result;
  } catch (error) {
    await connection.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
}

function insertTags(run, uuid, tags) {
  if (tags.length === 0) return undefined;
  return run(`INSERT INTO rest_connector_tags (connector_uuid, name, name_key, position) VALUES ${tags.map(() => '(?, ?, ?, ?)').join(', ')}`,
    tags.flatMap((tag) => [uuid, ...tag]));
}

/** A version-7 (time-ordered) UUID like the app's: the time in ms over the first 48 bits of a random one (no counter). */
function uuidV7() {
  const time = Date.now().toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomUUID().slice(15)}`;
}

async function create([org, env, bot], body, claims, res) {
  const uuid = uuidV7();
  const { values, tags, tagCopy, version } = writeValues(body, claims);
  try {
    const created = await inTransaction(async (run) => {
      const result = await run(
        'INSERT INTO rest_connectors (uuid, bot_uuid, name, name_key, active_name_key, description, request_type, url, headers, content_type, auth_type, ' +
          'body, output, updated_at, updated_by, created_at, created_by, tags_json, tag_keys, version) ' +
          `SELECT ?, b.uuid, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1 FROM bots b ${SCOPE}`,
        [uuid, ...values, values[11], values[12], ...tagCopy, bot, env, org],
      );
      if (!result.affectedRows) return false;
      await insertTags(run, uuid, tags);
      await run(RECORD_WRITE, ['CREATED', ...version(uuid), uuid]);
      return true;
    });
    if (!created) throw new HttpError(404, `Bot ${bot} not found`);
  } catch (error) {
    if (error.code === 'ER_DUP_ENTRY') throw new HttpError(409, `A rest connector named ${values[0]} already exists`);
    throw error;
  }
  res.statusCode = 201;
  res.setHeader('Location', `/platform-transactional-service/org/${org}/env/${env}/bot/${bot}/rest-connectors/${uuid}`);
  return { uuid };
}

async function update([org, env, bot, uuid], body, claims) {
  const { values, tags, tagCopy, version } = writeValues(body, claims);
  const updated = await inTransaction(async (run) => {
    const result = await run(
      'UPDATE rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid SET c.name = ?, c.name_key = ?, ' +
        'c.active_name_key = ?, c.description = ?, c.request_type = ?, c.url = ?, c.headers = ?, c.content_type = ?, c.auth_type = ?, c.body = ?, ' +
        'c.output = ?, c.updated_at = ?, c.updated_by = ?, c.tags_json = ?, c.tag_keys = ?, c.version = c.version + 1 ' +
        'WHERE c.uuid = ? AND c.bot_uuid = ? AND b.environment_uuid = ? AND e.organization_uuid = ? AND c.deleted_at IS NULL',
      [...values, ...tagCopy, uuid, bot, env, org],
    );
    if (!result.affectedRows) return false;
    await run('DELETE FROM rest_connector_tags WHERE connector_uuid = ?', [uuid]);
    await insertTags(run, uuid, tags);
    await run(RECORD_WRITE, ['UPDATED', ...version(uuid), uuid]);
    return true;
  });
  if (!updated) throw new HttpError(404, `Rest connector ${uuid} not found`);
  return { message: 'Rest connector updated', data: uuid };
}

/** A delete or a restore leaves the record as it was: its version copies the snapshot of the version before (the app's statement). */
const RECORD_UNCHANGED =
  'INSERT INTO rest_connector_versions (connector_uuid, version, operation, updated_at, updated_by, updated_by_image, changed_fields, snapshot) ' +
  "SELECT c.uuid, c.version, ?, ?, ?, NULL, '[]', v.snapshot FROM rest_connectors c " +
  'JOIN rest_connector_versions v ON v.connector_uuid = c.uuid AND v.version = c.version - 1 WHERE c.uuid = ?';

/** Soft delete, or restore (`deleted`: whether the connector must be deleted now), with its version, in one transaction. */
async function toggle([org, env, bot, uuid], claims, deleted) {
  const by = claims.username || claims.sub;
  const now = new Date();
  const done = await inTransaction(async (run) => {
    const result = await run(
      'UPDATE rest_connectors c JOIN bots b ON b.uuid = c.bot_uuid JOIN environments e ON e.uuid = b.environment_uuid SET ' +
        (deleted
          ? 'c.deleted_at = NULL, c.deleted_by = NULL, c.active_name_key = c.name_key, c.version = c.version + 1 WHERE c.deleted_at IS NOT NULL'
          : 'c.deleted_at = ?, c.deleted_by = ?, c.active_name_key = NULL, c.version = c.version + 1 WHERE c.deleted_at IS NULL') +
        ' AND c.uuid = ? AND c.bot_uuid = ? AND b.environment_uuid = ? AND e.organization_uuid = ?',
      [...(deleted ? [] : [now, by]), uuid, bot, env, org],
    );
    if (!result.affectedRows) return false;
    await run(RECORD_UNCHANGED, [deleted ? 'RESTORED' : 'DELETED', now, by, uuid]);
    return true;
  });
  if (!done) throw new HttpError(deleted ? 409 : 404, `Rest connector ${uuid} not found ${deleted ? 'deleted' : 'active'}`);
  return deleted ? { message: 'Rest connector restored', data: uuid } : undefined;
}

async function environments([org]) {
  // Not joined to the organization: that join makes MariaDB sort through an on-disk temporary table (the JSON
  // text columns). The organization is checked only when it has no environments.
  const found = await rows('SELECT e.* FROM environments e WHERE e.organization_uuid = ? ORDER BY LOWER(e.name), e.uuid', [org]);
  if (found.length === 0 && (await rows('SELECT 1 FROM organizations WHERE uuid = ?', [org])).length === 0) {
    throw new HttpError(404, `Organization ${org} not found`);
  }
  return found.map((e) => ({
    uuid: e.uuid, organizationUuid: e.organization_uuid, instanceUuid: e.instance_uuid, instanceName: e.instance_name,
    channelInstanceUuid: e.channel_instance_uuid, channelInstanceName: e.channel_instance_name, connectorInstanceUuid: e.connector_instance_uuid,
    connectorInstanceName: e.connector_instance_name, dns: e.dns, apiURL: e.api_url, name: e.name, removed: Boolean(e.removed),
    channelApiUrl: e.channel_api_url, connectorApiUrl: e.connector_api_url, applications: json(e.applications), permissions: json(e.permissions),
  }));
}

async function bots([org, env]) {
  const found = await rows(
    'SELECT b.uuid, b.environment_uuid, b.name, b.image FROM environments e LEFT JOIN bots b ON b.environment_uuid = e.uuid ' +
      'WHERE e.uuid = ? AND e.organization_uuid = ? ORDER BY LOWER(b.name), b.uuid',
    [env, org],
  );
  if (found.length === 0) throw new HttpError(404, `Environment ${env} not found`);
  return { bots: found.filter((b) => b.uuid !== null).map((b) => ({ uuid: b.uuid, environmentUuid: b.environment_uuid, name: b.name, image: b.image })) };
}

/** The denormalized floor's reads: floor_connectors, one row per connector (bench/database.ts). */
const DENORMALIZED = {
  async get([org, env, bot, uuid]) {
    const [c] = await rows(
      `SELECT ${CONNECTOR_COLUMNS.map((column) => `c.${column}`).join(', ')}, c.tags, c.flows FROM floor_connectors c JOIN bots b ON b.uuid = c.bot_uuid ` +
        `${SCOPE} AND c.uuid = ? AND c.bot_uuid = ? AND c.deleted_at IS NULL`,
      [bot, env, org, uuid, bot],
    );
    if (!c) throw new HttpError(404, `Rest connector ${uuid} not found`);
    return connectorAnswer(c, json(c.tags), json(c.flows));
  },

  async page([org, env, bot], query) {
    const number = Math.max(1, Number(query.get('page') || 1)) - 1;
    const size = Math.min(100, Math.max(1, Number(query.get('linesPerPage') || 5)));
    const direction = String(query.get('direction') || 'DESC').toUpperCase() === 'ASC' ? 'ASC' : 'DESC';
    const terms = query.getAll('searchTerms').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
    const filter = terms.map(() => " AND (c.name_key LIKE ? ESCAPE '!' OR c.tag_keys LIKE ? ESCAPE '!')").join('');
    const filterParams = terms.flatMap((term) => [contains(term), contains(term)]);
    const [[counted], items] = await Promise.all([
      rows(
        `SELECT (SELECT COUNT(*) FROM bots b ${SCOPE}) AS scope, (SELECT COUNT(*) FROM floor_connectors c WHERE c.bot_uuid = ? AND c.deleted_at IS NULL${filter}) AS total`,
        [bot, env, org, bot, ...filterParams],
      ),
      rows(
        `SELECT c.uuid, c.name, c.updated_at, c.updated_by, c.updated_by_image, c.tags, c.flows FROM floor_connectors c ` +
          `WHERE c.bot_uuid = ? AND c.deleted_at IS NULL${filter} ORDER BY ${ORDER[query.get('orderBy')] || ORDER.updatedAt} ${direction}, c.uuid ${direction} LIMIT ? OFFSET ?`,
        [bot, ...filterParams, size, number * size],
      ),
    ]);
    if (!counted.scope) throw new HttpError(404, `Bot ${bot} not found`);
    return pageAnswer(number, size, Number(counted.total), items);
  },

  quicksearch: quicksearchIn('floor_connectors'),

  /**
   * Ordered in SQL by the index (bot, deleted_at, name_key, uuid), the connectors the driving table so that no sort
   * is needed; a bot with none is told from one out of scope by a second statement, on that answer only.
   */
  async list([org, env, bot]) {
    const found = await rows(
      'SELECT c.uuid, c.name, c.tags, c.content FROM floor_connectors c JOIN bots b ON b.uuid = c.bot_uuid ' +
        `${SCOPE} AND c.bot_uuid = ? AND c.deleted_at IS NULL ORDER BY c.name_key, c.uuid`,
      [bot, env, org, bot],
    );
    if (found.length === 0 && (await rows(`SELECT 1 FROM bots b ${SCOPE}`, [bot, env, org])).length === 0) throw new HttpError(404, `Bot ${bot} not found`);
    return { data: found.map((c) => ({ uuid: c.uuid, name: c.name, tags: json(c.tags), content: json(c.content) || [] })) };
  },
};
const READS = process.env.FLOOR === 'denormalized' ? DENORMALIZED : { get: getConnector, page, quicksearch: quicksearchIn('rest_connectors'), list };

const CONNECTORS = /^\/platform-transactional-service\/org\/([^/]+)\/env\/([^/]+)\/bot\/([^/]+)\/rest-connectors(?:\/([^/]+))?(\/restore)?$/;
const ENVIRONMENTS = /^\/platform-environment\/org\/([^/]+)\/environments$/;
const BOTS = /^\/platform-bot-admin\/org\/([^/]+)\/env\/([^/]+)\/bots-admin$/;

async function route(req, res, body) {
  const [path, search = ''] = req.url.split('?', 2);
  const query = new URLSearchParams(search);
  if (path === '/health/ready') return (await rows('SELECT 1'), { status: 'ok' });
  let match = CONNECTORS.exec(path);
  if (match) {
    const [, org, env, bot, sub, restore] = match;
    const write = req.method !== 'GET';
    const claims = verify(req.headers.authorization);
    authorize(claims, org, write ? 'connectors:write' : undefined);
    if (req.method === 'GET' && sub === 'pagination') return READS.page([org, env, bot], query);
    if (req.method === 'GET' && sub === 'quicksearch') return READS.quicksearch([org, env, bot], query);
    if (req.method === 'GET' && sub === 'list') return READS.list([org, env, bot]);
    if (req.method === 'GET' && sub) return READS.get([org, env, bot, sub]);
    if (req.method === 'POST' && sub && restore) return toggle([org, env, bot, sub], claims, true);
    if (req.method === 'DELETE' && sub && !restore) return (res.statusCode = 204), toggle([org, env, bot, sub], claims, false);
    if (restore) throw new HttpError(404, `Cannot ${req.method} ${path}`);
    if (req.method === 'POST' && !sub) return create([org, env, bot], body, claims, res);
    if (req.method === 'PUT' && sub) return update([org, env, bot, sub], body, claims);
  }
  if (req.method === 'GET' && (match = ENVIRONMENTS.exec(path))) {
    authorize(verify(req.headers.authorization), match[1]);
    return environments([match[1]]);
  }
  if (req.method === 'GET' && (match = BOTS.exec(path))) {
    authorize(verify(req.headers.authorization), match[1]);
    return bots([match[1], match[2]]);
  }
  throw new HttpError(404, `Cannot ${req.method} ${path}`);
}

function send(res, status, value) {
  if (status === 204) return res.writeHead(204).end();
  const text = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

createServer((req, res) => {
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size <= 256 * 1024) chunks.push(chunk);
  });
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    Promise.resolve()
      .then(() => (size > 256 * 1024 ? Promise.reject(new HttpError(413, 'Payload too large')) : route(req, res, body)))
      .then(
        (value) => send(res, res.statusCode || 200, value),
        (error) => {
          const status = error instanceof HttpError ? error.status : error instanceof SyntaxError ? 400 : 500;
          if (status === 500) console.error(error);
          send(res, status, { statusCode: status, message: error.message, path: req.url, timestamp: new Date().toISOString() });
        },
      );
  });
}).listen(Number(process.env.PORT || 38010), '127.0.0.1');

const stop = () => pool.end().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
