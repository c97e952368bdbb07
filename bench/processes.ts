/** The servers under test as child processes: the apps as production runs them, and the raw baseline. */
import { SignJWT } from 'jose';
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { relative, resolve } from 'node:path';
import { withAppEnvDefaults } from '@app/platform';
import { freePort } from '../test/support/free-port';

export const ROOT = resolve(__dirname, '..');
export type AppName = 'transactional-service' | 'environment' | 'bot-admin';

/** Secrets of the bench only: the apps demand them in production. */
export const JWT_SECRET = randomBytes(32).toString('base64url');
const SECRETS_KEY = randomBytes(32).toString('base64');

/** HS256, like the identity provider's: bench user `n` may use the organization and write connectors. */
export function benchToken(organization: string, n: number): Promise<string> {
  return new SignJWT({ orgs: [organization], scope: 'connectors:write', username: `bench-${n}` })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(`bench-user-${n}`)
    .setIssuedAt()
    .setExpirationTime('12h')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

export interface Server {
  name: string;
  port: number;
  child: ChildProcess;
  /** Throws, with the end of its stderr, if the process has exited. */
  assertRunning(): void;
  stop(): Promise<void>;
}

export function ensureBuilt(apps: AppName[], force: boolean, log: (line: string) => void): void {
  buildUnlessPresent(
    apps.map((app) => resolve(ROOT, 'dist/apps', app, 'main.js')),
    ['run', 'build'],
    force,
    log,
  );
}

/** bench/framework-app.ts's bundle (nest-cli.json's framework-bench project), which `npm run build` does not make. */
export const FRAMEWORK_APP_BUNDLE = resolve(ROOT, 'dist/bench/framework-app.js');

export function ensureFrameworkAppBuilt(force: boolean, log: (line: string) => void): void {
  buildUnlessPresent([FRAMEWORK_APP_BUNDLE], ['exec', '--', 'nest', 'build', 'framework-bench'], force, log, [resolve(ROOT, 'bench/framework-app.ts')]);
}

/** Runs `npm <npmArgs>` when a bundle is missing or `force`; else warns when apps/, libs/ or `sources` changed after the newest bundle. */
function buildUnlessPresent(bundles: string[], npmArgs: string[], force: boolean, log: (line: string) => void, sources: string[] = []): void {
  if (!force && bundles.every((bundle) => existsSync(bundle))) {
    // The newest bundle: webpack leaves a bundle whose content did not change untouched, so older ones may be current.
    const built = Math.max(...bundles.map((bundle) => statSync(bundle).mtimeMs));
    if ([resolve(ROOT, 'apps'), resolve(ROOT, 'libs'), ...sources].some((source) => newestSource(source) > built)) {
      log(
        `warning: ${bundles.map((bundle) => relative(ROOT, bundle)).join(', ')} older than the sources: this measures the old build (pass --build to rebuild)`,
      );
    }
    return;
  }
  log(`building (npm ${npmArgs.join(' ')})`);
  const build = spawnSync('npm', npmArgs, { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm ${npmArgs.join(' ')} failed`);
}

/** The newest modification time of a file, or of the files below a directory. */
function newestSource(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).mtimeMs;
  return readdirSync(path).reduce((newest, entry) => Math.max(newest, newestSource(resolve(path, entry))), 0);
}

/** docker/Dockerfile, its continued lines (`\` at the end) joined. */
const dockerfile = () => readFileSync(resolve(ROOT, 'docker/Dockerfile'), 'utf8').replace(/\\\n/g, ' ');

/** The node flags of the image's CMD (docker/Dockerfile: `["node", ...flags, "dist/app/main.js"]`). */
export function imageNodeFlags(): string[] {
  const cmds = dockerfile().match(/^CMD\s+(\[.*\])\s*$/gm) ?? [];
  if (cmds.length === 0) throw new Error('docker/Dockerfile has no exec-form CMD');
  const cmd = JSON.parse(cmds[cmds.length - 1].replace(/^CMD\s+/, '')) as string[];
  return cmd.slice(1, -1);
}

/**
 * `node <the image's flags> dist/apps/<app>/main.js` with production settings; its log lines (one per
 * request) go to /dev/null. BENCH_APP_NODE_ARGS adds node flags, e.g. `--cpu-prof --cpu-prof-dir=bench/profiles`
 * (written at exit). `root`: the checkout whose dist/ runs (another one's, to measure the code before a change).
 */
export function startApp(app: AppName, databaseUrl: string, env: Record<string, string> = {}, root = ROOT): Promise<Server> {
  // `env` first, so that nothing of the apps' settings is overridden: it adds (with --replica: DATABASE_READ_URLS and its settings).
  return start(app, [...appNodeArgs(), resolve(root, 'dist/apps', app, 'main.js')], '/health/ready', { ...env, ...appSettings(databaseUrl) });
}

/**
 * The transactional service on Nest's Express adapter or on @nestjs/platform-fastify, without the platform's HTTP edge
 * (bench/framework-app.ts, built into FRAMEWORK_APP_BUNDLE), with or without the performance overrides that apply to
 * it; started as startApp starts the apps: the image's node flags and the same settings.
 */
export function startFrameworkApp(framework: 'express' | 'fastify', overrides: boolean, databaseUrl: string): Promise<Server> {
  return start(`${framework}${overrides ? ' with overrides' : ''}`, [...appNodeArgs(), FRAMEWORK_APP_BUNDLE], '/health/ready', {
    ...appSettings(databaseUrl),
    PERFORMANCE_OVERRIDES: overrides ? 'on' : 'off',
    BENCH_FRAMEWORK: framework,
  });
}

/** The environment the image's runtime stage sets (its `ENV` lines after the last `FROM`), which the apps run with. */
export function imageEnv(): Record<string, string> {
  const text = dockerfile();
  const runtime = text.slice(text.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const [, settings] of runtime.matchAll(/^ENV\s+(.+)$/gm)) for (const [, key, value] of settings.matchAll(/(\w+)=(\S+)/g)) env[key] = value;
  return env;
}

const appNodeArgs = () => [...imageNodeFlags(), ...(process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean)];

/**
 * The image's environment less the variables BENCH_APP_UNSET names (comma-separated), e.g. `BENCH_APP_UNSET=MALLOC_ARENA_MAX`:
 * the apps as a host that does not set them starts them.
 */
export function benchImageEnv(unset = appEnvUnset()): Record<string, string> {
  return Object.fromEntries(Object.entries(imageEnv()).filter(([key]) => !unset.includes(key)));
}

/**
 * What the apps start with: benchImageEnv, and APP_ENV_DEFAULTS where it does not set them, as npm start's script and
 * launcher set them (libs/platform/src/app/app-process.ts); BENCH_APP_DEFAULTS=off leaves them out, to measure a plain
 * `node dist/apps/<app>/main.js` on such a host.
 */
export function appStartEnv(unset = appEnvUnset(), defaults = process.env.BENCH_APP_DEFAULTS !== 'off'): Record<string, string> {
  const env = benchImageEnv(unset);
  return defaults ? (withAppEnvDefaults(env) as Record<string, string>) : env;
}

/** The variables of the image's environment the apps are started without (BENCH_APP_UNSET). */
export function appEnvUnset(): string[] {
  return (process.env.BENCH_APP_UNSET ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

function appSettings(databaseUrl: string): Record<string, string> {
  return {
    ...appStartEnv(),
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    AUTH_JWT_SECRET: JWT_SECRET,
    SECRETS_KEY,
    RATE_LIMIT_PER_MINUTE: '100000000',
    // The test-run operation's far side listens on 127.0.0.2 (bench/test-run-bench.ts): admitted, and not limited.
    OUTBOUND_ALLOWED_CIDRS: `${FAR_SIDE_HOST}/32`,
    CONNECTOR_TEST_PER_MINUTE: '100000000',
    LOG_LEVEL: 'info',
  };
}

/** Where the test-run operation's far side listens: a loopback address of its own, the only one the apps may reach. */
export const FAR_SIDE_HOST = '127.0.0.2';

/**
 * The floors the apps are measured against (bench/baseline-server.js): `union` reads the apps' schema, a connector's
 * tags and flows joined in by a UNION (and writes it); `denormalized` reads one row per connector with its tags and
 * flows stored on it as JSON (bench/database.ts makes that copy), the least work a read's answer needs.
 */
export type Floor = 'union' | 'denormalized';
export const FLOOR_NAMES: Record<Floor, string> = { union: 'baseline', denormalized: 'floor-denormalized' };

/** A raw floor, plain CommonJS, nothing compiled, so its RSS is its own (bench/baseline-server.js); BENCH_BASELINE_NODE_ARGS adds node flags, as BENCH_APP_NODE_ARGS does for the apps. */
export function startBaseline(databaseUrl: string, floor: Floor = 'union'): Promise<Server> {
  const nodeArgs = (process.env.BENCH_BASELINE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  return start(FLOOR_NAMES[floor], [...nodeArgs, resolve(__dirname, 'baseline-server.js')], '/health/ready', {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    AUTH_JWT_SECRET: JWT_SECRET,
    FLOOR: floor,
  });
}

/**
 * Starts `node args` on a port the OS has just handed out. A fixed port (as the bench once had) sits in the
 * ephemeral range, where any outgoing connection of a test running beside it may hold it; and a free port can still
 * be taken between the check and the child's listen: so a start that fails with EADDRINUSE is tried again on
 * another port.
 */
async function start(name: string, args: string[], readyPath: string, env: Record<string, string>): Promise<Server> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), name, args, readyPath, env);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt === 3) throw error;
    }
  }
}

class PortTakenError extends Error {}

async function startOn(port: number, name: string, args: string[], readyPath: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      const message = `${name} exited with ${child.exitCode} while starting:\n${stderr}`;
      throw stderr.includes('EADDRINUSE') ? new PortTakenError(message) : new Error(message);
    }
    if ((await status(port, readyPath)) === 200) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} was not ready on port ${port} within 60 s:\n${stderr}`);
    }
    await sleep(200);
  }
  return {
    name,
    port,
    child,
    assertRunning() {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${name} (pid ${child.pid}) exited (${child.exitCode ?? child.signalCode}):\n${stderr}`);
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function status(port: number, path: string): Promise<number> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port, path, timeout: 2_000 }, (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', () => done(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/** Resident memory of a process, read from /proc every `everyMs` while started. */
export class RssSampler {
  private timer?: NodeJS.Timeout;
  peakKb = 0;

  constructor(private readonly pid: number) {}

  start(everyMs = 200): void {
    this.peakKb = rssKb(this.pid, 'VmRSS');
    this.timer = setInterval(() => (this.peakKb = Math.max(this.peakKb, rssKb(this.pid, 'VmRSS'))), everyMs);
  }

  stop(): number {
    clearInterval(this.timer);
    this.peakKb = Math.max(this.peakKb, rssKb(this.pid, 'VmRSS'));
    return this.peakKb;
  }
}

/** VmRSS (now), VmHWM (the process's peak so far), or RssAnon / RssFile (now: anonymous memory, files mapped), in kB; 0 when the process is gone. */
export function rssKb(pid: number, field: 'VmRSS' | 'VmHWM' | 'RssAnon' | 'RssFile'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) a process has used so far, in ms; 0 when it is gone. Assumes USER_HZ = 100. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Cores busy outside the server, mariadbd and the bench beyond which a run is flagged (kernel work on the traffic stays below). */
export const OTHER_LOAD_WARNING = 0.3;

/** CPU time the whole machine has spent busy so far (all cores, user + system + irq + steal), in ms. */
export function machineBusyMs(): number {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return (user + nice + system + irq + softirq + steal) * 10;
}

/** Cores the whole machine keeps busy over the next `ms` (all processes: call it while the bench's servers are idle). */
export async function busyNow(ms: number): Promise<number> {
  const before = machineBusyMs();
  await sleep(ms);
  return Math.round(((machineBusyMs() - before) / ms) * 100) / 100;
}

/**
 * The MariaDB/MySQL server process behind `serverUrl` (mysql://…@127.0.0.1:<port>), whose CPU time each run also
 * records: the process listening on that port on loopback (another mariadbd, e.g. a test's replication pair, may run
 * beside it); when that cannot be told (no port, /proc not readable), the first mariadbd or mysqld; undefined if none.
 */
export function databasePid(serverUrl?: string): number | undefined {
  const port = serverUrl ? Number(new URL(serverUrl).port || 3306) : undefined;
  const servers = processesNamed(/^(mariadbd|mysqld)$/);
  if (port !== undefined) {
    const sockets = listeningSockets(port);
    const owner = servers.find((pid) => ownsSocket(pid, sockets));
    if (owner !== undefined) return owner;
  }
  return servers[0];
}

function processesNamed(name: RegExp): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return name.test(readFileSync(`/proc/${entry}/comm`, 'utf8').trim());
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Inodes of the TCP sockets listening on `port` (/proc/net/tcp and tcp6; state 0A is LISTEN). */
function listeningSockets(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A') continue;
      if (parseInt(fields[1].split(':').pop()!, 16) === port) inodes.add(fields[9]);
    }
  }
  return inodes;
}

