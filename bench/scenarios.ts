/** The requests of each operation, the same for the app and the baseline, and one autocannon run. */
import autocannon from 'autocannon';
import { AGAINST_FAR_SIDE, BenchArgs, Operation, WRITES } from './args';
import { Fixtures } from './database';
import { AppName } from './processes';

export interface Scenario {
  op: Operation;
  /** The app that answers it; the baseline answers every operation. */
  app: AppName;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  connections: number;
  /** Path (and body, and the method when it is not `method`) of the next request: round-robin over the fixtures. */
  next(): { path: string; body?: string; method?: 'POST' };
  /**
   * Headers every request of the operation carries besides the token, to the app and the baseline alike (which
   * ignores them): get-own-write's Consistency-Token, set by the bench once it has made its write (bench/replica.ts).
   */
  headers?: Record<string, string>;
}

export interface RunResult {
  requestsPerSecond: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  durationSeconds: number;
}

const TX = '/platform-transactional-service';
const QUICKSEARCH_TERMS = ['connector 1', 'connector 2', 'onnector 3', 'Connector 4'];
const SEARCH_TERMS = 'searchTerms=connector%201&searchTerms=tag-a';

export function scenarios(f: Fixtures, args: BenchArgs): Scenario[] {
  const botPath = (bot: string, env = f.environment) => `${TX}/org/${f.organization}/env/${env}/bot/${bot}/rest-connectors`;
  const cycle = <T>(items: T[]) => {
    let i = 0;
    return () => items[i++ % items.length];
  };
  const bots = cycle(f.readBots);
  const connectors = cycle(f.connectors);
  const updates = cycle(f.updates);
  // Deletes: the k-th request deletes connector k mod n on its first pass over the pool, restores it on the next,
  // and so on; n (2,000) is far above the connections in flight, so a connector's restore follows its delete.
  let deleted = 0;
  const terms = cycle(QUICKSEARCH_TERMS);
  // Unique across runs and servers: a run tag, then a counter.
  const runTag = Date.now().toString(36);
  let created = 0;
  const get = () => (({ bot, uuid }) => ({ path: `${botPath(bot)}/${uuid}` }))(connectors());
  const all: Record<Exclude<Operation, 'test-run'>, Omit<Scenario, 'op' | 'connections'>> = {
    get: { app: 'transactional-service', method: 'GET', next: get },
    // The same requests as get, with the Consistency-Token of a write the replica has not applied (`headers`, set then).
    'get-own-write': { app: 'transactional-service', method: 'GET', next: get },
    page: { app: 'transactional-service', method: 'GET', next: () => ({ path: `${botPath(bots())}/pagination` }) },
    'page-search': { app: 'transactional-service', method: 'GET', next: () => ({ path: `${botPath(bots())}/pagination?${SEARCH_TERMS}` }) },
    quicksearch: {
      app: 'transactional-service',
      method: 'GET',
      next: () => ({ path: `${botPath(bots())}/quicksearch?searchTerm=${encodeURIComponent(terms())}` }),
    },
    list: { app: 'transactional-service', method: 'GET', next: () => ({ path: `${botPath(f.listBot)}/list` }) },
    create: {
      app: 'transactional-service',
      method: 'POST',
      next: () => ({ path: botPath(f.writeBot), body: writeBody(`Bench ${runTag}-${++created}`, created) }),
    },
    update: {
      app: 'transactional-service',
      method: 'PUT',
      next: () => (({ uuid, name }) => ({ path: `${botPath(f.updateBot)}/${uuid}`, body: writeBody(name, ++created) }))(updates()),
    },
    delete: {
      app: 'transactional-service',
      method: 'DELETE',
      next: () => {
        const k = deleted++;
        const uuid = f.deletes[k % f.deletes.length];
        const restore = Math.floor(k / f.deletes.length) % 2 === 1;
        return restore ? { path: `${botPath(f.deleteBot)}/${uuid}/restore`, method: 'POST' } : { path: `${botPath(f.deleteBot)}/${uuid}` };
      },
    },
    environments: { app: 'environment', method: 'GET', next: () => ({ path: `/platform-environment/org/${f.organization}/environments` }) },
    bots: { app: 'bot-admin', method: 'GET', next: () => ({ path: `/platform-bot-admin/org/${f.organization}/env/${f.botsEnvironment}/bots-admin` }) },
  };
  return args.ops
    .filter((op): op is Exclude<Operation, 'test-run'> => !AGAINST_FAR_SIDE.includes(op))
    .map((op) => ({ op, ...all[op], connections: WRITES.includes(op) ? args.writeConnections : args.connections }));
}

/**
 * The write get-own-write waits for: a full PUT of the update bot's first connector, with its own name (what the
 * update operation sends), so the data set stays as it was.
 */
export function ownWriteRequest(f: Fixtures): { path: string; body: string } {
  const [{ uuid, name }] = f.updates;
  return { path: `${TX}/org/${f.organization}/env/${f.environment}/bot/${f.updateBot}/rest-connectors/${uuid}`, body: writeBody(name, 0) };
}

/** A full write body, as a client sends it: no auth, one header, two tags. */
export function writeBody(name: string, i: number): string {
  return JSON.stringify({
    name,
    description: 'Written by npm run bench',
    requestType: 'POST',
    url: `https://api.example.com/items/${i}?lang={{lang}}`,
    headers: [{ header: 'Accept', value: 'application/json' }],
    contentType: 'APPLICATION_JSON',
    authType: 'AUTH_NONE',
    body: '{"item": "{{item}}"}',
    output: '$.data',
    tags: [{ name: `tag-${'abcdefghij'[i % 10]}` }, { name: `group-${i % 100}` }],
  });
}

/** Drives one server with the scenario for `seconds`, from 127.0.0.1, the callers' tokens taken in turn. */
export async function drive(scenario: Scenario, port: number, tokens: string[], seconds: number): Promise<RunResult> {
  let turn = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: scenario.connections,
    duration: seconds,
    timeout: 10,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        method: scenario.method,
        setupRequest: (request: autocannon.Request) => {
          const { path, body, method } = scenario.next();
          const authorization = `Bearer ${tokens[turn++ % tokens.length]}`;
          return {
            ...request,
            path,
            headers: { ...request.headers, ...scenario.headers, authorization },
            ...(body === undefined ? {} : { body }),
            ...(method ? { method } : {}),
          };
        },
      },
    ],
  });
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]));
  return {
    requestsPerSecond: round(result.requests.total / result.duration),
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    total: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    durationSeconds: result.duration,
  };
}

/** One request of the scenario: its status, its JSON (undefined for a 204) and that JSON's shape (keys, recursively; arrays by their first item). */
export async function probe(
  scenario: Scenario,
  port: number,
  token: string,
  request = scenario.next(),
): Promise<{ status: number; shape: string; json: unknown }> {
  const { path, body, method } = request;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: method ?? scenario.method,
    headers: { ...scenario.headers, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  const json: unknown = res.status === 204 ? undefined : await res.json();
  return { status: res.status, shape: json === undefined ? '' : JSON.stringify(shapeOf(json)), json };
}

function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0])] : [];
  if (value === null || typeof value !== 'object') return '';
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
  );
}

const round = (n: number) => Math.round(n * 10) / 10;
