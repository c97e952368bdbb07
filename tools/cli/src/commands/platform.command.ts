import { AppConfig, PLATFORM_APPS } from '@app/platform';
import { seedDemoData } from '@app/seed-data';
import { ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openDataSource } from '../open-data-source';
import { firstTakenPort } from '../port-check';
import { developmentToken } from './token.command';

const READY_TIMEOUT_MS = 60_000;

/**
 * `npm start`: migrates the database, loads the demo data into an empty one (never in production),
 * starts the three apps as their own processes, exactly as `node dist/apps/<app>/main.js` would,
 * and prints each Swagger UI URL and a development token.
 */
export async function startPlatform(config: AppConfig): Promise<number> {
  // Before anything starts: a second `npm start` must not print a banner and a token for the first one.
  const apps = Object.values(PLATFORM_APPS);
  const taken = await firstTakenPort(apps.map((app) => app.defaultPort));
  if (taken !== undefined) {
    const app = apps.find((a) => a.defaultPort === taken)!;
    console.error(`Port ${taken} (${app.label}) is already in use, perhaps by a running npm start: stop it or free the port.`);
    return 1;
  }

  const dataSource = await openDataSource(config.database);
  try {
    await dataSource.runMigrations({ transaction: 'each' });
    if (config.nodeEnv !== 'production' && (await seedDemoData(dataSource))) {
      console.log('Loaded the demo data set (organizations, environments, bots, flows, connectors).');
    }
  } finally {
    await dataSource.destroy();
  }

  const children = apps.map((app) => startApp(app.name));
  const stopAll = (signal: NodeJS.Signals) => children.forEach((child) => child.kill(signal));
  let stopping = false;
  const stopOnSignal = () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the platform (each app finishes the requests it has)…');
    stopAll('SIGTERM');
  };
  process.on('SIGINT', stopOnSignal);
  process.on('SIGTERM', stopOnSignal);

  const exited = Promise.race(
    children.map((child, i) =>
      new Promise<number>((done) => child.on('exit', (code) => done(code ?? 0)).on('error', () => done(1))).then((code) => ({ i, code })),
    ),
  );
  const ready = Promise.all(apps.map((app) => waitUntilReady(app.defaultPort)));
  const first = await Promise.race([ready.then(() => undefined), exited]);
  if (first !== undefined) {
    console.error(`${apps[first.i].name} stopped during start (exit ${first.code}); stopping the platform.`);
    stopAll('SIGTERM');
    return 1;
  }

  const token = await developmentToken(config);
  console.log(banner(config, token));
  const { code } = await exited;
  stopAll('SIGTERM');
  await Promise.all(
    children.map((child) => (child.exitCode === null && child.signalCode === null ? new Promise((done) => child.once('exit', done)) : undefined)),
  );
  if (stopping) console.log('Stopped.');
  return stopping ? 0 : code;
}

function startApp(name: string): ChildProcess {
  const main = resolve(__dirname, '..', '..', 'apps', name, 'main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
  // Each app on its own default port: a PORT meant for one app must not put all three on it.
  const { PORT: _ignored, ...env } = process.env;
  return fork(main, [], {
    stdio: 'inherit',
    // Quiet by default so the banner stays readable (the banner says so); LOG_LEVEL=info shows every request line.
    env: { ...env, LOG_LEVEL: launchedLogLevel() },
  });
}

async function waitUntilReady(port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no app became ready on port ${port} within ${READY_TIMEOUT_MS / 1000} s`);
}

/** The apps' log level under `npm start`: warn unless LOG_LEVEL says otherwise. */
function launchedLogLevel(): string {
  return process.env.LOG_LEVEL ?? 'warn';
}

function banner(config: AppConfig, token: string | undefined): string {
  const where =
    config.host === undefined ? 'every interface' : config.host === '127.0.0.1' ? '127.0.0.1 only (HOST=0.0.0.0 to open it to your network)' : config.host;
  const lines = [
    '',
    'Bot Platform Management API is running',
    `  database: ${config.database.type === 'sqlite' ? config.database.path : 'MySQL (DATABASE_URL)'}`,
    `  listening on: ${where}`,
    `  request logs: ${launchedLogLevel() === 'warn' && process.env.LOG_LEVEL === undefined ? 'off (LOG_LEVEL=info npm start shows one line per request)' : `LOG_LEVEL=${launchedLogLevel()}`}`,
    '',
    ...Object.values(PLATFORM_APPS).map((app) => `  ${app.label.padEnd(32)} http://localhost:${app.defaultPort}/${app.label}/docs`),
    '',
    token
      ? `Development token (demo user, every organization, connectors:write; valid 30 days):\n\n${token}\n\n` +
        `Try:\n  TOKEN=${token}\n  curl -H "Authorization: Bearer $TOKEN" http://localhost:3003/platform-bot-admin/org/0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01/env/1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02/bots-admin`
      : 'Auth is configured: call with tokens of your identity provider.',
    '',
    'Press Ctrl+C to stop.',
  ];
  return lines.join('\n');
}
