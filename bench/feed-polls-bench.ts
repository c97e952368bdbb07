/**
 * `npm run bench:feed-polls -- [--label after] [--app-root <dir>]`: what the change feed's long polls cost the primary.
 * 500 clients follow the feed with `wait=30` (10 per environment, 50 environments), first with no write, then with 10
 * creates a second spread over the environments; the bench counts the statements the primary received in each phase
 * (`Questions` and `Com_select` of SHOW GLOBAL STATUS, by difference) and checks that every client got the events of its
 * environment. The primary is a mariadbd of the bench's own (test/support/mariadb-replication.ts: private port and
 * data directory; its replica idles), so no one else's statements are counted. `--app-root` runs the built app of
 * another checkout (its dist/), to compare with the code before a change; results go to bench/results-feed-polls.md
 * and .json, one row per `--label`. Statements are counted, not timed: the numbers hold on a loaded machine.
 */
import { Importer } from '@app/seed-data';
import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { resolve } from 'node:path';
import { startReplicationPair } from '../test/support/mariadb-replication';
import { benchToken, ensureBuilt, ROOT, runBench, sleep, startApp } from './processes';
import { machine } from './report';
import { writeBody } from './scenarios';

const TX = '/platform-transactional-service';
const OUT = resolve(__dirname, 'results-feed-polls');
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Settings {
  label: string;
  appRoot: string;
  polls: number;
  environments: number;
  writesPerSecond: number;
  seconds: number;
}

interface Result {
  label: string;
  date: string;
  machine: ReturnType<typeof machine>;
  settings: Omit<Settings, 'appRoot'>;
  /** Statements per second the primary received: polls waiting, no write; then with the writes. */
  quiet: { questions: number; selects: number };
  writing: { questions: number; selects: number; writes: number };
  /** Events the clients received of those the writes made (each write's event to each client of its environment). */
  delivered: number;
  expected: number;
}

function parse(argv: string[]): Settings {
  const settings: Settings = { label: 'after', appRoot: ROOT, polls: 500, environments: 50, writesPerSecond: 10, seconds: 20 };
  for (let i = 0; i < argv.length; i += 2) {
    const [name, value] = [argv[i], argv[i + 1]];
    if (value === undefined) throw new Error(`${name} needs a value`);
    if (name === '--label') settings.label = value;
    else if (name === '--app-root') settings.appRoot = resolve(value);
    else if (name === '--polls') settings.polls = Number(value);
    else if (name === '--environments') settings.environments = Number(value);
    else if (name === '--writes-per-second') settings.writesPerSecond = Number(value);
    else if (name === '--duration') settings.seconds = Number(value);
    else throw new Error(`unknown option ${name} (--label, --app-root, --polls, --environments, --writes-per-second, --duration)`);
  }
  return settings;
}

let stopAll = async (): Promise<void> => undefined;

