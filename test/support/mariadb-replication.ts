/**
 * A real MariaDB primary and a real GTID replica for the read-replica tests, with real faults.
 *
 * Both are this machine's `mariadbd` (MariaDB 10.11) on private data directories and ports, bound to 127.0.0.1
 * only and started with `--no-defaults` (no /etc/mysql config is read). One template data directory per machine
 * and mariadbd version (`mariadb-install-db`, then the users below) is cached under os.tmpdir() and copied for
 * each server, so a pair starts in 0.2–0.5 s and closes in 20–80 ms (building the template adds 1–2 s, once).
 *
 * Users (made once, in the template, through the unix socket): root@127.0.0.1 and root@localhost with no password
 * and all privileges (the app connects as `mysql://root@127.0.0.1:<port>/<db>`), and `replicator`@127.0.0.1 with
 * REPLICATION SLAVE, which the replica uses. Nothing is written to the primary's binlog before the pair is up,
 * so the replica starts from an empty GTID position.
 *
 * Cleanup: `close()` kills both servers by pid and removes their directories. Every mariadbd is also started
 * under `setpriv --pdeathsig KILL`, so the kernel kills it when the process that started it (a jest worker)
 * dies however it dies; a plain `process.on('exit')` handler cannot do that inside jest, whose `process` is a
 * sandboxed copy that never sees the worker's exit. Directories left by a dead process are swept by the next pair.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Connection, ConnectionOptions, createConnection } from 'mysql2/promise';
import { isAlive, logTail, removeIfOwnerGone, startOnFreePort, stopProcess } from './server-process';
import { createMigratedDatabase as createMigratedDatabaseOn } from './test-database';

/** One mariadbd with a private data directory and port; its faults are real signals to the real process. */
export interface MariadbServer {
  /** The TCP port on 127.0.0.1; the same across kill/stop and start. */
  readonly port: number;
  /** The running process's pid, undefined while it is down. */
  readonly pid: number | undefined;
  /** `mysql://root@127.0.0.1:<port>/<database>`, or without `/<database>` (the shape of TEST_MYSQL_SERVER). */
  url(database?: string): string;
  /** One statement on a fresh connection as root (connect timeout 3 s, no query timeout); the rows or the result header. */
  query<T = any>(sql: string, params?: unknown[]): Promise<T>;
  /** SIGKILL by pid (a crash); resolves when the process has exited. */
  kill(): Promise<void>;
  /** SIGTERM (a clean shutdown); resolves when the process has exited, SIGKILLs it and throws after 30 s. */
  stop(): Promise<void>;
  /** Starts it again on the same data directory and port; resolves when it answers over TCP (throws after 30 s). */
  start(): Promise<void>;
  /** SIGSTOP: the kernel still accepts TCP connections (backlog) but the server answers nothing. Resolves once it is stopped (stopProcess). */
  pause(): Promise<void>;
  /** SIGCONT after `pause()`. */
  resume(): void;
  /** The last lines of its --log-error file, for a failing test's message. */
  logTail(lines?: number): string;
}

/** A primary and a replica replicating from it with MASTER_USE_GTID=slave_pos. */
export interface ReplicationPair {
  /** server-id 1, binlog in ROW format. */
  readonly primary: MariadbServer;
  /** server-id 2, replicating from the primary; reconnects every second when the primary is gone. */
  readonly replica: MariadbServer;
  /** Creates `name` on the primary and applies the real migrations; resolves once the replica has applied them too. */
  createMigratedDatabase(name: string): Promise<{ primaryUrl: string; replicaUrl: string }>;
  /**
   * Waits (MASTER_GTID_WAIT for the primary's @@gtid_binlog_pos) until the replica applied everything written so
   * far; throws, with the replica's status, after `timeoutMs` (10 s).
   */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** STOP SLAVE SQL_THREAD: events keep arriving in the relay log but are not applied. */
  stopSqlThread(): Promise<void>;
  /** START SLAVE SQL_THREAD. */
  startSqlThread(): Promise<void>;
  /**
   * STOP SLAVE; CHANGE MASTER TO MASTER_DELAY=n; START SLAVE (0 ends the delay). Whole seconds: a write usually shows
   * on the replica n s later (+5–20 ms), but now and then n-1 s later (MariaDB counts in whole seconds from a clock
   * difference taken at connect): a test asserting a lag should set n ≥ 2 and expect at least n-1 s.
   */
  setDelay(seconds: number): Promise<void>;
  /** The replica's SHOW SLAVE STATUS row plus @@gtid_slave_pos, for assertions and error messages. */
  replicaStatus(): Promise<Record<string, unknown>>;
  /** Kills both servers by pid and removes their directories; safe to call twice. */
  close(): Promise<void>;
}

