import { AppConfig, PLATFORM_APPS } from '@app/platform';
import { Server } from 'node:http';
import { seedDemoData } from '@app/seed-data';
import { DEMO_ECHO_TARGET } from '@app/domain';
import { banner, LAUNCHED_LOG_LEVEL } from '../banner';
import { startEchoTarget } from '../echo-target';
import { LaunchedApp, PlatformApp } from '../launched-app';
import { openDataSource } from '../open-data-source';
import { firstTakenPort } from '../port-check';
import { developmentToken } from './token.command';

/** How long the three apps have to start (listen and write their start-up lines). */
const START_TIMEOUT_MS = 60_000;

/**
 * `npm start`: migrates the database, loads the demo data into an empty one (never in production),
 * starts the three apps as their own processes, as the image starts each (`node <its flags> dist/apps/<app>/main.js`),
 * and once all three have started prints each Swagger UI URL and a development token, last. When one
 * app stops, it is named with how it ended, the other two are stopped, and the exit code is not 0.
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

  const echo = await echoTarget(config);
  const launched = apps.map((app) => new LaunchedApp(app, appEnvironment()));
  const stopAll = () => launched.forEach((app) => app.stop());
  const allEnded = () => Promise.all(launched.map((app) => app.ended));
  let stopping = false;
  const stopOnSignal = () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the platform (each app finishes the requests it has)…');
    stopAll();
  };
  process.on('SIGINT', stopOnSignal);
  process.on('SIGTERM', stopOnSignal);

  // The first app to end, of its own accord or not: the others are stopped with it.
  const firstEnd = Promise.race(launched.map((app) => app.ended.then((how) => ({ app: app.app, how }))));
  const start = await untilStarted(launched, firstEnd);
  if (!stopping && start !== 'started') {
    console.error(
      'timedOut' in start
        ? `${start.timedOut.map((app) => app.label).join(', ')} did not start within ${START_TIMEOUT_MS / 1000} s: stopping the platform.`
        : `${start.app.label} stopped during start (${start.how}): stopping the other apps.`,
    );
    stopAll();
    await allEnded();
    echo.server?.close();
    return 1;
  }
  if (!stopping) console.log(banner(config, await developmentToken(config), process.env.LOG_LEVEL, echo.line));

  const end = await firstEnd;
  if (!stopping) console.error(`${end.app.label} stopped (${end.how}): stopping the other apps.`);
  stopAll();
  await allEnded();
  echo.server?.close();
  if (stopping) {
    console.log('Stopped.');
    return 0;
  }
  console.error(`The platform stopped because ${end.app.label} stopped (${end.how}).`);
  return 1;
}

/**
 * The demo echo target, in development when the admitted ranges hold its address (the default there): its banner
 * line, and the server to close at the end. A port taken or an address this machine lacks costs the echo alone.
 */
async function echoTarget(config: AppConfig): Promise<{ line?: string; server?: Server }> {
  if (config.nodeEnv !== 'development' || !config.connectorTests.allowedCidrs.includes(DEMO_ECHO_TARGET.cidr)) return {};
  const started = await startEchoTarget();
  if ('problem' in started) return { line: `not served: ${DEMO_ECHO_TARGET.host}:${DEMO_ECHO_TARGET.port} is not available (${started.problem})` };
  return { line: `${DEMO_ECHO_TARGET.url} (the demo connectors and the test-run examples call it)`, server: started.server };
}

/** Until every app has started; or the first to end before, or those not started in time. */
async function untilStarted(
  launched: LaunchedApp[],
  firstEnd: Promise<{ app: PlatformApp; how: string }>,
): Promise<'started' | { app: PlatformApp; how: string } | { timedOut: PlatformApp[] }> {
  const started = new Set<LaunchedApp>();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ timedOut: PlatformApp[] }>((done) => {
    timer = setTimeout(() => done({ timedOut: launched.filter((app) => !started.has(app)).map((app) => app.app) }), START_TIMEOUT_MS);
  });
  const all = Promise.all(launched.map((app) => app.started.then(() => started.add(app)))).then(() => 'started' as const);
  try {
    return await Promise.race([all, firstEnd, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Each app on its own default port (a PORT meant for one app must not put all three on it), quiet by default. */
function appEnvironment(): NodeJS.ProcessEnv {
  const { PORT: _ignored, ...env } = process.env;
  // Quiet by default so the banner stays readable (the banner says so); LOG_LEVEL=info shows every request line.
  return { ...env, LOG_LEVEL: env.LOG_LEVEL ?? LAUNCHED_LOG_LEVEL };
}
