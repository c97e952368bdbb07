/**
 * `npm run bench:events -- --scale 1m --duration 30`: creates, then updates, with change events on, published to NATS
 * JetStream (a private nats-server of the bench's own, test/support/nats-server.ts), the built transactional service as
 * production runs it. Reports writes per second, the app's CPU and RSS, the latency from each write to its event's
 * arrival at a JetStream consumer (p50, p99), and the change feed's throughput reading those events back. A write
 * phase the machine was busy beside (other load above OTHER_LOAD_WARNING cores) is not recorded: the bench stops
 * (--allow-busy records it, marked). Results go to bench/<out>.md (default results-events).
 */
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { startNatsServer } from '../test/support/nats-server';
import { parseArgs } from './args';
import { databaseUrlOf, prepareDatabase } from './database';
import { benchServer } from './database';
import { benchToken, cpuMs, databasePid, ensureBuilt, machineBusyMs, OTHER_LOAD_WARNING, RssSampler, rssKb, sleep, startApp } from './processes';
import { machine, TARGETS } from './report';
import { drive, scenarios } from './scenarios';

const TX = '/platform-transactional-service';
/** The stream the app creates (NATS_STREAM's default). */
const STREAM = 'CONNECTOR_EVENTS';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const given = process.argv.slice(2);
  const defaults = [...(given.includes('--scale') ? [] : ['--scale', '1m']), ...(given.includes('--out') ? [] : ['--out', 'results-events'])];
  const args = parseArgs([...defaults, ...given, '--ops', 'create,update']);
  const [scale] = args.scales;
  ensureBuilt(['transactional-service'], args.build, log);
  const { fixtures, mariadbVersion } = await prepareDatabase(scale, args.skipSeed, log);
  const nats = await startNatsServer({ name: 'bench-events' });
  const app = await startApp('transactional-service', databaseUrlOf(scale), { NATS_URL: nats.url });
  const consumerConnection = await connect({ servers: nats.url });
  try {
    const tokens = await Promise.all(Array.from({ length: args.callers }, (_, n) => benchToken(fixtures.organization, n)));
    await until(async () => (await getJson(app.port, '/health/ready')).checks?.nats === 'up', 'the app connected to NATS');
    const feedPath = `${TX}/org/${fixtures.organization}/env/${fixtures.environment}/connector-events`;
    const start = (await getJson(app.port, `${feedPath}?after=now`, tokens[0])).cursor as string;

    // Every event the stream delivers: its write's time and when it arrived here.
    const arrivals: Array<{ writtenAt: number; arrivedAt: number }> = [];
    const js = jetstream(consumerConnection);
    const jsm = await jetstreamManager(consumerConnection);
    await until(
      async () =>
        jsm.streams.info(STREAM).then(
          () => true,
          () => false,
        ),
      'the stream exists',
    );
    const messages = await (await js.consumers.get(STREAM)).consume();
    const receiving = (async () => {
      for await (const message of messages) arrivals.push({ writtenAt: Date.parse((message.json() as { time: string }).time), arrivedAt: Date.now() });
    })();

    const phases: WritePhase[] = [];
    for (const scenario of scenarios(fixtures, args)) {
      if (args.warmup > 0) await drive(scenario, app.port, tokens, args.warmup);
      const runStart = Date.now();
      const rss = new RssSampler(app.child.pid!);
      rss.start();
      const memory = new MemoryAtPeak(app.child.pid!, app.port);
      memory.start();
      // The app, mariadbd, nats-server and this process (autocannon, the consumer): any other busy core is another load.
      const ours = [app.child.pid!, databasePid(benchServer()), nats.pid, process.pid].filter((pid): pid is number => pid !== undefined);
      const cpuOf = () => ours.map((pid) => cpuMs(pid));
      const [cpuBefore, busyBefore] = [cpuOf(), machineBusyMs()];
      const run = await drive(scenario, app.port, tokens, args.duration);
      const cpu = cpuOf().map((after, i) => after - cpuBefore[i]);
      const busy = machineBusyMs() - busyBefore;
      const runEnd = Date.now();
      const written = run.statusCodes[scenario.op === 'create' ? '201' : '200'] ?? 0;
      const warmWritten = await countSince(app.port, feedPath, start, tokens[0]);
      await until(async () => arrivals.length >= warmWritten, `JetStream delivered the ${warmWritten} events`, 120);
      const peakRssMb = rss.stop() / 1024;
      const atPeak = await memory.stop();
      const measured = arrivals
        .filter(({ writtenAt }) => writtenAt >= runStart && writtenAt <= runEnd)
        .map(({ writtenAt, arrivedAt }) => arrivedAt - writtenAt)
        .sort((a, b) => a - b);
      const otherCores = round(Math.max(0, (busy - cpu.reduce((sum, ms) => sum + ms, 0)) / (run.durationSeconds * 1000)), 2);
      if (otherCores > OTHER_LOAD_WARNING && !args.allowBusy) {
        throw new Error(
          `${scenario.op}s: ${otherCores} cores busy outside the bench during the run: not recorded. Stop what else runs and measure again, or pass --allow-busy.`,
        );
      }
      phases.push({
        op: scenario.op,
        perSecond: Math.round(run.requestsPerSecond),
        written,
        errors: run.errors + run.timeouts + run.non2xx,
        p50: run.latency.p50,
        p99: run.latency.p99,
        appCpuMsPerWrite: round(cpu[0] / Math.max(1, written), 3),
        otherCores,
        ...(otherCores > OTHER_LOAD_WARNING ? { busy: true } : {}),
        jetstream: {
          delivered: measured.length,
          latencyMs: { p50: percentile(measured, 0.5), p99: percentile(measured, 0.99), max: measured[measured.length - 1] ?? 0 },
        },
        peakRssMb: round(peakRssMb, 1),
        atPeak,
      });
      log(
        `${scenario.op}: ${Math.round(run.requestsPerSecond)}/s, JetStream p50 ${percentile(measured, 0.5)} ms, RSS ${round(peakRssMb, 1)} MB, other load ${otherCores}`,
      );
    }

    // The feed, read back from before the run: every event of the environment, 1,000 per answer.
    const feedStarted = process.hrtime.bigint();
    const feedEvents = await countSince(app.port, feedPath, start, tokens[0]);
    const feedSeconds = Number(process.hrtime.bigint() - feedStarted) / 1e9;
    messages.stop();
    await receiving;

    const result: EventsResult = {
      date: new Date().toISOString(),
      machine: machine(mariadbVersion),
      scale,
      settings: { duration: args.duration, warmup: args.warmup, connections: args.writeConnections, callers: args.callers },
      writes: phases,
      feed: { events: feedEvents, seconds: round(feedSeconds, 2), eventsPerSecond: Math.round(feedEvents / feedSeconds) },
    };
    writeFileSync(resolve(__dirname, `${args.out}.json`), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(resolve(__dirname, `${args.out}.md`), report(result));
    log(report(result));
  } finally {
    await consumerConnection.close().catch(() => undefined);
    await app.stop();
    await nats.close();
  }
}