const MARIADBD = process.env.TEST_MARIADBD ?? '/usr/sbin/mariadbd';
const INSTALL_DB = process.env.TEST_MARIADB_INSTALL_DB ?? '/usr/bin/mariadb-install-db';
/** When present, mariadbd is exec'd through it with a parent-death signal (util-linux, Debian's default). */
const SETPRIV = '/usr/bin/setpriv';
/** Bump when what the template holds changes: the cache key then changes with it. */
const TEMPLATE_RECIPE = 1;
const REPLICATION_USER = 'replicator';
const REPLICATION_PASSWORD = 'replicator';
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 30_000;
const PAIR_DIR_PREFIX = 'mariadb-pair-';

/** Every mariadbd this process started and has not seen exit. */
const running = new Set<ChildProcess>();
/** Every pair directory not yet removed by `close()`. */
const openDirs = new Set<string>();
let exitHandlerInstalled = false;
let template: Promise<string> | undefined;

/** Starts a primary and a replica replicating from it; `name` only labels the directory under os.tmpdir(). */
export async function startReplicationPair(options: { name?: string } = {}): Promise<ReplicationPair> {
  installExitHandler();
  // A failed build is not cached: the next pair tries again.
  const templateData = await (template ??= templateDataDir().catch((error) => {
    template = undefined;
    throw error;
  }));
  await sweepAbandoned();
  const label = (options.name ?? 'pair').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 24);
  const root = await mkdtemp(join(tmpdir(), `${PAIR_DIR_PREFIX}${label}-`));
  openDirs.add(root);
  await writeFile(join(root, 'owner.pid'), String(process.pid));

  const primary = new Server(join(root, 'primary'), ['--server-id=1', '--log-bin=primary-bin', '--binlog-format=ROW', '--sync-binlog=0']);
  const replica = new Server(join(root, 'replica'), [
    '--server-id=2',
    '--relay-log=replica-relay-bin',
    // How long without a byte (heartbeats come every slave_net_timeout/2) before the replica reconnects.
    '--slave-net-timeout=3',
  ]);
  const close = async () => {
    await Promise.all([primary.kill(), replica.kill()]);
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
    openDirs.delete(root);
  };

  try {
    await Promise.all([primary.create(templateData), replica.create(templateData)]);
    await Promise.all([primary.start(), replica.start()]);
    await replica.query(
      `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, ` +
        `MASTER_USER='${REPLICATION_USER}', MASTER_PASSWORD='${REPLICATION_PASSWORD}', ` +
        'MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos',
    );
    await replica.query('START SLAVE');
    await waitFor('the replica to connect to the primary', 10_000, async () => {
      const [status] = await replica.query<Record<string, unknown>[]>('SHOW SLAVE STATUS');
      return status?.Slave_IO_Running === 'Yes' && status?.Slave_SQL_Running === 'Yes';
    });
  } catch (error) {
    await close();
    throw error;
  }

  const replicaStatus = async () => {
    const [status] = await replica.query<Record<string, unknown>[]>('SHOW SLAVE STATUS');
    const [{ pos }] = await replica.query<{ pos: string }[]>('SELECT @@gtid_slave_pos AS pos');
    return { ...status, gtid_slave_pos: pos };
  };
  const caughtUp = async (timeoutMs = 10_000) => {
    const [{ pos }] = await primary.query<{ pos: string }[]>('SELECT @@gtid_binlog_pos AS pos');
    const [{ result }] = await replica.query<{ result: number }[]>('SELECT MASTER_GTID_WAIT(?, ?) AS result', [pos, timeoutMs / 1000]);
    if (result !== 0) {
      const status = await replicaStatus().catch((error) => String(error));
      throw new Error(`The replica did not apply the primary's ${pos} within ${timeoutMs} ms: ${JSON.stringify(summary(status))}`);
    }
  };

  return {
    primary,
    replica,
    async createMigratedDatabase(name) {
      const primaryUrl = await createMigratedDatabaseOn(name, primary.url());
      await caughtUp(30_000);
      return { primaryUrl, replicaUrl: replica.url(name) };
    },
    caughtUp,
    async stopSqlThread() {
      await replica.query('STOP SLAVE SQL_THREAD');
    },
    async startSqlThread() {
      await replica.query('START SLAVE SQL_THREAD');
    },
    async setDelay(seconds) {
      await replica.query('STOP SLAVE');
      await replica.query(`CHANGE MASTER TO MASTER_DELAY=${Math.max(0, Math.floor(seconds))}`);
      await replica.query('START SLAVE');
    },
    replicaStatus,
    close,
  };
}

