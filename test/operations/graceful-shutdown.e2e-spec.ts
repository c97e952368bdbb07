import { buildDataSourceOptions, PlatformDataSource } from '@app/domain';
import { parseServerUrl } from '@app/platform';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { APP_START_TIMEOUT_MS, AppProcess, startApp } from '../support/app-process';
import { seedTenant, Tenant } from '../support/fixtures';
import { ROOT } from '../support/run-command';
import { TEST_JWT_SECRET } from '../support/test-config';
import { signToken } from '../support/tokens';
import { getAlone as get, Outcome } from '../support/raw-http';

/**
 * The built app, as Kubernetes runs it, receives SIGTERM while answering a stream of requests on new
 * connections: each gets its whole answer or a refused connection, never a cut one, even from a client
 * that pauses between connecting and sending; readiness says 503 at once; the process exits 0 and
 * refuses connections afterwards.
 */
describe('SIGTERM', () => {
  let dataSource: PlatformDataSource;
  let tenant: Tenant;
  let sut: AppProcess | undefined;

  beforeAll(async () => {
    dataSource = new PlatformDataSource(buildDataSourceOptions(parseServerUrl(process.env.TEST_DATABASE_URL!), { migrationsRun: false }));
    await dataSource.initialize();
    tenant = await seedTenant(dataSource);
  });
  afterAll(async () => {
    await sut?.stop();
    await dataSource.destroy();
  });

  it(
    'turns readiness 503, answers every request whole until traffic stops, closes the database and exits 0',
    async () => {
      const main = join(ROOT, 'dist', 'apps', 'bot-admin', 'main.js');
      if (!existsSync(main)) throw new Error(`${main} is missing: npm test builds before running jest`);
      sut = await startApp({
        args: [main],
        env: { PATH: process.env.PATH, DATABASE_URL: process.env.TEST_DATABASE_URL, AUTH_JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info' },
      });
      const { child, port } = sut;
      const output = () => sut!.output;

      const headers = { Authorization: `Bearer ${await signToken({ orgs: [tenant.organization.uuid] })}` };
      const path = `/platform-bot-admin/org/${tenant.organization.uuid}/env/${tenant.environment.uuid}/bots-admin`;
      const outcomes: Outcome[] = [];
      let signalled = false;
      let readinessAfterSignal: Outcome | undefined;
      const worker = async () => {
        for (let i = 0; i < 25; i++) {
          const outcome = await get(port, path, headers);
          outcomes.push(outcome);
          if (!signalled && outcomes.length >= 60) {
            signalled = true;
            child.kill('SIGTERM');
            // The signal reaches the app's handler at its event loop's next turn: a request already queued may be
            // answered before it. Readiness is asked once the app has said it is draining.
            for (const deadline = Date.now() + 10_000; !output().includes('SIGTERM: draining'); await new Promise((r) => setTimeout(r, 10))) {
              if (Date.now() > deadline) throw new Error(`the app did not say it drains within 10 s of SIGTERM\n${sut!.tail()}`);
            }
            readinessAfterSignal = await get(port, '/health/ready');
            // Clients that connect and then pause before sending (a busy client, a GC pause), longer
            // than the app's quiet period: their requests must still be answered, not reset.
            const paused = Array.from({ length: 5 }, () => get(port, path, headers));
            setImmediate(() => {
              const until = Date.now() + 600;
              while (Date.now() < until); // the connects have gone out; the requests wait behind this
            });
            for (const outcome of await Promise.all(paused)) outcomes.push(outcome);
          }
        }
      };
      await Promise.all(Array.from({ length: 20 }, worker));
      const code = await sut.exited;

      const answered = outcomes.filter((o): o is Exclude<Outcome, { error: string }> => 'status' in o);
      const failed = outcomes.filter((o): o is { error: string } => 'error' in o);
      expect(answered.length).toBeGreaterThanOrEqual(60);
      for (const answer of answered) {
        expect(answer.status).toBe(200);
        expect(JSON.parse(answer.body)).toEqual({ bots: [expect.objectContaining({ uuid: tenant.bot.uuid })] });
      }
      expect(failed.map((f) => f.error).filter((error) => error !== 'ECONNREFUSED')).toEqual([]);
      expect(readinessAfterSignal).toMatchObject({ status: 503 });
      expect(code).toBe(0);
      await expect(get(port, '/health/live')).resolves.toEqual({ error: 'ECONNREFUSED' });
      expect(output()).toContain('SIGTERM: draining');
      expect(output()).toContain('Stopped cleanly');
    },
    APP_START_TIMEOUT_MS + 60_000,
  );
});