/** Events of the feed after `cursor`, read to the end, 1,000 per answer. */
async function countSince(port: number, feedPath: string, cursor: string, token: string): Promise<number> {
  let count = 0;
  for (let after = cursor; ;) {
    const page = await getJson(port, `${feedPath}?after=${after}&limit=1000`, token);
    count += page.events.length;
    if (page.events.length < 1000) return count;
    after = page.cursor;
  }
}

/** One write operation's phase: its writes, their events on JetStream, the app's memory. */
interface WritePhase {
  op: string;
  perSecond: number;
  written: number;
  errors: number;
  p50: number;
  p99: number;
  appCpuMsPerWrite: number;
  /** Cores busy outside the app, mariadbd, nats-server and the bench during the run. */
  otherCores: number;
  /** Recorded with --allow-busy although otherCores was above the threshold. */
  busy?: boolean;
  jetstream: { delivered: number; latencyMs: { p50: number; p99: number; max: number } };
  peakRssMb: number;
  atPeak: MemoryBreakdown;
}

interface EventsResult {
  date: string;
  machine: { cpuModel: string; cores: number; node: string; mariadb: string };
  scale: string;
  settings: { duration: number; warmup: number; connections: number; callers: number };
  writes: WritePhase[];
  feed: { events: number; seconds: number; eventsPerSecond: number };
}

