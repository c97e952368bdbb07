import { existsSync } from 'node:fs';
import { Logger } from '@nestjs/common';
import { AppConfig, loadAppConfig } from '../config/app-config';
import { ConfigValidationError } from '../config/config-validation.error';
import { createPlatformApp } from './create-platform-app';
import { PlatformAppDefinition } from './platform-app.definition';
import { exitGracefullyOnSignals, ShutdownState } from '../shutdown/shutdown';

/** The body of every app's main.ts: validate the environment, build, listen. */
export async function runPlatformApp(definition: PlatformAppDefinition): Promise<void> {
  const config = loadConfigOrExit(definition.defaultPort);
  const app = await createPlatformApp(definition, config);
  exitGracefullyOnSignals(app, app.get(ShutdownState));
  if (config.host === undefined) await app.listen(config.port);
  else await app.listen(config.port, config.host);
  new Logger('Bootstrap').log(
    `${definition.label} listening on ${config.host ?? 'every interface'}, port ${config.port}; Swagger UI at http://localhost:${config.port}/${definition.label}/docs`,
  );
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
