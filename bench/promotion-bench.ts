/**
 * `npm run bench:promotions -- [--connectors 1000] [--repetitions 5] [--quick] [--own-server]`: promotions of a bot's
 * connectors (docs/api-contract.md, "Promotions") through the built transactional service as production runs it. Two
 * environments of one organization, a source bot of `--connectors` connectors and a target bot holding the mix of
 * bench/promotion-report.ts (kindOf): creates, updates (some with secrets the target keeps), unchanged ones and, with
 * `prune`, deletes. Each repetition times the dry run (the plan), the apply with its digest and the revert (which
 * puts the target back for the next one), with the app's and mariadbd's CPU time and the statements of each; the
 * app's RSS is sampled throughout. Results go to bench/results-promotions.json and .md.
 */
import { buildDataSourceOptions, connectorSnapshot, PlatformDataSource, REST_CONNECTOR_ROWS, RestConnector, tagReadCopy } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { Importer } from '@app/seed-data';
import { createConnection, RowDataPacket } from 'mysql2/promise';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { QueryRunner } from 'typeorm';
import { Agent, request } from 'undici';
import { aStoredConnector } from '../apps/transactional-service/src/rest-connectors/testing/connector-factories';
import { startReplicationPair } from '../test/support/mariadb-replication';
import { benchServer, databaseNamed } from './database';
import {
  benchToken,
  cpuMs,
  databasePid,
  ensureBuilt,
  imageNodeFlags,
  machineBusyMs,
  OTHER_LOAD_WARNING,
  RssSampler,
  rssKb,
  runBench,
  Server,
  startApp,
} from './processes';
import {
  connectorName,
  expectedPlan,
  hasSecret,
  inTarget,
  Kind,
  kindOf,
  parsePromotionArgs,
  PromotionArgs,
  promotionMarkdown,
  PromotionResults,
  Repetition,
  STATEMENT_KINDS,
  summarize,
  targetOnly,
  targetOnlyName,
  Timed,
  UsageError,
} from './promotion-report';
import { machine, round } from './report';
import { insertRows } from './seed-connectors';

const TX = '/platform-transactional-service';
const log = (line: string) => process.stdout.write(`${line}\n`);

/** What each environment's `{{env.BASE_URL}}` stands for: the hosts differ, as between stages. Never called (no test run). */
const BASE_URLS = { source: 'https://staging.api.example.com', target: 'https://api.example.com' };

interface Tenant {
  organization: string;
  source: { environment: string; bot: string };
  target: { environment: string; bot: string };
}

let stopAll = async (): Promise<void> => undefined;