function report(r: EventsResult): string {
  const pass = (ok: boolean) => (ok ? 'PASS' : '**FAIL**');
  const rows = r.writes.map(
    (w) =>
      `| ${w.op}s${w.busy ? ' (busy)' : ''} | ${w.perSecond} | ${w.written} | ${w.errors} | ${w.p50} | ${w.p99} | ${w.appCpuMsPerWrite} | ${w.otherCores} | ` +
      `${w.jetstream.latencyMs.p50} | ${w.jetstream.latencyMs.p99} | ${w.jetstream.latencyMs.max} | ${w.peakRssMb} | ${pass(w.perSecond >= TARGETS.createsPerSecond)} | ${pass(w.peakRssMb <= TARGETS.rssMb)} |`,
  );
  const memory = r.writes.map(
    (w) =>
      `- ${w.op}s: at its highest sampled RSS (${w.atPeak.rssMb} MB) ${w.atPeak.fileMb} MB mapped from files (the node binary, libraries), ` +
      `${w.atPeak.anonMb} MB anonymous, of which V8's heap spaces ${describeSpaces(w.atPeak.heapSpacesMb)} (committed) and ${w.atPeak.externalMb} MB of external memory.`,
  );
  return `# Benchmark: creates and updates with change events on NATS JetStream

Written by \`npm run bench:events\` on ${r.date}: ${r.machine.cpuModel}, ${r.machine.cores} cores, Node ${r.machine.node}, MariaDB ${r.machine.mariadb}.
Scale ${r.scale}; ${r.settings.duration} s of creates, then of updates (full PUTs round-robin over a bot's 1,000 connectors), each after
${r.settings.warmup} s of warm-up, ${r.settings.connections} connections, ${r.settings.callers} callers;
the built transactional service (production flags) with NATS_URL set to a private nats-server with JetStream on 127.0.0.1.
Latency to JetStream: from the write's time (the event's \`time\`, taken just before the commit) to the arrival of the
event at a JetStream consumer in the bench process (publish, acknowledgement and delivery included), every event of the
measured run. Other load: cores busy outside the app, mariadbd, nats-server and the bench (above ${OTHER_LOAD_WARNING} the run is refused).
Feed: every event of both phases read back from the change feed, 1,000 per answer, one client.

| writes | per second | written | errors | p50 ms | p99 ms | app CPU ms/write | other load | JetStream p50 ms | p99 ms | max ms | app RSS MB | ≥ ${TARGETS.createsPerSecond}/s | RSS ≤ ${TARGETS.rssMb} |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

The feed read ${r.feed.events} events in ${r.feed.seconds} s (${r.feed.eventsPerSecond} events/s).

The app's memory (sampled every 500 ms, /proc/<pid>/status and the app's /metrics):

${memory.join('\n')}
`;
}

interface MemoryBreakdown {
  rssMb: number;
  fileMb: number;
  anonMb: number;
  heapSpacesMb: Record<string, number>;
  externalMb: number;
}

const describeSpaces = (spaces: Record<string, number>) =>
  Object.entries(spaces)
    .filter(([, mb]) => mb >= 0.5)
    .map(([space, mb]) => `${space} ${mb}`)
    .join(', ');

/** The app's RSS split (files, anonymous memory, V8's heap spaces, external memory) at the highest RSS it samples. */
class MemoryAtPeak {
  private peak: MemoryBreakdown = { rssMb: 0, fileMb: 0, anonMb: 0, heapSpacesMb: {}, externalMb: 0 };
  private running = true;
  private loop?: Promise<void>;

  constructor(
    private readonly pid: number,
    private readonly port: number,
  ) {}

  start(): void {
    this.loop = (async () => {
      while (this.running) {
        await this.sample().catch(() => undefined);
        await sleep(500);
      }
    })();
  }

  async stop(): Promise<MemoryBreakdown> {
    this.running = false;
    await this.loop;
    return this.peak;
  }

  private async sample(): Promise<void> {
    const rssMb = round(rssKb(this.pid, 'VmRSS') / 1024, 1);
    if (rssMb <= this.peak.rssMb) return;
    const metrics = await getText(this.port, '/metrics');
    const heapSpacesMb: Record<string, number> = {};
    for (const [, space, bytes] of metrics.matchAll(/^nodejs_heap_space_size_total_bytes\{[^}]*space="(\w+)"[^}]*\} (\d+)/gm))
      heapSpacesMb[space] = round(Number(bytes) / 2 ** 20, 1);
    const external = /^nodejs_external_memory_bytes(?:\{[^}]*\})? (\d+)/m.exec(metrics)?.[1];
    this.peak = {
      rssMb,
      fileMb: round(rssKb(this.pid, 'RssFile') / 1024, 1),
      anonMb: round(rssKb(this.pid, 'RssAnon') / 1024, 1),
      heapSpacesMb,
      externalMb: round(Number(external ?? 0) / 2 ** 20, 1),
    };
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

async function until(check: () => Promise<boolean>, what: string, seconds = 30): Promise<void> {
  for (const deadline = Date.now() + seconds * 1000; Date.now() < deadline; await sleep(100)) if (await check()) return;
  throw new Error(`timed out waiting until ${what}`);
}

async function getJson(port: number, path: string, token?: string): Promise<any> {
  return JSON.parse(await getText(port, path, token));
}

function getText(port: number, path: string, token?: string): Promise<string> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => done(body));
    });
    req.on('error', fail);
    req.end();
  });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
