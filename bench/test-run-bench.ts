/**
 * The `test-run` operation: a connector test run against a far side the bench starts on 127.0.0.2 (admitted by
 * OUTBOUND_ALLOWED_CIDRS, bench/processes.ts). Its floor is not the baseline but the far side itself. The
 * platform's overhead is measured one request at a time (latency without queueing, hrtime to the hundredth of a
 * millisecond; autocannon's percentiles are whole milliseconds): the app's p50 minus the far side's (target: at
 * most 2 ms). Throughput and p99 are measured with `connections` at once, the far side alone and through the app.
 * A second phase holds 50 test runs on a far side that answers after a few seconds and samples the
 * app's RSS (target: at most 150 MB).
 */
import autocannon from 'autocannon';
import { createServer, Server } from 'node:http';
import { Agent, request } from 'undici';
import { AddressInfo } from 'node:net';
import { BenchArgs } from './args';
import { Fixtures } from './database';
import { FAR_SIDE_HOST, RssSampler, Server as AppServer } from './processes';
import { round, TARGETS } from './report';

/** What the far side answers: a small JSON document, as a typical REST API. */
const ANSWER = JSON.stringify({ data: { level: 7, name: 'bench', tags: ['a', 'b', 'c'] } });
/** Test runs held at once in the memory phase: MAX_TEST_RUNS_IN_FLIGHT, every slot of one process. */
export const WAITING_RUNS = 50;
/** How long the slow far side makes each of them wait. */
const SLOW_MS = 4_000;

export interface LoadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One request at a time: latency without queueing, to the hundredth of a millisecond. */
export interface SequentialFigures {
  requests: number;
  p50: number;
  p99: number;
}

export interface TestRunResult {
  connections: number;
  /** The far side driven directly, `connections` at once: the floor. */
  farSide: LoadFigures;
  /** The same load through `POST …/rest-connectors/test`. */
  app: LoadFigures;
  /** One request at a time, to the far side directly and through the app, alternated. */
  sequential: { farSide: SequentialFigures; app: SequentialFigures };
  /** What the platform adds to one call: sequential app p50 minus far side p50, and the same at p99 (ms). */
  overheadP50Ms: number;
  overheadP99Ms: number;
  /** RSS of the app before, and its peak while, WAITING_RUNS test runs wait on a slow far side; how many were answered 200 after. */
  waiting: { runs: number; rssBeforeMb: number; peakRssMb: number; answered200: number };
  targets: { overhead: boolean; rss: boolean; errors: boolean };
}

function startFarSide(delayMs: number): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end(ANSWER);
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  return new Promise((done) => server.listen(0, FAR_SIDE_HOST, () => done(server)));
}

const portOf = (server: Server) => (server.address() as AddressInfo).port;
const close = (server: Server) => {
  server.closeAllConnections();
  return new Promise<void>((done) => server.close(() => done()));
};