async function main(): Promise<void> {
  let args: PromotionArgs;
  try {
    const parsed = parsePromotionArgs(process.argv.slice(2));
    if (parsed === 'help') {
      log(new UsageError('').message.trim());
      return;
    }
    args = parsed;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
  ensureBuilt(['transactional-service'], args.build, log);

  // The database: on BENCH_MYSQL_SERVER, or on a mariadbd of the bench's own (its statements are the app's alone).
  const database = databaseNamed('promotions');
  let server = benchServer();
  let serverPid: number | undefined;
  if (args.ownServer) {
    const pair = await startReplicationPair({ name: 'bench-promotions' });
    stopAll = () => pair.close();
    // Only the primary serves: its replica stops applying, so that its work does not load the machine.
    await pair.replica.query('STOP SLAVE');
    server = pair.primary.url();
    serverPid = pair.primary.pid;
  } else {
    serverPid = databasePid(server);
  }
  const databaseUrl = `${server}/${database}`;
  const seedStarted = Date.now();
  const tenant = await createAndSeed(server, database, args.connectors);

  const app = await startApp('transactional-service', databaseUrl);
  const previousStop = stopAll;
  stopAll = async () => {
    await app.stop();
    await previousStop();
  };
  const client = new Client(app.port, await benchToken(tenant.organization, 0));
  try {
    await seedThroughApi(client, tenant, args.connectors);
    const seedSeconds = round((Date.now() - seedStarted) / 1000);
    log(`seeded in ${seedSeconds} s: source ${args.connectors} connectors, target ${targetCount(args.connectors)}`);

    const promotions = `${TX}/org/${tenant.organization}/env/${tenant.target.environment}/bot/${tenant.target.bot}/rest-connectors/promotions`;
    const expected = expectedPlan(args.connectors);
    const requestBody = {
      source: { envUUID: tenant.source.environment, botUUID: tenant.source.bot },
      prune: true,
      secrets: givenSecrets(args.connectors),
    };
    const counter = await statementCounter(server);
    const measure = measurer(app, serverPid, counter);
    try {
      const first = await measure(() => client.send('POST', promotions, requestBody, 200));
      checkPlan(first.answer, expected);
      log(`first dry run (not counted): ${round(first.timed.ms)} ms`);

      const repetitions: Repetition[] = [];
      const rssBeforeMb = rssKb(app.child.pid!, 'VmRSS') / 1024;
      const rss = new RssSampler(app.child.pid!);
      rss.start(100);
      for (let r = 0; r < args.repetitions; r++) {
        const plan = await measure(() => client.send('POST', promotions, requestBody, 200));
        const { digest } = checkPlan(plan.answer, expected);
        const apply = await measure(() => client.send('POST', promotions, { ...requestBody, dryRun: false, digest }, 201));
        const promotion = apply.answer as { uuid: string; created: number; items: unknown[] };
        const planned = expected.counts.create + expected.counts.update + expected.counts.delete;
        if (promotion.items.length !== planned) throw new Error(`the apply wrote ${promotion.items.length} connectors, the plan said ${planned}`);
        const revert = await measure(() => client.send('POST', `${promotions}/${promotion.uuid}/revert`, {}, 200));
        if (!(revert.answer as { revertedAt: string | null }).revertedAt) throw new Error('the revert answered no revertedAt');
        repetitions.push({ plan: plan.timed, apply: apply.timed, revert: revert.timed });
        log(
          `repetition ${r + 1}: plan ${round(plan.timed.ms)} ms (${plan.timed.statements} statements), apply ${round(apply.timed.ms)} ms ` +
            `(${apply.timed.statements} statements), revert ${round(revert.timed.ms)} ms (${revert.timed.statements} statements); ` +
            `other cores ${Math.max(plan.timed.otherCores, apply.timed.otherCores, revert.timed.otherCores)}`,
        );
      }
      const peakRssKb = rss.stop();
      app.assertRunning();
      const [[{ version }]] = await counter.connection.query<RowDataPacket[]>('SELECT VERSION() AS version');
      const results: PromotionResults = {
        date: new Date().toISOString(),
        machine: machine(String(version)),
        settings: {
          connectors: args.connectors,
          repetitions: args.repetitions,
          ownServer: args.ownServer,
          nodeFlags: [...imageNodeFlags(), ...(process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean)],
        },
        mix: { source: args.connectors, target: targetCount(args.connectors), ...expected },
        seedSeconds,
        firstPlanMs: round(first.timed.ms),
        repetitions,
        ...summarize(repetitions, { beforeMb: rssBeforeMb, peakMb: peakRssKb / 1024, highWaterMb: rssKb(app.child.pid!, 'VmHWM') / 1024 }),
      };
      const markdown = promotionMarkdown(results, OTHER_LOAD_WARNING);
      writeFileSync(resolve(__dirname, `${args.out}.json`), `${JSON.stringify(results, null, 2)}\n`);
      writeFileSync(resolve(__dirname, `${args.out}.md`), markdown);
      log(markdown);
      if (results.summary.maxOtherCores > OTHER_LOAD_WARNING) {
        log(`warning: up to ${results.summary.maxOtherCores} cores busy outside the bench during the requests: the latencies are skewed`);
      }
    } finally {
      await counter.connection.end();
    }
  } finally {
    await client.close();
    await stopAll();
    stopAll = async () => undefined;
  }
}

const targetCount = (n: number) => Array.from({ length: n }, (_, i) => kindOf(i)).filter(inTarget).length + targetOnly(n);

/** The secrets the request gives: a bearer token for each connector created with one (GIVEN). */
const givenSecrets = (n: number) =>
  Array.from({ length: n }, (_, i) => i)
    .filter((i) => kindOf(i) === 'create-given')
    .map((i) => ({ connector: connectorName(i), bearerToken: `given-token-${i}` }));

/** The dry run's answer, checked against the mix: the counts, and every secret KEPT or GIVEN (none NEEDED), no variable missing. */
function checkPlan(answer: unknown, expected: ReturnType<typeof expectedPlan>): { digest: string } {
  const plan = answer as {
    digest: string;
    counts: Record<string, number>;
    variables: { missing: string[] };
    connectors: Array<{ name: string; secrets: Array<{ status: string }> }>;
  };
  if (JSON.stringify(plan.counts) !== JSON.stringify(expected.counts)) {
    throw new Error(`the plan counted ${JSON.stringify(plan.counts)}, the mix ${JSON.stringify(expected.counts)}`);
  }
  const statuses = plan.connectors.flatMap(({ secrets }) => secrets.map(({ status }) => status));
  const kept = statuses.filter((s) => s === 'KEPT').length;
  const given = statuses.filter((s) => s === 'GIVEN').length;
  if (kept !== expected.kept || given !== expected.given || statuses.length !== kept + given) {
    throw new Error(`the plan's secrets: ${kept} KEPT, ${given} GIVEN of ${statuses.length}; the mix has ${expected.kept} KEPT, ${expected.given} GIVEN`);
  }
  if (plan.variables.missing.length > 0) throw new Error(`the plan says the target lacks ${plan.variables.missing.join(', ')}`);
  return { digest: plan.digest };
}

/** The database, created and migrated; the organization, both environments and bots, and the connectors without secrets, inserted. */
async function createAndSeed(server: string, database: string, n: number): Promise<Tenant> {
  const admin = await createConnection({ uri: server });
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${database}`);
    await admin.query(`CREATE DATABASE ${database} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.end();
  }
  const dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(`${server}/${database}`)));
  await dataSource.initialize();
  try {
    await dataSource.runMigrations();
    const tenant: Tenant = {
      organization: randomUUID(),
      source: { environment: randomUUID(), bot: randomUUID() },
      target: { environment: randomUUID(), bot: randomUUID() },
    };
    await new Importer(dataSource).import({
      organizations: [{ uuid: tenant.organization, name: 'Promotion bench' }],
      environments: [
        { uuid: tenant.source.environment, organizationUuid: tenant.organization, name: 'Staging', removed: false },
        { uuid: tenant.target.environment, organizationUuid: tenant.organization, name: 'Production', removed: false },
      ],
      bots: [
        { uuid: tenant.source.bot, environmentUuid: tenant.source.environment, name: 'Support bot' },
        { uuid: tenant.target.bot, environmentUuid: tenant.target.environment, name: 'Support bot' },
      ],
    });
    const runner = dataSource.createQueryRunner('master');
    await runner.connect();
    try {
      const started = Date.now() - 3_600_000;
      const rows: Array<{ bot: string; fields: ConnectorFields; at: Date }> = [];
      for (let i = 0; i < n; i++) {
        const kind = kindOf(i);
        if (hasSecret(kind)) continue;
        rows.push({ bot: tenant.source.bot, fields: fieldsOf(i, kind, 'source'), at: new Date(started + i) });
        if (inTarget(kind)) rows.push({ bot: tenant.target.bot, fields: fieldsOf(i, kind, 'target'), at: new Date(started + i) });
      }
      for (let k = 0; k < targetOnly(n); k++) {
        rows.push({ bot: tenant.target.bot, fields: { ...fieldsOf(k, 'unchanged', 'target'), name: targetOnlyName(k) }, at: new Date(started) });
      }
      for (let first = 0; first < rows.length; first += 1_000) await insertConnectors(runner, rows.slice(first, first + 1_000));
    } finally {
      await runner.release();
    }
    await dataSource.query('ANALYZE TABLE bots, rest_connectors, rest_connector_tags, rest_connector_versions');
    return tenant;
  } finally {
    await dataSource.destroy();
  }
}