async function main(): Promise<void> {
  const settings = parse(process.argv.slice(2));
  if (settings.appRoot === ROOT) ensureBuilt(['transactional-service'], false, log);
  else if (!existsSync(resolve(settings.appRoot, 'dist/apps/transactional-service/main.js')))
    throw new Error(`${settings.appRoot} has no built app: npm run build there`);
  const pair = await startReplicationPair({ name: 'bench-feed-polls' });
  stopAll = () => pair.close();
  const { primaryUrl } = await pair.createMigratedDatabase('platform_feed_polls');
  const tenant = await seed(primaryUrl, settings.environments);
  const app = await startApp('transactional-service', primaryUrl, {}, settings.appRoot);
  stopAll = async () => {
    await app.stop();
    await pair.close();
  };
  const port = app.port;
  const token = await benchToken(tenant.organization, 0);
  const status = async () => {
    const rows = await pair.primary.query<Array<{ Variable_name: string; Value: string }>>(
      "SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_select')",
    );
    const value = (name: string) => Number(rows.find((row) => row.Variable_name === name)!.Value);
    return { questions: value('Questions'), selects: value('Com_select') };
  };
  const perSecond = async (phase: () => Promise<void>) => {
    const [before, started] = [await status(), Date.now()];
    await phase();
    const [after, seconds] = [await status(), (Date.now() - started) / 1000];
    return { questions: Math.round((after.questions - before.questions) / seconds), selects: Math.round((after.selects - before.selects) / seconds) };
  };

  // The followers: each waits on its environment's feed, again and again, from where its last answer left it.
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  let following = true;
  const received = new Map<string, number>();
  const follow = async (environment: string) => {
    const feed = `${TX}/org/${tenant.organization}/env/${environment}/connector-events`;
    let cursor = (await getJson(agent, port, `${feed}?after=now`, token)).cursor as string;
    while (following) {
      const page = await getJson(agent, port, `${feed}?after=${cursor}&wait=30&limit=1000`, token).catch(() => null);
      if (page === null) return;
      received.set(environment, (received.get(environment) ?? 0) + (page.events as unknown[]).length);
      cursor = page.cursor as string;
    }
  };
  const followers = Array.from({ length: settings.polls }, (_, n) => follow(tenant.environments[n % settings.environments].uuid));
  await sleep(3_000);

  const quiet = await perSecond(async () => void (await sleep(settings.seconds * 1000)));
  const written = new Map<string, number>();
  let writes = 0;
  const writing = await perSecond(async () => {
    const end = Date.now() + settings.seconds * 1000;
    const pending: Array<Promise<void>> = [];
    for (let n = 0; Date.now() < end; n++) {
      const { environment, bot } = tenant.bots[n % tenant.bots.length];
      const path = `${TX}/org/${tenant.organization}/env/${environment}/bot/${bot}/rest-connectors`;
      pending.push(
        postJson(agent, port, path, token, writeBody(`Feed bench ${randomUUID()}`, n)).then((code) => {
          if (code !== 201) throw new Error(`a create answered ${code}`);
          written.set(environment, (written.get(environment) ?? 0) + 1);
          writes += 1;
        }),
      );
      await sleep(1000 / settings.writesPerSecond);
    }
    await Promise.all(pending);
  });
  const pollsPer = (environment: string) =>
    Math.floor(settings.polls / settings.environments) +
    (tenant.environments.findIndex((e) => e.uuid === environment) < settings.polls % settings.environments ? 1 : 0);
  const expected = [...written].reduce((sum, [environment, count]) => sum + count * pollsPer(environment), 0);
  const delivered = () => [...received.values()].reduce((sum, count) => sum + count, 0);
  for (const deadline = Date.now() + 10_000; delivered() < expected && Date.now() < deadline;) await sleep(100);
  following = false;

  const result: Result = {
    label: settings.label,
    date: new Date().toISOString(),
    machine: machine(String((await pair.primary.query<Array<{ v: string }>>('SELECT VERSION() AS v'))[0].v)),
    settings: {
      label: settings.label,
      polls: settings.polls,
      environments: settings.environments,
      writesPerSecond: settings.writesPerSecond,
      seconds: settings.seconds,
    },
    quiet,
    writing: { ...writing, writes },
    delivered: delivered(),
    expected,
  };
  await stopAll();
  await Promise.allSettled(followers);
  agent.destroy();
  const results = [
    ...(existsSync(`${OUT}.json`) ? (JSON.parse(readFileSync(`${OUT}.json`, 'utf8')) as Result[]) : []).filter((r) => r.label !== result.label),
    result,
  ];
  writeFileSync(`${OUT}.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${OUT}.md`, report(results));
  log(report([result]));
}

/** An organization with `count` environments, one bot each. */
async function seed(databaseUrl: string, count: number) {
  const organization = randomUUID();
  const environments = Array.from({ length: count }, (_, n) => ({
    uuid: randomUUID(),
    organizationUuid: organization,
    name: `Feed bench ${n}`,
    removed: false,
  }));
  const bots = environments.map((environment, n) => ({ uuid: randomUUID(), environmentUuid: environment.uuid, name: `Bot ${n}` }));
  const dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(databaseUrl), { migrationsRun: false }));
  await dataSource.initialize();
  try {
    await new Importer(dataSource).import({ organizations: [{ uuid: organization, name: 'Feed bench' }], environments, bots });
  } finally {
    await dataSource.destroy();
  }
  return { organization, environments, bots: bots.map((bot) => ({ environment: bot.environmentUuid, bot: bot.uuid })) };
}

function getJson(agent: Agent, port: number, path: string, token: string): Promise<Record<string, unknown>> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { Authorization: `Bearer ${token}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        res.statusCode === 200 ? done(JSON.parse(body) as Record<string, unknown>) : fail(new Error(`GET ${path}: ${res.statusCode} ${body}`)),
      );
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

function postJson(agent: Agent, port: number, path: string, token: string, body: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.on('error', fail);
    req.end(body);
  });
}

function report(results: Result[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.label} | ${r.date.slice(0, 10)} | ${r.settings.polls} in ${r.settings.environments} environments | ${r.quiet.questions} | ${r.quiet.selects} | ` +
      `${r.writing.writes} in ${r.settings.seconds} s | ${r.writing.questions} | ${r.writing.selects} | ${r.delivered} of ${r.expected} |`,
  );
  const [first] = results;
  return [
    "# Benchmark: the change feed's long polls, statements on the primary",
    '',
    `Written by \`npm run bench:feed-polls\`: ${first.machine.cpuModel}, ${first.machine.cores} cores, Node ${first.machine.node}, ${first.machine.mariadb}`,
    '(a private mariadbd). Clients follow the feed with `wait=30`, each environment by as many; then creates spread over the',
    'environments. Statements per second the primary received (`Questions`, `Com_select`), by difference over each phase.',
    '',
    '| code | date | long polls | quiet: statements/s | SELECT/s | writes | writing: statements/s | SELECT/s | events delivered |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

runBench(main, () => stopAll());