class Server implements MariadbServer {
  port = 0;
  private child?: ChildProcess;
  private waitForExit: () => Promise<void> = () => Promise.resolve();
  private paused = false;
  private started = false;

  constructor(
    private readonly dir: string,
    private readonly roleOptions: string[],
  ) {}

  get pid(): number | undefined {
    return this.child && isAlive(this.child) ? this.child.pid : undefined;
  }

  url(database?: string): string {
    return `mysql://root@127.0.0.1:${this.port}${database === undefined ? '' : `/${database}`}`;
  }

  async query<T = any>(sql: string, params?: unknown[]): Promise<T> {
    const connection = await createConnection(this.connectionOptions(3_000));
    try {
      const [rows] = await connection.query(sql, params);
      await connection.end();
      return rows as T;
    } catch (error) {
      connection.destroy();
      throw error;
    }
  }

  /** Copies the template into this server's data directory. */
  async create(templateData: string): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    // coreutils' cp: 40 ms for the 26 MB template where fs.cp takes 170 ms (hundreds of small files in sys/).
    await run('cp', ['-a', templateData, join(this.dir, 'data')]);
  }

  async start(): Promise<void> {
    if (this.pid !== undefined) throw new Error(`mariadbd on port ${this.port} is already running (pid ${this.pid})`);
    if (this.started) return this.startOnce();
    this.port = await startOnFreePort((port) => {
      this.port = port;
      return this.startOnce();
    }, /Address already in use/);
    this.started = true;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || !isAlive(child)) return;
    child.kill('SIGKILL');
    await this.waitForExit();
    this.paused = false;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || !isAlive(child)) return;
    child.kill('SIGTERM');
    if (this.paused) this.resume();
    if (!(await within(this.waitForExit(), STOP_TIMEOUT_MS))) {
      await this.kill();
      throw new Error(`mariadbd on port ${this.port} did not shut down within ${STOP_TIMEOUT_MS} ms; killed it.\n${this.logTail()}`);
    }
  }

  async pause(): Promise<void> {
    if (!this.child || !isAlive(this.child)) throw new Error(`mariadbd on port ${this.port} is not running`);
    this.paused = true;
    await stopProcess(this.child, `mariadbd on port ${this.port}`);
  }

  resume(): void {
    if (!this.child || !isAlive(this.child)) throw new Error(`mariadbd on port ${this.port} is not running`);
    this.child.kill('SIGCONT');
    this.paused = false;
  }

  private async startOnce(): Promise<void> {
    const { child, waitForExit } = spawnMariadbd([...serverOptions(this.dir), `--port=${this.port}`, '--bind-address=127.0.0.1', ...this.roleOptions]);
    this.child = child;
    this.waitForExit = waitForExit;
    this.paused = false;
    try {
      await waitUntilAnswers(() => createConnection(this.connectionOptions(1_000)), child, `port ${this.port}`);
    } catch (error) {
      await this.kill();
      throw new Error(`${(error as Error).message}\n${this.logTail()}`, { cause: error });
    }
  }

  private connectionOptions(connectTimeout: number): ConnectionOptions {
    return { host: '127.0.0.1', port: this.port, user: 'root', connectTimeout };
  }

  logTail(lines = 25): string {
    return logTail(join(this.dir, 'error.log'), lines);
  }
}