function ownsSocket(pid: number, inodes: Set<string>): boolean {
  if (inodes.size === 0) return false;
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? '');
      } catch {
        return false;
      }
    });
  } catch {
    return false; // not ours to read, or gone
  }
}

/** Runs a bench's `main`; on a failure, and on SIGINT or SIGTERM, `stopAll` first (the servers it started), then exits. */
export function runBench(main: () => Promise<void>, stopAll: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void stopAll().finally(() => process.exit(130));
    });
  }
  main().catch(async (error: unknown) => {
    console.error(error);
    await stopAll().catch((stopError: unknown) => console.error(stopError));
    process.exit(1);
  });
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Where a process's resident memory is, from /proc: its threads, and the malloc arenas' share of its anonymous memory. */
export interface MemoryBreakdown {
  threads: number;
  rssMb: number;
  /** Anonymous memory (heaps, stacks, V8's pages, malloc), and files mapped (the node binary's pages, mostly). */
  anonMb: number;
  fileMb: number;
  /**
   * glibc's malloc arenas other than the main one (which grows with brk): each is a 64 MB-aligned anonymous reservation,
   * its used part read-write and the rest `---p` (glibc's HEAP_MAX_SIZE on 64-bit). One per thread that allocates,
   * up to 8 per core, unless MALLOC_ARENA_MAX bounds them.
   */
  arenas: number;
  arenasMb: number;
}