/** A connector's fields as the bench writes them, on the source's side or the target's (kindOf: what differs). */
interface ConnectorFields {
  name: string;
  description: string;
  requestType: 'GET' | 'POST';
  url: string;
  headers: Array<{ header: string; value: string }>;
  contentType: 'NONE' | 'APPLICATION_JSON';
  authType: 'AUTH_NONE' | 'AUTH_BEARER';
  body: string;
  output: string;
  tags: string[];
}

function fieldsOf(i: number, kind: Kind, side: 'source' | 'target'): ConnectorFields {
  const secret = hasSecret(kind);
  const post = i % 3 === 0;
  const old = side === 'target';
  const path = secret ? `secure/${i}` : `items/${i}`;
  return {
    name: connectorName(i),
    description: old && kind.endsWith('description') ? 'As it was before the last release' : 'Promoted by npm run bench:promotions',
    requestType: post ? 'POST' : 'GET',
    url: old && kind.endsWith('url') ? `{{env.BASE_URL}}/v0/${path}` : `{{env.BASE_URL}}/v1/${path}?lang={{lang}}`,
    headers: [{ header: 'Accept', value: 'application/json' }],
    contentType: post ? 'APPLICATION_JSON' : 'NONE',
    authType: secret ? 'AUTH_BEARER' : 'AUTH_NONE',
    body: post ? '{"item": "{{item}}"}' : '',
    output: old && kind.endsWith('url') ? '$.old' : '$.data',
    tags: old && kind.endsWith('description') ? [`tag-${'abcdefghij'[i % 10]}`] : [`tag-${'abcdefghij'[i % 10]}`, `group-${i % 100}`],
  };
}