/** The options every mariadbd here gets: private files in `dir`, small memory, nothing read from /etc. */
function serverOptions(dir: string): string[] {
  return [
    '--no-defaults', // must come first
    `--datadir=${join(dir, 'data')}`,
    `--socket=${join(dir, 'mariadbd.sock')}`,
    `--pid-file=${join(dir, 'mariadbd.pid')}`,
    `--log-error=${join(dir, 'error.log')}`,
    ...(process.getuid?.() === 0 ? ['--user=root'] : []),
    // Never a DNS lookup: clients are matched by address (root@127.0.0.1), not by name.
    '--skip-name-resolve',
    '--skip-performance-schema',
    '--innodb-buffer-pool-size=16M',
    '--innodb-log-file-size=8M',
    '--innodb-log-buffer-size=2M',
    // The default 12 MB temporary tablespace is written in full at every start.
    '--innodb-temp-data-file-path=ibtmp1:1M:autoextend',
    // The redo log is written at each commit and flushed once a second: a killed process loses nothing (an OS crash could).
    '--innodb-flush-log-at-trx-commit=2',
    '--key-buffer-size=1M',
    '--aria-pagecache-buffer-size=8M',
    // As Debian's packaged server (the shared one on 3306) is configured.
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_general_ci',
  ];
}

/**
 * Spawns mariadbd, tracked until it exits; output only in its --log-error file. The child does not hold the event
 * loop (jest and scripts can exit) except while `waitForExit()` is pending: a script awaiting it must not end there.
 */
function spawnMariadbd(args: string[]): { child: ChildProcess; waitForExit: () => Promise<void> } {
  const [command, commandArgs] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'KILL', '--', MARIADBD, ...args]] : [MARIADBD, args];
  const child = spawn(command, commandArgs, { detached: false, stdio: 'ignore' });
  running.add(child);
  const exited = new Promise<void>((done) => {
    child.once('exit', () => done());
    child.once('error', () => done()); // e.g. ENOENT: there is no process to wait for
  }).finally(() => running.delete(child));
  child.unref();
  const waitForExit = () => {
    if (isAlive(child)) child.ref();
    return exited;
  };
  return { child, waitForExit };
}

/** Polls a connection until the server answers a query; throws if the process exits or after 30 s. */
async function waitUntilAnswers(connect: () => Promise<Connection>, child: ChildProcess, where: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let lastError: unknown;
  for (;;) {
    if (!isAlive(child)) {
      throw new Error(`mariadbd (${where}) exited while starting (code ${child.exitCode}, signal ${child.signalCode})`);
    }
    try {
      const connection = await connect();
      try {
        await connection.query('SELECT 1');
      } catch (error) {
        connection.destroy();
        throw error;
      }
      await connection.end();
      return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`mariadbd (${where}) did not answer within ${START_TIMEOUT_MS} ms: ${String(lastError)}`);
    }
    await sleep(50);
  }
}

/**
 * The data directory every server is copied from, made once per machine and mariadbd version:
 * `mariadb-install-db`, then the users, through the unix socket of a server without networking. Built in a
 * temporary directory and renamed into place, so jest workers racing to build it each see a complete one.
 */
async function templateDataDir(): Promise<string> {
  const version = execFileSync(MARIADBD, ['--version'], { encoding: 'utf8' });
  const key = (/Ver\s+(\S+)/.exec(version)?.[1] ?? version).replace(/[^A-Za-z0-9.+_-]/g, '_');
  const finalDir = join(tmpdir(), `mariadb-template-${key}-r${TEMPLATE_RECIPE}`);
  if (existsSync(join(finalDir, 'data'))) return join(finalDir, 'data');

  const building = await mkdtemp(`${finalDir}.building-`);
  try {
    const data = join(building, 'data');
    await run(INSTALL_DB, [
      '--no-defaults',
      `--datadir=${data}`,
      ...(process.getuid?.() === 0 ? ['--user=root'] : []),
      // root@localhost with no password instead of unix_socket authentication.
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      // --force skips the script's `resolveip $(hostname)`: no name is looked up.
      '--force',
      '--skip-name-resolve',
      '--innodb-buffer-pool-size=16M',
      '--innodb-log-file-size=8M',
    ]);
    await createUsers(building);
    await rm(join(building, 'error.log'), { force: true });
    try {
      await rename(building, finalDir);
    } catch (error) {
      // Another process renamed its template into place first: use that one.
      if (!existsSync(join(finalDir, 'data'))) throw error;
      await rm(building, { recursive: true, force: true });
    }
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw error;
  }
  return join(finalDir, 'data');
}