const ARENA_BYTES = 64 * 1024 * 1024;

/** The breakdown of a running process; undefined when /proc cannot tell (it is gone, or not ours to read). */
export function memoryBreakdown(pid: number): MemoryBreakdown | undefined {
  let smaps: string;
  try {
    smaps = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return undefined;
  }
  const mappings: Array<{ start: bigint; end: bigint; perms: string; anonymous: boolean; rssKb: number }> = [];
  for (const line of smaps.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (header) {
      mappings.push({
        start: BigInt(`0x${header[1]}`),
        end: BigInt(`0x${header[2]}`),
        perms: header[3],
        anonymous: header[4] === '0' && header[5] === '',
        rssKb: 0,
      });
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && mappings.length > 0) mappings[mappings.length - 1].rssKb = Number(rss[1]);
  }
  let arenas = 0;
  let arenasKb = 0;
  const size = BigInt(ARENA_BYTES);
  mappings.forEach((m, i) => {
    if (!m.anonymous || m.perms !== 'rw-p' || m.start % size !== 0n) return;
    const rest = mappings[i + 1];
    const whole = m.end - m.start === size || (rest?.anonymous && rest.perms === '---p' && rest.start === m.end && rest.end - m.start === size);
    if (!whole) return;
    arenas++;
    arenasKb += m.rssKb;
  });
  const mbOf = (kb: number) => Math.round(kb / 102.4) / 10;
  return {
    threads: readdirSync(`/proc/${pid}/task`).length,
    rssMb: mbOf(rssKb(pid, 'VmRSS')),
    anonMb: mbOf(rssKb(pid, 'RssAnon')),
    fileMb: mbOf(rssKb(pid, 'RssFile')),
    arenas,
    arenasMb: mbOf(arenasKb),
  };
}
