import { APP_NODE_FLAGS, APP_STARTED_MESSAGE, PLATFORM_APPS, withAppEnvDefaults } from '@app/platform';
import { ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export type PlatformApp = (typeof PLATFORM_APPS)[keyof typeof PLATFORM_APPS];

/**
 * One app of the platform as `npm start` runs it: a process of its own, `node dist/apps/<app>/main.js` with the image's
 * node flags and the environment the image sets where the launcher's does not (APP_NODE_FLAGS, APP_ENV_DEFAULTS).
 */
export class LaunchedApp {
  /** Settles once the app listens and has written its start-up lines; never if it stops first. */
  readonly started: Promise<void>;
  /** Settles when the process has ended, with how: `exit code 1`, `killed by SIGKILL`. */
  readonly ended: Promise<string>;
  private readonly child: ChildProcess;
  private stopSent = false;

  constructor(
    readonly app: PlatformApp,
    env: NodeJS.ProcessEnv,
  ) {
    const main = resolve(__dirname, '..', '..', 'apps', app.name, 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: run npm run build first`);
    // The apps write to the launcher's own stdout and stderr (no pipe through it): their lines and the banner keep
    // the order in which they were written.
    // The launcher's own node flags (none under npm start) after the image's: one given to it is given to the apps.
    this.child = fork(main, [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: withAppEnvDefaults(env),
      execArgv: [...APP_NODE_FLAGS, ...process.execArgv],
    });
    this.started = new Promise((done) => this.child.on('message', (message) => message === APP_STARTED_MESSAGE && done()));
    this.ended = new Promise((done) => {
      this.child.once('exit', (code, signal) => done(signal ? `killed by ${signal}` : `exit code ${code}`));
      // Also emitted when a signal could not be sent: only a process that never ran ends with it.
      this.child.on('error', (error) => this.child.pid === undefined && done(`could not run: ${error.message}`));
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * SIGTERM, once: the app finishes the requests it has, then exits (libs/platform/src/shutdown). A second signal
   * would find its handler gone and end it at once, cutting those requests.
   */
  stop(): void {
    if (this.stopSent || !this.running) return;
    this.stopSent = true;
    this.child.kill('SIGTERM');
  }
}
