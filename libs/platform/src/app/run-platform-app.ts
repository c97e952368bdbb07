import { existsSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { INestApplication, Logger } from '@nestjs/common';
import pino from 'pino';
import { AppConfig, loadAppConfig } from '../config/app-config';
import { ConfigValidationError } from '../config/config-validation.error';
import { ReadinessDetails } from '../health/readiness-details';
import { createPlatformApp } from './create-platform-app';
import { PlatformAppDefinition } from './platform-app.definition';
import { APP_STARTED_MESSAGE } from './platform-apps';
import { exitGracefullyOnSignals, ShutdownState } from '../shutdown/shutdown';

/**
 * How long an app started by `npm start` waits for the dependencies it names in `/health/ready` (NATS) to answer
 * before it says it has started: their "connected" lines then come before the banner, and a broker that does not
 * answer holds the banner no longer than this.
 */
const DEPENDENCIES_WAIT_MS = 3_000;

/** The body of every app's main.ts: validate the environment, build, listen. */
export async function runPlatformApp(definition: PlatformAppDefinition): Promise<void> {
  const config = loadConfigOrExit(definition.defaultPort);
  // Started by `npm start` (a child with an IPC channel): each log line is written before the next statement runs, so
  // that every start-up line is out when the app tells the launcher it has started (tellLauncherStarted). Elsewhere
  // the lines are written asynchronously (createRootLogger).
  const launched = process.send !== undefined;
  const app = await createPlatformApp(definition, config, launched ? { logDestination: pino.destination({ dest: 1, sync: true }) } : {});
  exitGracefullyOnSignals(app, app.get(ShutdownState));
  if (config.host === undefined) await app.listen(config.port);
  else await app.listen(config.port, config.host);
  // The port bound, which PORT=0 leaves to the system: whoever started the app reads it here.
  const { port } = app.getHttpServer().address() as AddressInfo;
  new Logger('Bootstrap').log(
    `${definition.label} listening on ${config.host ?? 'every interface'}, port ${port}; Swagger UI at http://localhost:${port}/${definition.label}/docs`,
  );
  if (launched) await tellLauncherStarted(app);
}

/**
 * Tells `npm start` that this app has started, once its start-up lines are written (synchronously, see above) and the
 * dependencies it names in `/health/ready` have answered or DEPENDENCIES_WAIT_MS passed: the launcher's banner then
 * comes after them all.
 */
async function tellLauncherStarted(app: INestApplication): Promise<void> {
  const details = app.get(ReadinessDetails);
  const deadline = Date.now() + DEPENDENCIES_WAIT_MS;
  while (Object.values(details.statuses()).includes('down') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  process.send!(APP_STARTED_MESSAGE);
}

/**
 * A bad environment stops the process with one line naming the variables, and no stack trace. A `.env` file in
 * the working directory fills what the environment does not set (Node's own loader: the environment wins).
 */
export function loadConfigOrExit(defaultPort?: number): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadAppConfig(process.env, defaultPort);
  } catch (error) {
    if (!(error instanceof ConfigValidationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