async function load(options: autocannon.Options): Promise<LoadFigures> {
  const result = await autocannon({ timeout: 10, ...options });
  return {
    requestsPerSecond: round(result.requests.total / result.duration),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Sequential requests, the far side's and the app's alternated so that both see the same machine. */
async function sequential(
  farSideUrl: string,
  appUrl: string,
  body: string,
  tokens: string[],
  count: number,
): Promise<{ farSide: SequentialFigures; app: SequentialFigures }> {
  const dispatcher = new Agent({ connections: 1 });
  const times = { farSide: [] as number[], app: [] as number[] };
  const timed = async (into: number[], send: () => Promise<Awaited<ReturnType<typeof request>>>) => {
    const started = process.hrtime.bigint();
    const answer = await send();
    await answer.body.text();
    into.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (answer.statusCode !== 200) throw new Error(`test-run bench: answered ${answer.statusCode}`);
  };
  try {
    for (let i = 0; i < count; i++) {
      await timed(times.farSide, () => request(farSideUrl, { dispatcher }));
      await timed(times.app, () =>
        request(appUrl, {
          dispatcher,
          method: 'POST',
          body,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % tokens.length]}` },
        }),
      );
    }
  } finally {
    await dispatcher.close();
  }
  const figures = (values: number[]): SequentialFigures => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))], 2);
    return { requests: values.length, p50: at(0.5), p99: at(0.99) };
  };
  return { farSide: figures(times.farSide), app: figures(times.app) };
}

/** The body of an unsaved test run whose call goes to `port` on the far side's address. */
const testBody = (port: number) =>
  JSON.stringify({
    connector: {
      name: 'Bench test run',
      requestType: 'GET',
      url: `http://${FAR_SIDE_HOST}:${port}/items/{{id}}`,
      headers: [{ header: 'Accept', value: 'application/json' }],
      contentType: 'NONE',
      authType: 'AUTH_NONE',
      body: '',
      output: '$.data.level',
    },
    variables: { id: '42' },
  });

export async function benchTestRuns(
  app: AppServer,
  fixtures: Fixtures,
  tokens: string[],
  args: BenchArgs,
  log: (line: string) => void,
): Promise<TestRunResult> {
  const path = `/platform-transactional-service/org/${fixtures.organization}/env/${fixtures.environment}/bot/${fixtures.readBots[0]}/rest-connectors/test`;
  const connections = Math.min(args.connections, 50);
  const fast = await startFarSide(0);
  let turn = 0;
  const viaApp = (port: number, seconds: number, conns: number): autocannon.Options => ({
    url: `http://127.0.0.1:${app.port}${path}`,
    connections: conns,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: testBody(port),
    requests: [
      {
        setupRequest: (request: autocannon.Request) => ({
          ...request,
          headers: { ...request.headers, authorization: `Bearer ${tokens[turn++ % tokens.length]}` },
        }),
      },
    ],
  });
  // Memory first, on the app as the operations before left it: the waiting runs' own cost, not the saturated phase's.
  const slow = await startFarSide(SLOW_MS);
  const sampler = new RssSampler(app.child.pid!);
  let answered200: number;
  let rssBeforeMb: number;
  try {
    sampler.start();
    rssBeforeMb = round(sampler.peakKb / 1024);
    // Each connection sends one test run and waits: WAITING_RUNS runs held at once for SLOW_MS.
    const { duration: _duration, ...once } = viaApp(portOf(slow), 0, WAITING_RUNS);
    const result = await autocannon({ ...once, amount: WAITING_RUNS, timeout: 30 });
    answered200 = result['2xx'];
  } finally {
    await close(slow);
  }
  const peakRssMb = round(sampler.stop() / 1024);
  app.assertRunning();

  let farSide: LoadFigures;
  let through: LoadFigures;
  let seq: { farSide: SequentialFigures; app: SequentialFigures };
  try {
    const farSideUrl = `http://${FAR_SIDE_HOST}:${portOf(fast)}/items/42`;
    seq = await sequential(farSideUrl, `http://127.0.0.1:${app.port}${path}`, testBody(portOf(fast)), tokens, 2_000);
    farSide = await load({ url: farSideUrl, connections, duration: args.duration });
    through = await load(viaApp(portOf(fast), args.duration, connections));
  } finally {
    await close(fast);
  }
  app.assertRunning();

  const overheadP50Ms = round(seq.app.p50 - seq.farSide.p50, 2);
  const result: TestRunResult = {
    connections,
    farSide,
    app: through,
    sequential: seq,
    overheadP50Ms,
    overheadP99Ms: round(seq.app.p99 - seq.farSide.p99, 2),
    waiting: { runs: WAITING_RUNS, rssBeforeMb, peakRssMb, answered200 },
    targets: { overhead: overheadP50Ms <= 2, rss: peakRssMb <= TARGETS.rssMb, errors: through.errors === 0 && answered200 === WAITING_RUNS },
  };
  log(
    `test-run     one at a time: far side p50 ${seq.farSide.p50} p99 ${seq.farSide.p99} ms, through the app p50 ${seq.app.p50} p99 ${seq.app.p99} ms ` +
      `(overhead p50 ${overheadP50Ms} ms); ${connections} at once: far side ${farSide.requestsPerSecond} req/s, through the app ${through.requestsPerSecond} req/s ` +
      `p50 ${through.p50} p99 ${through.p99} ms (${through.errors} errors); ${WAITING_RUNS} runs waiting ${SLOW_MS} ms: RSS ${rssBeforeMb} → peak ${peakRssMb} MB, ${answered200} answered 200`,
  );
  return result;
}