/** Connectors without secrets as the API would have stored them: the row, its first version (its record) and its tags. */
async function insertConnectors(runner: QueryRunner, rows: Array<{ bot: string; fields: ConnectorFields; at: Date }>): Promise<void> {
  const connectors: unknown[][] = [];
  const versions: unknown[][] = [];
  const tags: unknown[][] = [];
  for (const { bot, fields, at } of rows) {
    const { tags: tagNames, ...columns } = fields;
    const uuid = randomUUID();
    const tagRows = tagNames.map((name, position) => ({ name, nameKey: name.toLowerCase(), position }));
    const connector = aStoredConnector({
      ...(columns as unknown as Partial<RestConnector>),
      uuid,
      botUuid: bot,
      activeNameKey: fields.name.toLowerCase(),
      nameKey: fields.name.toLowerCase(),
      createdAt: at,
      createdBy: 'bench',
      updatedAt: at,
      updatedBy: 'bench',
      // The read copy of its tags, as the API writes it; no flow names it.
      ...tagReadCopy(tagRows),
    });
    connectors.push(REST_CONNECTOR_ROWS.values(connector));
    const snapshot = JSON.stringify(
      connectorSnapshot(
        connector,
        tagNames.map((name) => ({ name })),
      ),
    );
    versions.push([uuid, 1, 'CREATED', at, 'bench', '["name","requestType","url","contentType","authType","output","tags"]', snapshot]);
    for (const tag of tagRows) tags.push([uuid, tag.name, tag.nameKey, tag.position]);
  }
  await insertRows(runner, `rest_connectors (${REST_CONNECTOR_ROWS.names})`, connectors);
  await insertRows(runner, 'rest_connector_versions (connector_uuid, version, operation, updated_at, updated_by, changed_fields, snapshot)', versions);
  await insertRows(runner, 'rest_connector_tags (connector_uuid, name, name_key, position)', tags);
}