/** Starts the template's server without networking, creates the users through its socket, shuts it down. */
async function createUsers(dir: string): Promise<void> {
  const socketPath = join(dir, 'mariadbd.sock');
  const { child, waitForExit } = spawnMariadbd([...serverOptions(dir), '--skip-networking']);
  try {
    await waitUntilAnswers(() => createConnection({ socketPath, user: 'root', connectTimeout: 1_000 }), child, 'template');
    const connection = await createConnection({ socketPath, user: 'root', connectTimeout: 3_000 });
    try {
      // install-db also made root@<this host's name>, which --skip-name-resolve ignores with a warning at every start.
      const [others] = await connection.query<any[]>(
        'SELECT User AS user, Host AS host FROM mysql.user ' + "WHERE User = 'root' AND Host NOT IN ('localhost', '127.0.0.1', '::1')",
      );
      for (const { user, host } of others) await connection.query('DROP USER ?@?', [user, host]);
      await connection.query("CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'");
      await connection.query("GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION");
      await connection.query('CREATE USER ?@? IDENTIFIED BY ?', [REPLICATION_USER, '127.0.0.1', REPLICATION_PASSWORD]);
      await connection.query('GRANT REPLICATION SLAVE ON *.* TO ?@?', [REPLICATION_USER, '127.0.0.1']);
      await connection.query('SHUTDOWN');
    } finally {
      connection.destroy();
    }
    if (!(await within(waitForExit(), STOP_TIMEOUT_MS))) throw new Error('the template server did not shut down');
  } catch (error) {
    if (isAlive(child)) child.kill('SIGKILL');
    await waitForExit();
    const log = logTail(join(dir, 'error.log'));
    throw new Error(`Could not prepare the MariaDB template in ${dir}: ${(error as Error).message}\n${log}`, { cause: error });
  }
}

/**
 * Removes pair directories whose owner process is gone (its servers died with it: --pdeathsig), and template
 * builds abandoned more than 10 minutes ago.
 */
async function sweepAbandoned(): Promise<void> {
  for (const entry of readdirSync(tmpdir())) {
    const dir = join(tmpdir(), entry);
    if (entry.startsWith(PAIR_DIR_PREFIX)) {
      await removeIfOwnerGone(dir);
    } else if (entry.startsWith('mariadb-template-') && entry.includes('.building-')) {
      const age = Date.now() - (await stat(dir).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 10 * 60_000) await rm(dir, { recursive: true, force: true }).catch(() => {});
    }
  }
}

/** Outside jest (a script), the process's exit kills what it started and removes the directories. */
function installExitHandler(): void {
  if (exitHandlerInstalled) return;
  exitHandlerInstalled = true;
  process.once('exit', () => {
    for (const child of running) if (isAlive(child)) child.kill('SIGKILL');
    for (const dir of openDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  });
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`${command} exited with ${code}:\n${output.slice(-4_000)}`))));
  });
}

async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** The few SHOW SLAVE STATUS fields that explain a replica that is behind. */
function summary(status: Record<string, unknown> | string): unknown {
  if (typeof status === 'string') return status;
  const fields = [
    ...['Slave_IO_Running', 'Slave_SQL_Running', 'Last_IO_Error', 'Last_SQL_Error'],
    ...['Gtid_IO_Pos', 'gtid_slave_pos', 'SQL_Delay', 'Seconds_Behind_Master'],
  ];
  return Object.fromEntries(fields.map((field) => [field, status[field]]));
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}

/** Whether `promise` settled within `ms`; the timer is cleared either way, so it never keeps the process alive. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((done) => (timer = setTimeout(() => done(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