/** Through the app: each environment's BASE_URL, then the connectors with a bearer token (the app seals it, bound to where it goes). */
async function seedThroughApi(client: Client, tenant: Tenant, n: number): Promise<void> {
  for (const side of ['source', 'target'] as const) {
    await client.send(
      'PUT',
      `${TX}/org/${tenant.organization}/env/${tenant[side].environment}/connector-variables`,
      { variables: [{ name: 'BASE_URL', value: BASE_URLS[side] }] },
      200,
    );
  }
  for (let i = 0; i < n; i++) {
    const kind = kindOf(i);
    if (!hasSecret(kind)) continue;
    for (const side of inTarget(kind) ? (['source', 'target'] as const) : (['source'] as const)) {
      const { tags, ...fields } = fieldsOf(i, kind, side);
      await client.send(
        'POST',
        `${TX}/org/${tenant.organization}/env/${tenant[side].environment}/bot/${tenant[side].bot}/rest-connectors`,
        { ...fields, tags: tags.map((name) => ({ name })), bearerToken: `${side}-token-${i}` },
        201,
      );
    }
  }
}

/** One request at a time over one kept-alive connection, answers read whole. */
class Client {
  private readonly agent = new Agent({ connections: 1 });

  constructor(
    private readonly port: number,
    private readonly token: string,
  ) {}

  async send(method: 'POST' | 'PUT', path: string, body: unknown, expected: number): Promise<unknown> {
    const answer = await request(`http://127.0.0.1:${this.port}${path}`, {
      dispatcher: this.agent,
      method,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
    });
    const text = await answer.body.text();
    if (answer.statusCode !== expected) throw new Error(`${method} ${path} answered ${answer.statusCode}, not ${expected}: ${text.slice(0, 2_000)}`);
    return JSON.parse(text) as unknown;
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/** The counters of the statements read: `Questions` (all) and `Com_<kind>` for each kind of STATEMENT_KINDS. */
const COUNTERS = ['Questions', ...STATEMENT_KINDS.map((kind) => `Com_${kind}`)];

/** The server's statement counters on a connection of the bench's own (each reading counts itself as one `Questions`, taken out by the caller). */
async function statementCounter(server: string) {
  const connection = await createConnection({ uri: server });
  return {
    connection,
    read: async (): Promise<number[]> => {
      const [rows] = await connection.query<RowDataPacket[]>(`SHOW GLOBAL STATUS WHERE Variable_name IN (${COUNTERS.map(() => '?').join(', ')})`, COUNTERS);
      const values = new Map(rows.map((row) => [String(row.Variable_name).toLowerCase(), Number(row.Value)]));
      return COUNTERS.map((name) => values.get(name.toLowerCase()) ?? 0);
    },
  };
}

/** Times one request: its latency, the CPU time of the app and of mariadbd, the statements, and the other load meanwhile. */
function measurer(app: Server, serverPid: number | undefined, counter: Awaited<ReturnType<typeof statementCounter>>) {
  const cpu = () => [cpuMs(app.child.pid!), serverPid === undefined ? 0 : cpuMs(serverPid), cpuMs(process.pid), machineBusyMs()];
  return async (send: () => Promise<unknown>): Promise<{ answer: unknown; timed: Timed }> => {
    const countedBefore = await counter.read();
    const before = cpu();
    const started = process.hrtime.bigint();
    const answer = await send();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const after = cpu();
    const counted = (await counter.read()).map((value, i) => value - countedBefore[i]);
    const statements = counted[0] - 1;
    const byKind = Object.fromEntries(STATEMENT_KINDS.map((kind, i) => [kind, counted[i + 1]])) as Timed['byKind'];
    const [appCpuMs, databaseCpuMs, benchCpuMs, busyMs] = after.map((value, i) => value - before[i]);
    // /proc's CPU times tick every 10 ms: a short request reads as 0 or 10 ms of each.
    const otherCores = round(Math.max(0, (busyMs - appCpuMs - databaseCpuMs - benchCpuMs) / Math.max(ms, 10)), 2);
    app.assertRunning();
    return { answer, timed: { ms, appCpuMs, databaseCpuMs, statements, byKind, otherCores } };
  };
}

runBench(main, () => stopAll());
